import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// Nested JWTs (signed, then encrypted; RFC 7519 §5.2): decrypted, then verified with the usual
/// verifier and rules; and ID tokens and UserInfo answers encrypted by the provider
/// (OpenID Connect Core §10.2).
@Suite(.tags(.addressSanitized)) struct NestedJWTTests {
    static let issuer = IDTokenValidatorTests.issuer
    static let clientID = IDTokenValidatorTests.clientID

    /// The ID-token claims of ``IDTokenValidatorTests``, signed with ES256 and encrypted to
    /// `recipient` with `cty` `contentType`.
    static func nested(to recipient: JWK, contentType: String? = "JWT", claims: String = IDTokenValidatorTests.claims()) throws -> String {
        let signed = TokenForge.token(header: #"{"alg":"ES256","typ":"JWT"}"#, payload: claims, key: TokenForge.ec256, alg: .es256)
        return try JWEEncrypter(
            key: #require(recipient.publicKey), keyManagementAlgorithm: .ecdhESA256KW, contentEncryptionAlgorithm: .a256GCM,
            contentType: contentType
        ).encrypt(Array(signed.utf8))
    }

    @Test func aNestedJWTIsDecryptedThenVerified() async throws {
        let recipient = try JWK.generate(for: .ecdhESA256KW)
        let decrypter = try JWEDecrypter(keys: [recipient])
        let verifier = JWTVerifier(
            keySource: JWKSet(keys: [try #require(TokenForge.ec256.publicKey)]),
            rules: JWTClaimRules(issuer: Self.issuer, audiences: [Self.clientID], clock: .fixed(secondsSince1970: IDTokenValidatorTests.now)))
        let jwt = try await verifier.verifyNested(Self.nested(to: recipient), decrypter: decrypter)
        #expect(jwt.claims.subject == "24400320")
        #expect(jwt.header.algorithm == .es256)

        _ = await expectJOSEError(.invalidType) { try await verifier.verifyNested(Self.nested(to: recipient, contentType: nil), decrypter: decrypter) }
        _ = await expectJOSEError(.invalidType) { try await verifier.verifyNested(Self.nested(to: recipient, contentType: "json"), decrypter: decrypter) }
        #expect(try decrypter.decryptNestedJWT(Self.nested(to: recipient, contentType: "jwt")).split(separator: ".").count == 3)
        let otherIssuer = try Self.nested(to: recipient, claims: IDTokenValidatorTests.claims().replacingOccurrences(of: Self.issuer, with: "https://evil.example"))
        _ = await expectJOSEError(.invalidIssuer) { try await verifier.verifyNested(otherIssuer, decrypter: decrypter) }
        let signedByAnother = try JWEEncrypter(key: #require(recipient.publicKey), keyManagementAlgorithm: .ecdhESA256KW, contentEncryptionAlgorithm: .a128GCM, contentType: "JWT")
            .encrypt(Array(TokenForge.token(header: #"{"alg":"ES256"}"#, payload: IDTokenValidatorTests.claims(), key: JWK.generate(for: .es256), alg: .es256).utf8))
        _ = await expectJOSEError(.invalidSignature) { try await verifier.verifyNested(signedByAnother, decrypter: decrypter) }
        let notAToken = try JWEEncrypter(key: #require(recipient.publicKey), keyManagementAlgorithm: .ecdhESA256KW, contentEncryptionAlgorithm: .a128GCM, contentType: "JWT")
            .encrypt(Array("{\"sub\":\"x\"}".utf8))
        _ = await expectJOSEError(.malformed) { try decrypter.decryptNestedJWT(notAToken) }
    }

    /// jwcrypto's nested JWT (its `JWT` class signs, then encrypts the signed token with
    /// `cty` `JWT`) verifies here.
    @Test func jwcryptoNestedJWTVerifies() async throws {
        let recipient = try TestKeys.jwk(for: .rsaOAEP256)
        let signing = try JWK.generate(for: .es256)
        let script = """
            import json, sys
            from jwcrypto import jwk, jwt
            signing, recipient = jwk.JWK(**json.loads(sys.argv[1])), jwk.JWK(**json.loads(sys.argv[2]))
            inner = jwt.JWT(header={"alg": "ES256"}, claims={"iss": "https://issuer.example", "sub": "alice", "exp": 4102444800})
            inner.make_signed_token(signing)
            outer = jwt.JWT(header={"alg": "RSA-OAEP-256", "enc": "A256CBC-HS512", "cty": "JWT"}, claims=inner.serialize())
            outer.make_encrypted_token(recipient)
            print(outer.serialize())
            """
        try PythonPeers.requireInstalled()
        let completed = try PythonPeers.run([
            "-c", script, signing.jsonString(includingPrivateMembers: true), #require(recipient.publicKey).jsonString(),
        ])
        #expect(completed.status == 0, "\(String(decoding: completed.stderr, as: UTF8.self))")
        let token = String(decoding: completed.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let verifier = JWTVerifier(keySource: JWKSet(keys: [try #require(signing.publicKey)]), rules: JWTClaimRules(issuer: "https://issuer.example"))
        let jwt = try await verifier.verifyNested(token, decrypter: JWEDecrypter(keys: [recipient]))
        #expect(jwt.claims.subject == "alice")
    }

    @Test func encryptedIDTokensNeedTheClientsDecrypter() async throws {
        let recipient = try JWK.generate(for: .ecdhESA256KW)
        var validator = IDTokenValidatorTests.validator(TokenForge.ec256)
        let encrypted = try Self.nested(to: recipient)
        let signedOnly = TokenForge.token(header: #"{"alg":"ES256"}"#, payload: IDTokenValidatorTests.claims(), key: TokenForge.ec256, alg: .es256)
        let refusal = await expectJOSEError(.malformed) { try await validator.validate(encrypted, nonce: .sent("n-0S6_WzA2Mj")) }
        #expect(refusal?.message.contains("decrypter") == true)

        validator.decrypter = try JWEDecrypter(keys: [recipient])
        #expect(try await validator.validate(encrypted, nonce: .sent("n-0S6_WzA2Mj")).claims.subject == "24400320")
        #expect(try validator.validateWithoutSuspending(encrypted, nonce: .sent("n-0S6_WzA2Mj")).claims.subject == "24400320")
        _ = await expectJOSEError(.invalidNonce) { try await validator.validate(encrypted, nonce: .sent("another")) }
        _ = await expectJOSEError(.malformed) { try await validator.validate(signedOnly, nonce: .sent("n-0S6_WzA2Mj")) }
        _ = await expectJOSEError(.malformed) { try validator.validateWithoutSuspending(signedOnly, nonce: .sent("n-0S6_WzA2Mj")) }
        let toAnotherKey = try Self.nested(to: JWK.generate(for: .ecdhESA256KW))
        _ = await expectJOSEError(.decryptionFailed) { try await validator.validate(toAnotherKey, nonce: .sent("n-0S6_WzA2Mj")) }

        // UserInfo: decrypted when encrypted, and taken signed-only too (a separate registration).
        let userInfo = IDTokenValidatorTests.claims()
        #expect(try await validator.validateUserInfo(Self.nested(to: recipient, claims: userInfo), subject: "24400320").claims.subject == "24400320")
        #expect(try await validator.validateUserInfo(signedOnly, subject: "24400320").claims.subject == "24400320")
    }
}
