import JOSE

extension FuzzTarget {
    /// Sign then verify: the first byte picks the key (bit 0: HS256 or ES256) and the `kid`
    /// length (bits 1-5), the next bytes are the `kid`, the rest is the payload. A token this
    /// library signs must verify to the same payload and `kid`; when the payload is a JSON
    /// object, the JWT path must reach the claim rules (no signature, key or parse error) and
    /// return the payload bytes unchanged.
    static let roundTrip = FuzzTarget(name: "round-trip") { bytes in
        guard let control = bytes.first else { return }
        let useEC = control & 1 == 1
        let kidLength = min(Int(control >> 1) & 0x1F, bytes.count - 1)
        let kid = String(decoding: bytes[1..<(1 + kidLength)], as: UTF8.self)
        let payload = Array(bytes[(1 + kidLength)...])
        let key = useEC ? Fixtures.ecPrivateKey : Fixtures.hmacKey
        let algorithm: JWSAlgorithm = useEC ? .es256 : .hs256

        guard let signer = allowingJOSEError("JWSSigner", { try JWSSigner(key: key, algorithm: algorithm, keyID: kid) }),
              let token = allowingJOSEError("sign", { try signer.sign(payload) })
        else { fuzzFailure("signing with a fixture key failed") }

        let verifyKey = useEC ? key.publicKey! : key  // fixture keys: the EC key has a public half
        let verifier = JWSVerifier(key: verifyKey, algorithms: [algorithm])
        let verified: VerifiedJWS
        do {
            verified = try verifier.verify(token)
        } catch {
            fuzzFailure("a token signed here does not verify: \(error); token \(token)")
        }
        if Array(verified.payload) != payload { fuzzFailure("payload changed across sign/verify") }
        if verified.header.keyID != kid { fuzzFailure("kid \(kid.debugDescription) came back as \(String(describing: verified.header.keyID))") }

        guard let document = try? JSONDocument(bytes: payload), document.root.kind == .object else { return }
        let jwtVerifier = JWTVerifier(keySource: JWKSet(keys: [verifyKey]), algorithms: [algorithm],
                                      rules: JWTClaimRules(clock: .fixed(secondsSince1970: Fixtures.exampleNow)))
        do {
            let jwt = try jwtVerifier.verifyWithoutSuspending(token)
            // The claims text is the object's bytes: the payload less surrounding JSON whitespace.
            if Array(jwt.claims.jsonString.utf8)[...] != trimmingJSONWhitespace(payload[...]) {
                fuzzFailure("claims JSON differs from the signed payload")
            }
            readClaims(jwt.claims)
        } catch let error as JOSEError {
            let signatureLevel: Set<JOSEError.Code> = [.invalidSignature, .keyNotFound, .algorithmNotAllowed, .unsupportedAlgorithm]
            if signatureLevel.contains(error.code) { fuzzFailure("JWT path rejected a good token: \(error)") }
        } catch {
            fuzzFailure("JWT path threw a non-JOSEError: \(error)")
        }
    }

    /// `bytes` without leading and trailing JSON whitespace (RFC 8259 §2: space, tab, LF, CR).
    private static func trimmingJSONWhitespace(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isWhitespace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = bytes.firstIndex(where: { !isWhitespace($0) }),
              let last = bytes.lastIndex(where: { !isWhitespace($0) }) else { return [] }
        return bytes[first...last]
    }
}
