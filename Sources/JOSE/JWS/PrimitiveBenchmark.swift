/// The raw OpenSSL signature check of one token, for `jose bench` to measure beside the full
/// verify path.
///
/// The token is split and decoded once, at creation; ``verify()`` then runs only the primitive
/// (`OpenSSLSignature.verify`, or `HMACKey.isValidAuthenticationCode` for HS*) on the
/// pre-decoded signing input and signature: no parsing, no key selection, no allow-list. The
/// ratio of the two rates is the cost of everything the library adds around OpenSSL.
package struct PrimitiveBenchmark: Sendable {
    /// The algorithm from the token's header.
    package let algorithm: JWSAlgorithm
    /// The key the signature is checked with.
    private let key: JWK
    /// `BASE64URL(header) '.' BASE64URL(payload)`, as signed.
    private let signingInput: [UInt8]
    /// The decoded signature.
    private let signature: [UInt8]

    /// Decodes `token` once for repeated primitive checks with `key`.
    ///
    /// - Parameters:
    ///   - token: a compact JWS.
    ///   - key: the verification key (a private key verifies too).
    /// - Throws: ``JOSEError`` `malformed` or header errors when `token` is not a compact JWS.
    package init(token: String, key: JWK) throws {
        var text = token
        (algorithm, signingInput, signature) = try text.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            let jws = try CompactJWS(bytes, limits: .default, understoodCritical: [], reservingPayloadTokens: false)
            return (jws.header.algorithm, Array(bytes[0..<jws.signingInputCount]), jws.withSignature { Array($0) })
        }
        self.key = key
    }

    /// Runs the OpenSSL primitive once; `true` when the signature verifies.
    package func verify() -> Bool {
        signingInput.withUnsafeBytes { message in
            signature.withUnsafeBytes { signature in
                switch key.material {
                case .symmetric(let secret):
                    guard let hash = algorithm.hash else { return false }
                    return secret.isValidAuthenticationCode(signature, hash: hash, message: message)
                case .asymmetric(let evpKey):
                    return OpenSSLSignature.verify(algorithm, key: evpKey, message: message, signature: signature)
                }
            }
        }
    }
}
