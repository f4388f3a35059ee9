/// The OpenID Connect `at_hash` / `c_hash` value (Core 1.0 §3.1.3.6, §3.3.2.11): the base64url
/// left half of the hash of the token's ASCII text, with the hash of the ID token's `alg`.
public enum TokenHash {
    /// Computes the hash value of `token` for an ID token signed with `algorithm`.
    ///
    /// EdDSA uses SHA-512, as OpenID Connect specifies for Ed25519.
    ///
    /// - Throws: ``JOSEError`` `invalid_token_hash` for Ed448, whose hash (SHAKE256) is not supported.
    public static func value(of token: String, algorithm: JWSAlgorithm) throws -> String {
        let hash: HashAlgorithm
        switch algorithm.family {
        case .eddsa(.ed448):
            throw JOSEError(.invalidTokenHash, "token hashes for Ed448 (SHAKE256) are not supported")
        case .eddsa:
            hash = .sha512
        default:
            hash = algorithm.hash ?? .sha256
        }
        let digest = Array(token.utf8).withUnsafeBytes { Digest.hash(hash, $0) }
        return Base64URL.encode(digest.prefix(digest.count / 2))
    }

    /// Checks a `at_hash`/`c_hash` claim against the token it should describe.
    static func check(_ claim: String, of claims: JWTClaims, token: String, algorithm: JWSAlgorithm) throws {
        guard let value = claims.json[claim] else { return }
        guard let actual = value.string else {
            throw JOSEError(.invalidClaim, "the \"\(claim)\" claim is not a string")
        }
        let expected = try TokenHash.value(of: token, algorithm: algorithm)
        guard constantTimeEquals(Array(actual.utf8), Array(expected.utf8)) else {
            throw JOSEError(.invalidTokenHash, "\(claim) does not match the \(claim == "at_hash" ? "access token" : "authorization code")")
        }
    }
}
