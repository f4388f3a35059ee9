extension HTTPFetchRequest {
    /// Checks what every ``HTTPFetcher`` checks before it connects: the URL against
    /// ``TransportPolicy``, the limits, the method and body, and that each header can be sent as
    /// is. The bundled fetchers call it first; a fetcher of your own should too.
    ///
    /// - Throws: ``JOSEError`` with code ``JOSEError/Code/transportFailed`` (the message starts
    ///   "refusing to fetch") when the transport policy refuses the URL or a header name or value
    ///   is empty or holds control characters (a value echoed from a server, such as an ETag,
    ///   must not inject lines); ``JOSEError/Code/invalidInput`` when the timeout is not
    ///   positive, the body limit is negative, the method is neither `GET` nor `POST`, or a `GET`
    ///   has a body.
    public func validateForSending() throws {
        guard TransportPolicy.isAllowed(url) else {
            throw JOSEError(.transportFailed,
                            "refusing to fetch \(TransportPolicy.describe(url)): only https, or http to a loopback host, is allowed")
        }
        guard timeout > .zero else {
            throw JOSEError(.invalidInput, "fetch timeout must be positive, got \(timeout)")
        }
        guard maximumBodyBytes >= 0 else {
            throw JOSEError(.invalidInput, "maximum body size must not be negative, got \(maximumBodyBytes)")
        }
        guard method == .post || (method == .get && body.isEmpty) else {
            throw JOSEError(.invalidInput, "only GET without a body and POST are sent, got \(String(reflecting: method.rawValue))")
        }
        for (name, value) in headers where !Self.isSendable(name: name, value: value) {
            throw JOSEError(.transportFailed,
                            "refusing to fetch \(TransportPolicy.describe(url)): header \(String(reflecting: name)) is empty or contains control characters")
        }
    }

    /// Whether a header can be sent as is: a token-like name and a value without control
    /// characters other than tab.
    private static func isSendable(name: String, value: String) -> Bool {
        guard !name.isEmpty,
              name.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != ":" }) else {
            return false
        }
        return value.unicodeScalars.allSatisfy { $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7F) }
    }
}
