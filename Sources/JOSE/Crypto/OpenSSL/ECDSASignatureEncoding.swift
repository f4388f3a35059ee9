#if !JOSE_SWIFT_CRYPTO
internal import COpenSSL

/// Conversion between the JWS ECDSA signature format (fixed-width R‖S, as in IEEE P1363) and
/// the DER `ECDSA-Sig-Value` OpenSSL works with.
enum ECDSASignatureEncoding {
    /// Converts a raw R‖S signature to DER in a stack buffer and passes it to `body`.
    ///
    /// The DER is written by hand (no `ECDSA_SIG`/`BIGNUM` allocations): each of R and S as a
    /// minimal unsigned INTEGER (leading zero bytes dropped, one `00` added when the high bit is
    /// set, a single `00` for zero), inside a SEQUENCE whose length takes the long form above
    /// 127 bytes (P-521). This is exactly what `i2d_ECDSA_SIG` produces for the same values.
    ///
    /// - Parameters:
    ///   - rawRS: exactly `2 × coordinateByteCount` bytes.
    ///   - coordinateByteCount: the curve's coordinate width (at most 66).
    /// - Returns: `body`'s result, or `nil` when the input has the wrong length.
    static func withDER<T>(
        rawRS: UnsafeRawBufferPointer, coordinateByteCount width: Int, _ body: (UnsafeRawBufferPointer) -> T
    ) -> T? {
        guard rawRS.count == 2 * width, width > 0, width <= 66 else { return nil }
        let r = UnsafeRawBufferPointer(rebasing: rawRS[0..<width])
        let s = UnsafeRawBufferPointer(rebasing: rawRS[width...])
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: OpenSSLSignature.maximumDERSignatureByteCount) {
            der -> T? in
            let contentLength = integerLength(r) + integerLength(s)
            var at = 0
            der[at] = 0x30
            at += 1
            if contentLength > 127 {
                der[at] = 0x81
                at += 1
            }
            der[at] = UInt8(contentLength)
            at += 1
            at = writeInteger(r, into: der, at: at)
            at = writeInteger(s, into: der, at: at)
            return body(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: der[0..<at])))
        }
    }

    /// The offset of the first non-zero byte of `bytes` (its last byte when all are zero).
    private static func significantStart(_ bytes: UnsafeRawBufferPointer) -> Int {
        var start = 0
        while start < bytes.count - 1, bytes[start] == 0 { start += 1 }
        return start
    }

    /// The encoded length (tag, length, content) of `bytes` as a minimal unsigned DER INTEGER.
    private static func integerLength(_ bytes: UnsafeRawBufferPointer) -> Int {
        let start = significantStart(bytes)
        let content = bytes.count - start + (bytes[start] & 0x80 != 0 ? 1 : 0)
        return 2 + content
    }

    /// Writes `bytes` as a minimal unsigned DER INTEGER at `at`; returns the offset after it.
    private static func writeInteger(_ bytes: UnsafeRawBufferPointer, into der: UnsafeMutableBufferPointer<UInt8>, at: Int) -> Int {
        let start = significantStart(bytes)
        let pad = bytes[start] & 0x80 != 0
        var at = at
        der[at] = 0x02
        der[at + 1] = UInt8(bytes.count - start + (pad ? 1 : 0))
        at += 2
        if pad {
            der[at] = 0
            at += 1
        }
        for index in start..<bytes.count {
            der[at] = bytes[index]
            at += 1
        }
        return at
    }

    /// Converts a DER `ECDSA-Sig-Value` to fixed-width R‖S, or `nil` if it does not parse, has
    /// trailing bytes, or R or S does not fit in `coordinateByteCount` bytes.
    static func rawRS(fromDER der: UnsafeRawBufferPointer, coordinateByteCount width: Int) -> [UInt8]? {
        guard let start = der.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var cursor: UnsafePointer<UInt8>? = UnsafePointer(start)
        guard let signature = d2i_ECDSA_SIG(nil, &cursor, der.count) else { return nil }
        defer { ECDSA_SIG_free(signature) }
        guard let end = cursor, end - UnsafePointer(start) == der.count,
              let r = ECDSA_SIG_get0_r(signature), let s = ECDSA_SIG_get0_s(signature),
              let rBytes = EVPKey.bigNumberBytes(r, width: width),
              let sBytes = EVPKey.bigNumberBytes(s, width: width)
        else { return nil }
        return rBytes + sBytes
    }
}
#endif
