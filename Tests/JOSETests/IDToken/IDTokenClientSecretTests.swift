import JOSETestSupport
import Testing
@testable import JOSE

/// HS256/384/512 ID tokens keyed with the client secret (OpenID Connect Core §10.1), against
/// tokens built byte by byte.
@Suite struct IDTokenClientSecretTests {
    static let secret = "a client secret of 64 bytes, long enough for HS512 ID tokens!!!!"

    private func token(_ alg: JWSAlgorithm, secret: String = secret, kid: String? = nil) -> String {
        let header = kid.map { #"{"alg":"\#(alg)","kid":"\#($0)"}"# } ?? #"{"alg":"\#(alg)"}"#
        let input = TokenForge.b64(header) + "." + TokenForge.b64(IDTokenValidatorTests.claims())
        let key = try! HMACKey(secret: Array(secret.utf8))
        let tag = Array(input.utf8).withUnsafeBytes { try! key.authenticationCode(alg.hash ?? .sha256, message: $0) }
        return input + "." + Base64URL.encode(tag)
    }

    private func validator(secret: String?, algorithms: Set<JWSAlgorithm>? = nil) -> IDTokenValidator {
        var validator = IDTokenValidator(
            issuer: IDTokenValidatorTests.issuer, clientID: IDTokenValidatorTests.clientID,
            keySource: JWKSet(keys: [TokenForge.hmac]), algorithms: algorithms, clock: .fixed(secondsSince1970: IDTokenValidatorTests.now))
        validator.clientSecret = secret
        return validator
    }

    @Test(arguments: [JWSAlgorithm.hs256, .hs384, .hs512])
    func verifiesWithTheClientSecret(_ alg: JWSAlgorithm) async throws {
        let validated = try await validator(secret: Self.secret).validate(token(alg, kid: "any"), nonce: .notSent)
        #expect(validated.header.algorithm == alg)
        #expect(validated.claims.subject == "24400320")
    }

    @Test func withoutAClientSecretHMACIsRefusedEvenWithAnOctKeyInTheSet() async throws {
        let forged = TokenForge.token(header: #"{"alg":"HS256"}"#, payload: IDTokenValidatorTests.claims(),
                                      key: TokenForge.hmac, alg: .hs256)
        let error = await expectJOSEError(.algorithmNotAllowed) { try validator(secret: nil).validateWithoutSuspending(forged, nonce: .notSent) }
        #expect(error?.message.contains("this client has none") == true)
    }

    @Test func anotherSecretNamesTheCause() async throws {
        let error = await expectJOSEError(.invalidSignature) {
            try await validator(secret: Self.secret).validate(token(.hs256, secret: "another secret, also long enough......"), nonce: .notSent)
        }
        #expect(error?.message == "the ID token is HS256 and verifies with the client secret: it did not; check the client secret")
    }

    @Test(arguments: [(JWSAlgorithm.hs256, 31), (.hs384, 47), (.hs512, 63)])
    func secretShorterThanTheHashIsRefused(_ alg: JWSAlgorithm, length: Int) async throws {
        let short = String(repeating: "s", count: length)
        let error = await expectJOSEError(.invalidKey) {
            try validator(secret: short).validateWithoutSuspending(token(alg, secret: short), nonce: .notSent)
        }
        #expect(error?.message.contains("the secret has \(length) bytes, shorter than the \(length + 1) bytes") == true)
    }

    @Test func hmacOutsideAnExplicitAllowListIsRefused() async throws {
        _ = await expectJOSEError(.algorithmNotAllowed) {
            try validator(secret: Self.secret, algorithms: [.rs256]).validateWithoutSuspending(token(.hs256), nonce: .notSent)
        }
        let allowed = try validator(secret: Self.secret, algorithms: [.rs256, .hs256]).validateWithoutSuspending(token(.hs256), nonce: .notSent)
        #expect(allowed.header.algorithm == .hs256)
    }
}
