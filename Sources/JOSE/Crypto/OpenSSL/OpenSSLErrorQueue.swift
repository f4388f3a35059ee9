#if !JOSE_SWIFT_CRYPTO
internal import COpenSSL

/// Access to OpenSSL's per-thread error queue.
///
/// OpenSSL records failures on a queue owned by the calling thread. Every failure path in this
/// layer drains it (``drain()``), so an old entry never shows up in the message of a later,
/// unrelated call on the same thread.
enum OpenSSLErrorQueue {
    /// Empties the calling thread's error queue and returns its entries as one line of text,
    /// oldest first, separated by "; ", or an empty string when the queue was empty.
    static func drain() -> String {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            // Keep only the first few entries: the rest are usually repetitions.
            if messages.count < 4 {
                messages.append(describe(code))
            }
        }
        return messages.joined(separator: "; ")
    }

    /// Empties the calling thread's error queue without reading it (used on paths that report
    /// plain `false`, such as signature verification).
    static func clear() {
        ERR_clear_error()
    }

    /// Whether this thread's queue holds no error (what every failing call must leave behind).
    static var isEmpty: Bool {
        ERR_peek_error() == 0
    }

    /// The human-readable form of one packed error code.
    private static func describe(_ code: UInt) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer -> String in
            guard let base = buffer.baseAddress else { return "OpenSSL error \(code)" }
            ERR_error_string_n(code, base, buffer.count)
            return String(cString: base)
        }
    }

    /// Builds an error with `code` whose message is `message`, followed by the drained OpenSSL
    /// error queue when it held anything.
    static func error(_ code: JOSEError.Code, _ message: String) -> JOSEError {
        let detail = drain()
        return JOSEError(code, detail.isEmpty ? message : "\(message) (\(detail))")
    }
}
#endif
