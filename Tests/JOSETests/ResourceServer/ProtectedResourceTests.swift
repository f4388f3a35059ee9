import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

@Suite struct ProtectedResourceTests {
    static let now = 1_800_000_000.0
    static let url = "https://api.example.com/orders"
    let issuerKey = try! JWK.generate(for: .es256, keyID: "as")
    let clientKey = try! JWK.generate(for: .es256)

    func accessToken(cnf: String? = nil, scope: String = "orders:read", confirmation: String? = nil) throws -> String {
        let binding = (confirmation ?? cnf.map { #"{"jkt":"\#($0)"}"# }).map { #","cnf":"# + $0 } ?? ""
        let claims = #"{"iss":"https://auth.example.com","exp":1800000600,"aud":"https://api.example.com","sub":"alice","client_id":"app","iat":1799999990,"jti":"t1","scope":"\#(scope)"\#(binding)}"#
        return try JWSSigner(key: issuerKey, algorithm: .es256).sign(Array(claims.utf8), header: JWSHeaderParameters(type: "at+jwt"))
    }

    func resource(requiresDPoP: Bool = false, dpop: Bool = true) throws -> ProtectedResource {
        let verifier = try DPoPProofVerifier(clock: .fixed(secondsSince1970: Self.now))
        let validator = AccessTokenValidator(issuer: "https://auth.example.com", audience: "https://api.example.com",
                                             keySource: JWKSet(keys: [issuerKey.publicKey!]), clock: .fixed(secondsSince1970: Self.now))
        return ProtectedResource(validator: validator, dpop: !dpop ? .off : requiresDPoP ? .required(verifier) : .accepted(verifier),
                                 resourceMetadata: URL(string: "https://api.example.com/.well-known/oauth-protected-resource"))
    }

    @Test func eachDPoPModeAcceptsItsSchemes() throws {
        #expect(try resource(dpop: false).schemes == [.bearer])
        #expect(try resource().schemes == [.bearer, .dpop])
        #expect(try resource(requiresDPoP: true).schemes == [.dpop])
    }

    @Test func bearerTokenPasses() async throws {
        let request = ProtectedResourceRequest(method: "GET", url: Self.url, authorization: ["Bearer " + (try accessToken())])
        let access = try await resource().authenticate(request, scope: .allOf(["orders:read"]))
        #expect(access.token.subject == "alice" && access.proof == nil)
    }

    @Test func dpopBoundTokenPassesWithItsProofAndFailsWithoutIt() async throws {
        let signer = try DPoPProofSigner(key: clientKey, clock: .fixed(secondsSince1970: Self.now))
        let token = try accessToken(cnf: signer.keyThumbprint)
        let proof = try signer.proof(method: "GET", url: URL(string: Self.url)!, accessToken: token)
        let api = try resource()
        let access = try await api.authenticate(
            ProtectedResourceRequest(method: "GET", url: Self.url, authorization: ["DPoP " + token], dpop: [proof]))
        #expect(access.proof?.keyThumbprint == signer.keyThumbprint)
        // The same bound token as a bearer token: a downgrade (RFC 9449 §7.2).
        let downgrade = ProtectedResourceRequest(method: "GET", url: Self.url, authorization: ["Bearer " + token])
        let error = await expectJOSEError(.invalidTokenBinding) { try await api.authenticate(downgrade) }
        #expect(api.challenge(for: error!, request: downgrade).wwwAuthenticate[0].hasPrefix(#"Bearer error="invalid_token""#))
        // No proof, two proofs, a proof by another key.
        for dpop in [[], [proof, proof], [try DPoPProofSigner(key: try JWK.generate(for: .es256), clock: .fixed(secondsSince1970: Self.now)).proof(method: "GET", url: URL(string: Self.url)!, accessToken: token)]] {
            let request = ProtectedResourceRequest(method: "GET", url: Self.url, authorization: ["DPoP " + token], dpop: dpop)
            do {
                _ = try await api.authenticate(request)
                Issue.record("accepted \(dpop.count) proofs")
            } catch let error as JOSEError {
                #expect([.invalidDPoPProof, .invalidTokenBinding].contains(error.code))
            }
        }
    }

    @Test func tokenBoundToAClientCertificateIsRefusedAsBearerAndAsDPoP() async throws {
        // RFC 8705 binds to the TLS client certificate: this resource cannot check that, so the
        // token must not pass as an unbound bearer token.
        let token = try accessToken(confirmation: #"{"x5t#S256":"bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2"}"#)
        let api = try resource()
        let bearer = ProtectedResourceRequest(method: "GET", url: Self.url, authorization: ["Bearer " + token])
        let error = await expectJOSEError(.invalidTokenBinding) { try await api.authenticate(bearer) }
        #expect(api.challenge(for: error!, request: bearer).status == 401)
        let proof = try DPoPProofSigner(key: clientKey, clock: .fixed(secondsSince1970: Self.now)).proof(method: "GET", url: URL(string: Self.url)!, accessToken: token)
        _ = await expectJOSEError(.invalidTokenBinding) {
            try await api.authenticate(ProtectedResourceRequest(method: "GET", url: Self.url, authorization: ["DPoP " + token], dpop: [proof]))
        }
    }

    @Test func aClientChosenMalformedPathIsABadRequest() async throws {
        let signer = try DPoPProofSigner(key: clientKey, clock: .fixed(secondsSince1970: Self.now))
        let token = try accessToken(cnf: signer.keyThumbprint)
        let api = try resource()
        let request = ProtectedResourceRequest(method: "GET", url: "https://api.example.com/orders%zz", authorization: ["DPoP " + token],
                                               dpop: [try signer.proof(method: "GET", url: URL(string: Self.url)!, accessToken: token)])
        let error = await expectJOSEError(.invalidRequest) { try await api.authenticate(request) }
        #expect(api.challenge(for: error!, request: request).status == 400)
    }

    @Test func unboundTokenWithDPoPSchemeIsRefused() async throws {
        let token = try accessToken()
        let proof = try DPoPProofSigner(key: clientKey, clock: .fixed(secondsSince1970: Self.now)).proof(method: "GET", url: URL(string: Self.url)!, accessToken: token)
        _ = await expectJOSEError(.invalidTokenBinding) {
            try await resource().authenticate(ProtectedResourceRequest(method: "GET", url: Self.url, authorization: ["DPoP " + token], dpop: [proof]))
        }
    }

    @Test func nonceFlowAnswersWithTheNonceAndAcceptsTheRetry() async throws {
        let signer = try DPoPProofSigner(key: clientKey, clock: .fixed(secondsSince1970: Self.now))
        let token = try accessToken(cnf: signer.keyThumbprint)
        let api = try resource(requiresDPoP: true)
        let first = ProtectedResourceRequest(method: "GET", url: Self.url, authorization: ["DPoP " + token],
                                             dpop: [try signer.proof(method: "GET", url: URL(string: Self.url)!, accessToken: token)])
        let error = await expectJOSEError(.useDPoPNonce) { try await api.authenticate(first, dpopNonce: "n-42") }
        let challenge = api.challenge(for: error!, request: first, dpopNonce: "n-42")
        let nonce = try #require(DPoPNonceRetry.nonce(status: challenge.status, headers: challenge.headers))
        let retry = ProtectedResourceRequest(method: "GET", url: Self.url, authorization: ["DPoP " + token],
                                             dpop: [try signer.proof(method: "GET", url: URL(string: Self.url)!, accessToken: token, nonce: nonce)])
        _ = try await api.authenticate(retry, dpopNonce: "n-42")
    }

    @Test func challengesForMissingMalformedAndInsufficient() async throws {
        let api = try resource()
        let none = ProtectedResourceRequest(method: "GET", url: Self.url, authorization: [])
        let missing = await expectJOSEError(.missingCredentials) { try await api.authenticate(none) }
        #expect(api.challenge(for: missing!, request: none).wwwAuthenticate.count == 2)
        let twice = ProtectedResourceRequest(method: "GET", url: Self.url, authorization: ["Bearer a", "DPoP a"])
        let ambiguous = await expectJOSEError(.invalidRequest) { try await api.authenticate(twice) }
        #expect(api.challenge(for: ambiguous!, request: twice).status == 400)
        let request = ProtectedResourceRequest(method: "GET", url: Self.url, authorization: ["Bearer " + (try accessToken())])
        let scope = await expectJOSEError(.insufficientScope) { try await api.authenticate(request, scope: .allOf(["orders:write"])) }
        let challenge = api.challenge(for: scope!, request: request, scope: .allOf(["orders:write"]))
        #expect(challenge.status == 403 && challenge.wwwAuthenticate.count == 1 && challenge.wwwAuthenticate[0].contains(#"scope="orders:write""#))
        // Bearer only: DPoP credentials count as none, answered by a plain Bearer challenge (RFC 6750 §3.1).
        let bearerOnly = try resource(dpop: false)
        let dpopRequest = ProtectedResourceRequest(method: "GET", url: Self.url, authorization: ["DPoP abc"])
        let unsupported = await expectJOSEError(.missingCredentials) { try await bearerOnly.authenticate(dpopRequest) }
        let plain = bearerOnly.challenge(for: unsupported!, request: dpopRequest)
        #expect(plain.status == 401 && plain.wwwAuthenticate.count == 1, "\(plain.wwwAuthenticate)")
        #expect(plain.wwwAuthenticate.first?.hasPrefix("Bearer") == true && plain.wwwAuthenticate.first?.contains("error") == false)
        // DPoP required: a bearer token is refused.
        _ = await expectJOSEError(.invalidTokenBinding) { try await resource(requiresDPoP: true).authenticate(request) }
    }
}
