internal import COpenSSL

/// Conversion between the JWS ECDSA signature format (fixed-width R‖S, as in IEEE P1363) and
/// the DER `ECDSA-Sig-Value` OpenSSL works with.
enum ECDSASignatureEncoding {
    /// Converts a raw R‖S signature to DER in a stack buffer and passes it to `body`.
    ///
    /// - Parameters:
    ///   - rawRS: exactly `2 × coordinateByteCount` bytes.
    ///   - coordinateByteCount: the curve's coordinate width.
    /// - Returns: `body`'s result, or `nil` when the input has the wrong length or OpenSSL fails.
    static func withDER<T>(
        rawRS: UnsafeRawBufferPointer, coordinateByteCount width: Int, _ body: (UnsafeRawBufferPointer) -> T
    ) -> T? {
        guard rawRS.count == 2 * width, let start = rawRS.baseAddress?.assumingMemoryBound(to: UInt8.self),
              let signature = ECDSA_SIG_new()
        else { return nil }
        defer { ECDSA_SIG_free(signature) }
        guard let r = BN_bin2bn(start, Int32(width), nil) else { return nil }
        guard let s = BN_bin2bn(start + width, Int32(width), nil) else { BN_free(r); return nil }
        guard ECDSA_SIG_set0(signature, r, s) == 1 else { BN_free(r); BN_free(s); return nil }
        let length = Int(i2d_ECDSA_SIG(signature, nil))
        guard length > 0, length <= OpenSSLSignature.maximumDERSignatureByteCount else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: OpenSSLSignature.maximumDERSignatureByteCount) {
            buffer -> T? in
            var cursor = buffer.baseAddress
            guard Int(i2d_ECDSA_SIG(signature, &cursor)) == length, let base = buffer.baseAddress else { return nil }
            return body(UnsafeRawBufferPointer(start: base, count: length))
        }
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
