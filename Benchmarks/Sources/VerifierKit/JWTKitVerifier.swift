import Foundation
import JWTKit
import TokenFactory

/// The ID-token payload a typical jwt-kit server decodes: the six claims of the benchmark
/// token, with `exp`, `aud` and `iss` checked in ``verify(using:)``.
struct BenchIDTokenPayload: JWTPayload {
    /// `iss`.
    var iss: IssuerClaim
    /// `sub`.
    var sub: SubjectClaim
    /// `aud`.
    var aud: AudienceClaim
    /// `exp`.
    var exp: ExpirationClaim
    /// `iat`.
    var iat: IssuedAtClaim
    /// `nonce`.
    var nonce: String

    /// Checks expiry, audience and issuer like a real server does.
    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
        try aud.verifyIntendedAudience(includes: BenchClaims.audience)
        guard iss.value == BenchClaims.issuer else {
            throw JWTError.claimVerificationFailure(failedClaim: iss, reason: "unexpected issuer")
        }
    }
}

/// vapor/jwt-kit's verifier for one token: a `JWTKeyCollection` holding the same public key
/// (loaded from the same JWK; HS256 from the same secret), verifying into
/// ``BenchIDTokenPayload``.
public struct JWTKitVerifier: Sendable {
    /// The key collection, as a server would keep it.
    private let keys: JWTKeyCollection

    /// Loads `token`'s public key into a new key collection.
    /// - Throws: jwt-kit's error when it rejects the key.
    public init(token: BenchToken) async throws {
        let keys = JWTKeyCollection()
        if token.algorithm == .hs256 {
            await keys.add(hmac: HMACKey(from: token.hmacSecret), digestAlgorithm: .sha256,
                           kid: JWKIdentifier(string: token.keyID))
        } else {
            try await keys.add(jwk: JWK(json: token.jwkJSON))
        }
        self.keys = keys
    }

    /// Verifies the signature and the claims; `true` when jwt-kit accepts the token.
    public func verify(_ token: [UInt8]) async -> Bool {
        do {
            _ = try await keys.verify(token, as: BenchIDTokenPayload.self)
            return true
        } catch {
            return false
        }
    }
}
