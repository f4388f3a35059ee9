#if !JOSE_SWIFT_CRYPTO
internal import COpenSSL

extension EVPKey {
    /// Creates an EC key from fixed-width big-endian coordinates (the JWK `x`, `y`, `d`).
    ///
    /// The point is checked in Swift (``ECComponents/check(curve:x:y:d:)``) before OpenSSL sees
    /// it, so a point off the curve is refused with the same message as on swift-crypto.
    ///
    /// - Parameters:
    ///   - curve: the curve.
    ///   - x: the affine x coordinate, exactly `curve.coordinateByteCount` bytes.
    ///   - y: the affine y coordinate, exactly `curve.coordinateByteCount` bytes.
    ///   - d: the private scalar, exactly `curve.coordinateByteCount` bytes, or `nil`.
    /// - Throws: ``JOSEError/Code/invalidKey`` for a wrong length, a point not on the curve, or
    ///   a private scalar out of range or not matching the point.
    static func ec(curve: EllipticCurve, x: [UInt8], y: [UInt8], d: [UInt8]? = nil) throws -> EVPKey {
        try ECComponents.check(curve: curve, x: x, y: y, d: d)
        let builder = try OSSLParameterBuilder()
        try builder.pushString("group", curve.openSSLName)
        if let d {
            try builder.pushInteger("priv", d, secret: true)
        }
        let point = [0x04] + x + y
        let pointer = try builder.withParameters(octets: [("pub", point)]) { params in
            try fromData(type: "EC", isPrivate: d != nil, params: params)
        }
        return try adopt(pointer, policy: .default)
    }

    /// Checks the public point of a key OpenSSL decoded itself (SPKI, SEC 1, PKCS#8, a
    /// certificate) with ``ECPointPolicy``, as every other road to an EC key is checked; does
    /// nothing for other key types. OpenSSL refuses points off the curve while decoding, so
    /// this holds the keys it builds to the same Swift check rather than trusting that.
    ///
    /// - Throws: ``JOSEError/Code/invalidKey`` when the point is not on the curve or cannot be read.
    func checkDecodedPoint() throws {
        guard case .ec(let curve) = kind else { return }
        guard let x = Self.bigNumberParameter(pointer, "qx"), let y = Self.bigNumberParameter(pointer, "qy") else {
            throw OpenSSLErrorQueue.error(.invalidKey, "EC public point is not on the curve: OpenSSL cannot give its coordinates")
        }
        try ECPointPolicy.check(curve: curve, x: x, y: y)
    }
}

extension EVPKey {
    /// Creates an octet key pair (Ed25519, Ed448, X25519) from its raw encodings (the JWK `x`
    /// and `d`).
    ///
    /// - Parameters:
    ///   - curve: the curve.
    ///   - x: the public key, exactly `curve.keyByteCount` bytes.
    ///   - d: the private key (seed), exactly `curve.keyByteCount` bytes, or `nil`.
    /// - Throws: ``JOSEError/Code/invalidKey`` for a wrong length or a `d` whose public key is
    ///   not `x`.
    static func okp(curve: OKPCurve, x: [UInt8], d: [UInt8]? = nil) throws -> EVPKey {
        let width = curve.keyByteCount
        guard x.count == width else {
            throw JOSEError(.invalidKey, "\(curve.rawValue) x is \(x.count) bytes; exactly \(width) are required")
        }
        let created: OpaquePointer?
        if let d {
            guard d.count == width else {
                throw JOSEError(.invalidKey, "\(curve.rawValue) d is \(d.count) bytes; exactly \(width) are required")
            }
            created = d.withUnsafeBufferPointer {
                EVP_PKEY_new_raw_private_key_ex(nil, curve.openSSLName.cString, nil, $0.baseAddress, width)
            }
        } else {
            created = x.withUnsafeBufferPointer {
                EVP_PKEY_new_raw_public_key_ex(nil, curve.openSSLName.cString, nil, $0.baseAddress, width)
            }
        }
        guard let created else {
            throw OpenSSLErrorQueue.error(.invalidKey, "OpenSSL rejected the \(curve.rawValue) key")
        }
        let key = try adopt(created, policy: .default)
        if d != nil {
            guard let derived = try? key.okpComponents().x, derived == x else {
                throw OpenSSLErrorQueue.error(.invalidKey, "\(curve.rawValue) private key d does not match x")
            }
        }
        return key
    }
}
#endif
