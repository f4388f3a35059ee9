import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

@Suite(.tags(.addressSanitized, .threadSanitized)) struct DPoPProofVerifierTests {
    typealias F = DPoPFixtures
    let resourceRequest = DPoPRequest(
        method: "GET", url: "https://resource.example.org/protectedresource", accessToken: DPoPFixtures.rfcAccessToken,
        boundKeyThumbprint: DPoPFixtures.rfcThumbprint)

    // MARK: RFC 9449 examples

    @Test func rfcResourceRequestProofVerifiesWithItsTokenAndBinding() async throws {
        let proof = try await F.verifier(now: 1562262620).verify(F.rfcResourceProof, for: resourceRequest)
        #expect(proof.keyThumbprint == F.rfcThumbprint)
        #expect(proof.proofID == "e1j3V_bKic8-LAEB")
        #expect(proof.issuedAt == Date(timeIntervalSince1970: 1562262618))
        #expect(proof.token.claims.string("ath") == "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo")
        #expect(proof.key.curve == "P-256" && !proof.key.isPrivate)
    }

    @Test func rfcTokenRequestProofsVerify() async throws {
        let request = DPoPRequest(method: "POST", url: "https://server.example.com/token")
        let first = try await F.verifier(now: 1562262616).verify(F.rfcTokenProof, for: request)
        #expect(first.keyThumbprint == F.rfcThumbprint)
        let refresh = try await F.verifier(now: 1562265300).verify(F.rfcRefreshProof, for: request)
        #expect(refresh.issuedAt == Date(timeIntervalSince1970: 1562265296))
    }

    @Test func theSameJTIAgainIsAReplayEvenWithAnotherIAT() async throws {
        // Figures 5 and 7 share their jti: one cache that saw the first refuses the second.
        let cache = try InMemoryReplayCache(clock: .fixed(secondsSince1970: 1562262616))
        let request = DPoPRequest(method: "POST", url: "https://server.example.com/token")
        let early = try DPoPProofVerifier(maximumAge: .seconds(3600), replayCache: cache, clock: .fixed(secondsSince1970: 1562262616))
        _ = try await early.verify(F.rfcTokenProof, for: request)
        let error = await expectJOSEError(.invalidDPoPProof) { try await early.verify(F.rfcTokenProof, for: request) }
        #expect(error?.message.contains("already used") == true)
        let later = try DPoPProofVerifier(maximumAge: .seconds(3600), replayCache: cache, clock: .fixed(secondsSince1970: 1562265296))
        _ = await expectJOSEError(.invalidDPoPProof) { try await later.verify(F.rfcRefreshProof, for: request) }
    }

    @Test func aProofAtTheLastInstantOfItsWindowIsStillRecorded() async throws {
        // The RFC proof was made at 1562262618; 60 s maximum age + 5 s leeway: the verifier
        // accepts it up to and including 1562262683, so the replay cache must hold it then too.
        let verifier = try F.verifier(now: 1562262618 + 65)
        _ = try await verifier.verify(F.rfcResourceProof, for: resourceRequest)
        _ = await expectJOSEError(.invalidDPoPProof) { try await verifier.verify(F.rfcResourceProof, for: resourceRequest) }
    }

    @Test func aKeyOverItsQuotaIsRefusedWithoutForgettingItsProofs() async throws {
        // Quota 1 for the RFC proof's key, already holding a live entry: the RFC proof cannot be
        // recorded, so it is refused (fail closed) rather than pushing out the live entry.
        let now = 1562262620.0
        let cache = try InMemoryReplayCache(maximumEntries: 10, maximumEntriesPerOwner: 1, clock: .fixed(secondsSince1970: now))
        let key = try await DPoPProofVerifier(clock: .fixed(secondsSince1970: now)).verify(F.rfcResourceProof, for: resourceRequest).keyThumbprint
        #expect(try await cache.recordFirstUse(of: "earlier proof", owner: key, expiresAt: Date(timeIntervalSince1970: now + 60)) == .firstUse)
        let verifier = try DPoPProofVerifier(replayCache: cache, clock: .fixed(secondsSince1970: now))
        let error = await expectJOSEError(.invalidDPoPProof) { try await verifier.verify(F.rfcResourceProof, for: resourceRequest) }
        #expect(error?.message.contains("per-key quota") == true)
        #expect(try await cache.recordFirstUse(of: "earlier proof", owner: key, expiresAt: Date(timeIntervalSince1970: now + 60)) == .seenBefore)
        // Another key is not affected.
        #expect(try await cache.recordFirstUse(of: "earlier proof", owner: "another key", expiresAt: Date(timeIntervalSince1970: now + 60)) == .firstUse)
    }

    @Test func normalisedRequestURIsMatch() async throws {
        for url in ["HTTPS://Resource.Example.ORG:443/protectedresource?page=2#top",
                    "https://resource.example.org/a/../protectedresource",
                    "https://resource.example.org/%70rotectedresource"] {
            var request = resourceRequest
            request.url = url
            _ = try await F.verifier(now: 1562262620).verify(F.rfcResourceProof, for: request)
        }
    }

    // MARK: Request binding

    @Test func wrongMethodOrURIIsRejected() async throws {
        for (method, url) in [("POST", "https://resource.example.org/protectedresource"),
                              ("get", "https://resource.example.org/protectedresource"),
                              ("GET", "https://resource.example.org/protectedresource/other"),
                              ("GET", "http://resource.example.org/protectedresource"),
                              ("GET", "https://resource.example.org:8443/protectedresource"),
                              ("GET", "https://evil.example.org/protectedresource")] {
            var request = resourceRequest
            request.method = method
            request.url = url
            let error = await expectJOSEError(.invalidDPoPProof) { try await F.verifier(now: 1562262620).verify(F.rfcResourceProof, for: request) }
            #expect(error?.message.contains(method == "GET" ? "htu" : "htm") == true, "\(String(describing: error))")
        }
    }

    @Test func anUnusableRequestURLIsABadRequest() async throws {
        // The client chooses the path: a malformed one is answered 400, not 500.
        for url in ["https://resource.example.org/protected%zzresource", "https://resource.example.org/a b", "/protectedresource"] {
            var request = resourceRequest
            request.url = url
            _ = await expectJOSEError(.invalidRequest) { try await F.verifier(now: 1562262620).verify(F.rfcResourceProof, for: request) }
        }
    }

    @Test func badOrMissingATHIsRejected() async throws {
        var request = resourceRequest
        request.accessToken = F.rfcAccessToken + "x"
        _ = await expectJOSEError(.invalidDPoPProof) { try await F.verifier(now: 1562262620).verify(F.rfcResourceProof, for: request) }
        // The token-request proof has no ath: sending it with an access token fails.
        let tokenRequest = DPoPRequest(method: "POST", url: "https://server.example.com/token", accessToken: F.rfcAccessToken)
        let error = await expectJOSEError(.invalidDPoPProof) { try await F.verifier(now: 1562262616).verify(F.rfcTokenProof, for: tokenRequest) }
        #expect(error?.message.contains("ath") == true)
    }

    @Test func anotherBoundKeyIsABindingFailure() async throws {
        var request = resourceRequest
        request.boundKeyThumbprint = "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"
        _ = await expectJOSEError(.invalidTokenBinding) { try await F.verifier(now: 1562262620).verify(F.rfcResourceProof, for: request) }
    }

    // MARK: Time window

    @Test func staleAndFutureProofsAreRejected() async throws {
        let stale = await expectJOSEError(.invalidDPoPProof) {
            try await F.verifier(now: 1562262618 + 66).verify(F.rfcResourceProof, for: resourceRequest)
        }
        #expect(stale?.message.contains("token_too_old") == true)
        let future = await expectJOSEError(.invalidDPoPProof) {
            try await F.verifier(now: 1562262618 - 6).verify(F.rfcResourceProof, for: resourceRequest)
        }
        #expect(future?.message.contains("issued_in_future") == true)
        // Just inside the window either way (60 s + 5 s leeway).
        _ = try await F.verifier(now: 1562262618 + 65).verify(F.rfcResourceProof, for: resourceRequest)
        _ = try await F.verifier(now: 1562262618 - 5).verify(F.rfcResourceProof, for: resourceRequest)
    }

    @Test func settingsOutOfRangeAreRefused() {
        for make in [{ try DPoPProofVerifier(maximumAge: .zero) }, { try DPoPProofVerifier(maximumAge: .seconds(3601)) },
                     { try DPoPProofVerifier(leeway: .seconds(-1)) }, { try DPoPProofVerifier(leeway: .seconds(301)) },
                     { try DPoPProofVerifier(maximumProofBytes: 10) }, { try DPoPProofVerifier(algorithms: []) },
                     { try DPoPProofVerifier(algorithms: [.es256, .hs256]) }] as [() throws -> DPoPProofVerifier] {
            #expect(throws: JOSEError.self) { try make() }
        }
        #expect(throws: JOSEError.self) { try InMemoryReplayCache(maximumEntries: 0) }
    }

    @Test func aClockThatIsNotATimeIsRefused() async throws {
        let verifier = try DPoPProofVerifier(clock: JOSEClock(secondsSince1970: { .nan }))
        _ = await expectJOSEError(.invalidInput) { try await verifier.verify(F.rfcResourceProof, for: resourceRequest) }
    }

    // MARK: Nonce

    @Test func serverNonceIsRequiredAndMustMatch() async throws {
        let key = try JWK.generate(for: .es256)
        let signer = try DPoPProofSigner(key: key, clock: .fixed(secondsSince1970: 1_800_000_000))
        let url = "https://api.example.com/orders"
        let request = DPoPRequest(method: "GET", url: url, expectedNonce: "n-1")
        let missing = try signer.proof(method: "GET", url: URL(string: url)!)
        _ = await expectJOSEError(.useDPoPNonce) { try await F.verifier(now: 1_800_000_000).verify(missing, for: request) }
        let wrong = try signer.proof(method: "GET", url: URL(string: url)!, nonce: "n-0")
        _ = await expectJOSEError(.useDPoPNonce) { try await F.verifier(now: 1_800_000_000).verify(wrong, for: request) }
        let right = try signer.proof(method: "GET", url: URL(string: url)!, nonce: "n-1")
        let verified = try await F.verifier(now: 1_800_000_000).verify(right, for: request)
        #expect(verified.token.claims.nonce == "n-1")
    }

    // MARK: The proof's key and header

    @Test func privateMembersInTheHeaderKeyAreRejected() async throws {
        let key = try JWK.generate(for: .es256)
        let claims = #"{"jti":"a1","htm":"GET","htu":"https://api.example.com/","iat":1800000000}"#
        let proof = try F.proof(key: key, claims: claims, jwk: try key.jsonString(includingPrivateMembers: true))
        let error = await expectJOSEError(.invalidDPoPProof) {
            try await F.verifier(now: 1_800_000_000).verify(proof, for: DPoPRequest(method: "GET", url: "https://api.example.com/"))
        }
        #expect(error?.message.contains("\"d\"") == true)
    }

    @Test func symmetricKeysAndMACsAreRejected() async throws {
        let secret = try JWK.symmetric(Array(repeating: 7, count: 32))
        let claims = #"{"jti":"a1","htm":"GET","htu":"https://api.example.com/","iat":1800000000}"#
        let request = DPoPRequest(method: "GET", url: "https://api.example.com/")
        let octHeader = try F.proof(key: secret, algorithm: .hs256, claims: claims, jwk: #"{"kty":"oct","k":"BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc"}"#)
        _ = await expectJOSEError(.invalidDPoPProof) { try await F.verifier(now: 1_800_000_000).verify(octHeader, for: request) }
        // An HS256 proof whose header names a public key: the MAC is never on the allow-list.
        let publicHeader = try F.proof(key: secret, algorithm: .hs256, claims: claims,
                                       jwk: try JWK.generate(for: .es256).publicKey!.jsonString())
        let error = await expectJOSEError(.invalidDPoPProof) { try await F.verifier(now: 1_800_000_000).verify(publicHeader, for: request) }
        #expect(error?.message.contains("algorithm_not_allowed") == true)
    }

    @Test func headerRulesAreEnforced() async throws {
        let key = try JWK.generate(for: .es256)
        let other = try JWK.generate(for: .es256)
        let claims = #"{"jti":"a1","htm":"GET","htu":"https://api.example.com/","iat":1800000000}"#
        let request = DPoPRequest(method: "GET", url: "https://api.example.com/")
        let cases: [(String, String)] = [
            (try F.proof(key: key, claims: claims, type: "JWT"), "invalid_type"),
            (try F.proof(key: key, claims: claims, type: nil), "invalid_type"),
            (try F.proof(key: key, claims: claims, jwk: try other.publicKey!.jsonString()), "invalid_signature"),
            (try JWSSigner(key: key, algorithm: .es256).sign(Array(claims.utf8), header: JWSHeaderParameters(type: "dpop+jwt")), "invalid_key"),
            (try F.proof(key: key, claims: #"{"htm":"GET","htu":"https://api.example.com/","iat":1800000000}"#), "missing_claim"),
            (try F.proof(key: key, claims: #"{"jti":7,"htm":"GET","htu":"https://api.example.com/","iat":1800000000}"#), "invalid_claim"),
            (try F.proof(key: key, claims: #"{"jti":"a1","htm":"GET","htu":"https://api.example.com/","iat":"1800000000"}"#), "invalid_claim"),
            (try F.proof(key: key, claims: #"{"jti":"a1","htm":"GET","htu":"https://api.example.com/"}"#), "missing_claim"),
        ]
        for (proof, inner) in cases {
            let error = await expectJOSEError(.invalidDPoPProof) { try await F.verifier(now: 1_800_000_000).verify(proof, for: request) }
            #expect(error?.message.contains(inner) == true, "\(String(describing: error)) should name \(inner)")
        }
        let es256Only = try F.verifier(now: 1_800_000_000, algorithms: [.ps256])
        _ = await expectJOSEError(.invalidDPoPProof) { try await es256Only.verify(try F.proof(key: key, claims: claims), for: request) }
    }

    /// A `jti` with U+0000 made the PostgreSQL store fail (`text` cannot hold NUL), so anyone
    /// could make a server answer 503. Control characters are refused as an invalid proof
    /// before the replay cache is asked.
    @Test func aJTIWithAControlCharacterIsRefusedBeforeTheReplayCache() async throws {
        let key = try JWK.generate(for: .es256)
        let cache = try InMemoryReplayCache(clock: .fixed(secondsSince1970: 1_800_000_000))
        let verifier = try DPoPProofVerifier(replayCache: cache, clock: .fixed(secondsSince1970: 1_800_000_000))
        let request = DPoPRequest(method: "GET", url: "https://api.example.com/")
        for jti in [#"a\u0000b"#, #"\u0000"#, #"a\u001f"#, #"\u007f"#, #"a\u0085"#, #"\u009b[2J"#] {
            let proof = try F.proof(key: key, claims: #"{"jti":"\#(jti)","htm":"GET","htu":"https://api.example.com/","iat":1800000000}"#)
            let error = await expectJOSEError(.invalidDPoPProof) { try await verifier.verify(proof, for: request) }
            #expect(error?.message.contains("control character") == true, "\(String(describing: error))")
        }
        #expect(cache.count == 0)
        // Visible characters, non-ASCII ones included, are accepted.
        for jti in ["a1-_~.", "\u{A0}é😀"] {
            let proof = try F.proof(key: key, claims: #"{"jti":"\#(jti)","htm":"GET","htu":"https://api.example.com/","iat":1800000000}"#)
            _ = try await verifier.verify(proof, for: request)
        }
        #expect(cache.count == 2)
    }

    @Test func cheapRulesRunBeforeTheKeyIsLoaded() async throws {
        // The header key is not a point on P-256, so loading it would fail; the wrong method
        // must be what is reported: the claims are checked before the key is loaded.
        let key = try JWK.generate(for: .es256)
        let claims = #"{"jti":"a1","htm":"POST","htu":"https://api.example.com/","iat":1800000000}"#
        let proof = try F.proof(key: key, claims: claims, jwk: #"{"kty":"EC","crv":"P-256","x":"AAAA","y":"AAAA"}"#)
        let error = await expectJOSEError(.invalidDPoPProof) {
            try await F.verifier(now: 1_800_000_000).verify(proof, for: DPoPRequest(method: "GET", url: "https://api.example.com/"))
        }
        #expect(error?.message.contains("htm") == true, "\(String(describing: error))")
    }

    @Test func rsaProofKeysOver4096BitsAreRefused() async throws {
        // A 6144-bit modulus (never loaded: refused by its length) with an otherwise valid proof.
        let key = try TestKeys.jwk(for: .rs256)
        let modulus = Base64URL.encode([0xC0] + Array(repeating: 0x5A, count: 767))
        let claims = #"{"jti":"a1","htm":"GET","htu":"https://api.example.com/","iat":1800000000}"#
        let proof = try F.proof(key: key, algorithm: .rs256, claims: claims, jwk: #"{"kty":"RSA","e":"AQAB","n":"\#(modulus)"}"#)
        let error = await expectJOSEError(.invalidDPoPProof) {
            try await F.verifier(now: 1_800_000_000).verify(proof, for: DPoPRequest(method: "GET", url: "https://api.example.com/"))
        }
        #expect(error?.message.contains("4096") == true, "\(String(describing: error))")
    }

    @Test func oversizedOrGarbledProofsAreRejectedBeforeAnyWork() async throws {
        let request = DPoPRequest(method: "GET", url: "https://api.example.com/")
        let huge = String(repeating: "a", count: 8193)
        let error = await expectJOSEError(.invalidDPoPProof) { try await F.verifier(now: 1_800_000_000).verify(huge, for: request) }
        #expect(error?.message.contains("longer") == true)
        for garbled in ["", "a.b", "a.b.c", F.rfcResourceProof + "x", F.rfcResourceProof.replacingOccurrences(of: ".", with: "..")] {
            _ = await expectJOSEError(.invalidDPoPProof) { try await F.verifier(now: 1_800_000_000).verify(garbled, for: request) }
        }
    }

    @Test func attackerTextInMessagesIsQuoted() async throws {
        let key = try JWK.generate(for: .es256)
        let claims = #"{"jti":"a1","htm":"GET\u001b[31m","htu":"https://api.example.com/","iat":1800000000}"#
        let error = await expectJOSEError(.invalidDPoPProof) {
            try await F.verifier(now: 1_800_000_000).verify(try F.proof(key: key, claims: claims), for: DPoPRequest(method: "GET", url: "https://api.example.com/"))
        }
        #expect(error?.message.contains("\u{1b}") == false)
        #expect(error?.message.contains("\\u001b") == true)
    }

    // MARK: Round trip

    @Test(arguments: [JWSAlgorithm.es256, .es384, .es512, .ps256, .rs256, .eddsa])
    func ourSignerRoundTrips(_ algorithm: JWSAlgorithm) async throws {
        let key = try TestKeys.jwk(for: algorithm)
        let signer = try DPoPProofSigner(key: key, algorithm: algorithm, clock: .fixed(secondsSince1970: 1_800_000_000))
        let url = "https://API.example.com:443/orders/42?expand=items"
        let proof = try signer.proof(method: "DELETE", url: URL(string: url)!, accessToken: "token-1", nonce: "n!1")
        let request = DPoPRequest(method: "DELETE", url: "https://api.example.com/orders/42", accessToken: "token-1",
                                  expectedNonce: "n!1", boundKeyThumbprint: signer.keyThumbprint)
        let verifier = try F.verifier(now: 1_800_000_010)
        let verified = try await verifier.verify(proof, for: request)
        #expect(verified.keyThumbprint == (try key.thumbprint()))
        #expect(verified.token.claims.string("htu") == "https://api.example.com/orders/42")
        #expect(verified.token.header.keyID == nil)
        #expect(verified.token.header.type == "dpop+jwt")
        #expect(verified.proofID.utf8.count == 22)
        // Each proof is fresh; the same proof again is a replay.
        #expect(try signer.proof(method: "GET", url: URL(string: url)!) != (try signer.proof(method: "GET", url: URL(string: url)!)))
        _ = await expectJOSEError(.invalidDPoPProof) { try await verifier.verify(proof, for: request) }
    }

    @Test func signerRefusesPublicAndSymmetricKeys() throws {
        let key = try JWK.generate(for: .es256)
        #expect(throws: JOSEError.self) { try DPoPProofSigner(key: key.publicKey!) }
        #expect(throws: JOSEError.self) { try DPoPProofSigner(key: try JWK.symmetric(Array(repeating: 1, count: 32))) }
        #expect(throws: JOSEError.self) { try DPoPProofSigner(key: key, algorithm: .es384) }
        let signer = try DPoPProofSigner(key: key)
        #expect(throws: JOSEError.self) { try signer.proof(method: "GET", url: URL(string: "ftp://example.com/")!) }
        #expect(throws: JOSEError.self) { try signer.proof(method: "G ET", url: URL(string: "https://example.com/")!) }
    }

    @Test func confirmationThumbprintIsRead() async throws {
        let key = try JWK.generate(for: .es256)
        let claims = { (cnf: String) in
            try JWTVerifier(keySource: JWKSet(keys: [key.publicKey!]), rules: JWTClaimRules())
                .verifyWithoutSuspending(JWSSigner(key: key, algorithm: .es256).sign(Array(#"{"sub":"a"\#(cnf)}"#.utf8))).claims
        }
        #expect(try claims(#","cnf":{"jkt":"abc"}"#).confirmationKeyThumbprint() == "abc")
        #expect(try claims("").confirmationKeyThumbprint() == nil)
        // Bindings this library cannot check (mTLS, RFC 8705; RFC 7800's jwk) are refused, not read as unbound.
        for cnf in [#"{"x5t#S256":"abc"}"#, #"{"jwk":{"kty":"EC"}}"#, #"{"jkt":"abc","x5t#S256":"abc"}"#, "{}"] {
            _ = await expectJOSEError(.invalidTokenBinding) { try claims(#","cnf":"# + cnf).confirmationKeyThumbprint() }
        }
        #expect(throws: JOSEError.self) { try claims(#","cnf":"abc""#).confirmationKeyThumbprint() }
        #expect(throws: JOSEError.self) { try claims(#","cnf":{"jkt":1}"#).confirmationKeyThumbprint() }
    }
}
