import Foundation
import Testing
@testable import JOSE
@testable import JOSEOAuth
import JOSEURLSession
import JOSETestSupport

/// RP-initiated logout URLs and back-channel logout tokens (minted by the provider on
/// 127.0.0.1 with jwcrypto).
@Suite struct LogoutTests {
    static let postLogoutRedirectURI = "https://app.example/logged-out"

    /// A client for local metadata with `members` added to an issuer of https://op.example.
    private func localClient(_ members: String) throws -> OpenIDClient {
        let metadata = try OpenIDProviderMetadata(document: Array("""
            {"issuer":"https://op.example"\(members)}
            """.utf8), expectedIssuer: "https://op.example")
        return try OpenIDClient(metadata: metadata, clientID: "app", fetcher: URLSessionHTTPFetcher(),
                                keySource: JWKSet(keys: []))
    }

    @Test func logoutURLCarriesTheParametersAndTheProviderAcceptsIt() async throws {
        let fixture = try await LoginFixture.make()
        let (callback, transaction) = try await fixture.authorize()
        let login = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        var request = LogoutRequest(idTokenHint: login.tokens.idToken, postLogoutRedirectURI: LoginFixture.redirectURI,
                                    state: "logout-state")
        request.uiLocales = ["nb-NO", "en"]
        request.logoutHint = "alice@example.com"
        let url = try fixture.client.logoutURL(request)

        let pairs = try FormURLEncoding.decode(try #require(url.query(percentEncoded: true)))
        #expect(pairs.map(\.name) == ["client_id", "id_token_hint", "post_logout_redirect_uri", "state", "logout_hint", "ui_locales"])
        #expect(url.absoluteString.hasPrefix(fixture.provider.baseURL + "/logout?"))
        let answer = try await fixture.provider.authorize(url)
        #expect(answer["location"] == LoginFixture.redirectURI + "?state=logout-state")
        let seen = try await fixture.provider.lastRequest(path: "/logout")
        #expect(seen.parameters["ui_locales"] == "nb-NO en")
        #expect(seen.parameters["client_id"] == fixture.clientID)
    }

    @Test func endpointQueryIsKeptUnlessItNamesAParameterTheRequestSets() throws {
        let kept = try localClient(#","end_session_endpoint":"https://op.example/logout?tenant=a""#)
        let url = try kept.logoutURL(LogoutRequest())
        #expect(url.absoluteString == "https://op.example/logout?tenant=a&client_id=app")
        let clashing = try localClient(#","end_session_endpoint":"https://op.example/logout?Client_ID=evil""#)
        #expect(throws: JOSEError.self) { try clashing.logoutURL(LogoutRequest()) }
    }

    @Test func logoutRequestsAreBuiltStrictly() async throws {
        let client = try localClient(#","end_session_endpoint":"https://op.example/logout""#)
        let refused: [(String, LogoutRequest)] = [
            ("state without redirect", LogoutRequest(state: "s")),
            ("redirect with fragment", LogoutRequest(postLogoutRedirectURI: "https://app.example/out#x")),
            ("relative redirect", LogoutRequest(postLogoutRedirectURI: "/out")),
            ("redirect outside RFC 3986", LogoutRequest(postLogoutRedirectURI: "https://app.example/logged out")),
            ("hint that is no JWT", LogoutRequest(idTokenHint: "not-a-jwt")),
            ("empty state", LogoutRequest(postLogoutRedirectURI: Self.postLogoutRedirectURI, state: "")),
        ]
        for (name, request) in refused {
            let error = await expectJOSEError(.invalidInput) { try client.logoutURL(request) }
            #expect(error != nil, "\(name)")
        }
        var spaced = LogoutRequest()
        spaced.uiLocales = ["en GB"]
        _ = await expectJOSEError(.invalidInput) { try client.logoutURL(spaced) }
    }

    @Test func metadataWithoutEndSessionEndpointIsAClearError() async throws {
        let client = try localClient("")
        let error = await expectJOSEError(.discoveryFailed) { try client.logoutURL(LogoutRequest()) }
        #expect(error?.message.contains("end_session_endpoint") == true)
    }

    @Test func backchannelLogoutSupportedIsReadStrictly() async throws {
        #expect(try localClient(#","backchannel_logout_supported":true"#).metadata.backchannelLogoutSupported)
        #expect(try !localClient("").metadata.backchannelLogoutSupported)
        _ = await expectJOSEError(.discoveryFailed) { try localClient(#","backchannel_logout_supported":"yes""#) }
    }

    @Test func validLogoutTokenIsAcceptedOnceAndReplayIsRefused() async throws {
        let fixture = try await LoginFixture.make()
        let validator = fixture.client.logoutTokenValidator(replayCache: try InMemoryReplayCache(maximumEntries: 16))
        let token = try await fixture.provider.logoutToken(for: fixture.clientID)

        let verified = try await validator.validate(token)
        #expect(verified.claims.subject == "alice")
        #expect(verified.claims.string("sid") == "session-1")
        let error = await expectJOSEError(.invalidClaim) { try await validator.validate(token) }
        #expect(error?.message.contains("replay") == true)
    }

    @Test func tokenWithOnlySubOrOnlySidOrNoTypIsAccepted() async throws {
        let fixture = try await LoginFixture.make()
        let validator = fixture.client.logoutTokenValidator(replayCache: try InMemoryReplayCache())
        let onlySub = try await fixture.provider.logoutToken(for: fixture.clientID, claims: ["sid": NSNull()])
        #expect(try await validator.validate(onlySub).claims.string("sid") == nil)
        let onlySid = try await fixture.provider.logoutToken(for: fixture.clientID, claims: ["sub": NSNull()])
        #expect(try await validator.validate(onlySid).claims.subject == nil)
        let untyped = try await fixture.provider.logoutToken(for: fixture.clientID, header: ["typ": NSNull()])
        #expect(try await validator.validate(untyped).claims.subject == "alice")

        var strict = validator
        strict.requiresExplicitType = true
        let untypedAgain = try await fixture.provider.logoutToken(for: fixture.clientID, header: ["typ": NSNull()])
        _ = await expectJOSEError(.invalidType) { try await strict.validate(untypedAgain) }
    }

    /// One broken rule of Back-Channel Logout 1.0 §2.4/§2.6.
    struct Violation: Sendable, CustomTestStringConvertible {
        let name: String
        let claims: String
        var header = "{}"
        var foreignKey = false
        let code: JOSEError.Code
        var testDescription: String { name }
    }

    static let now = Int(Date().timeIntervalSince1970)
    static let violations: [Violation] = [
        Violation(name: "typ JWT", claims: "{}", header: #"{"typ":"JWT"}"#, code: .invalidType),
        Violation(name: "no events", claims: #"{"events":null}"#, code: .missingClaim),
        Violation(name: "events not an object", claims: #"{"events":["x"]}"#, code: .invalidClaim),
        Violation(name: "another event", claims: #"{"events":{"http://schemas.openid.net/event/other":{}}}"#, code: .invalidClaim),
        Violation(name: "event not an object",
                  claims: #"{"events":{"http://schemas.openid.net/event/backchannel-logout":"yes"}}"#, code: .invalidClaim),
        Violation(name: "neither sub nor sid", claims: #"{"sub":null,"sid":null}"#, code: .missingClaim),
        Violation(name: "sid not a string", claims: #"{"sid":7}"#, code: .invalidClaim),
        Violation(name: "nonce", claims: #"{"nonce":"n-1"}"#, code: .invalidNonce),
        Violation(name: "no iat", claims: #"{"iat":null}"#, code: .missingClaim),
        Violation(name: "no exp", claims: #"{"exp":null}"#, code: .missingClaim),
        Violation(name: "no jti", claims: #"{"jti":null}"#, code: .missingClaim),
        Violation(name: "jti not a string", claims: #"{"jti":5}"#, code: .invalidClaim),
        Violation(name: "expired", claims: #"{"iat":\#(now - 900),"exp":\#(now - 600)}"#, code: .expired),
        Violation(name: "too old", claims: #"{"iat":\#(now - 3600),"exp":\#(now + 600)}"#, code: .tokenTooOld),
        Violation(name: "issued in the future", claims: #"{"iat":\#(now + 3600),"exp":\#(now + 7200)}"#, code: .issuedInFuture),
        Violation(name: "another issuer", claims: #"{"iss":"https://evil.example"}"#, code: .invalidIssuer),
        Violation(name: "another audience", claims: #"{"aud":"other-app"}"#, code: .invalidAudience),
        Violation(name: "no aud", claims: #"{"aud":null}"#, code: .missingClaim),
        Violation(name: "another key", claims: "{}", foreignKey: true, code: .invalidSignature),
        Violation(name: "algorithm ID tokens may not use", claims: "{}", header: #"{"alg":"PS256"}"#, code: .algorithmNotAllowed),
    ]

    @Test func eachBrokenRuleIsRefusedWithItsCode() async throws {
        let fixture = try await LoginFixture.make()
        let validator = fixture.client.logoutTokenValidator(replayCache: try InMemoryReplayCache())
        for violation in Self.violations {
            let claims = try #require(JSONSerialization.jsonObject(with: Data(violation.claims.utf8)) as? [String: Any])
            let header = try #require(JSONSerialization.jsonObject(with: Data(violation.header.utf8)) as? [String: Any])
            let token = try await fixture.provider.logoutToken(
                for: fixture.clientID, claims: claims, header: header, foreignKey: violation.foreignKey)
            do {
                _ = try await validator.validate(token)
                Issue.record("\(violation.name): accepted")
            } catch let error as JOSEError {
                #expect(error.code == violation.code, "\(violation.name): \(error)")
            }
        }
    }

    @Test func idTokenIsNotALogoutToken() async throws {
        let fixture = try await LoginFixture.make()
        let (callback, transaction) = try await fixture.authorize()
        let login = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        let validator = fixture.client.logoutTokenValidator(replayCache: try InMemoryReplayCache())
        _ = await expectJOSEError(.invalidType) { try await validator.validate(try #require(login.tokens.idToken)) }
    }

    @Test func fullReplayCacheFailsClosed() async throws {
        let fixture = try await LoginFixture.make()
        let cache = try InMemoryReplayCache(maximumEntries: 1)
        var validator = fixture.client.logoutTokenValidator(replayCache: cache)
        validator.maximumTokenAge = .seconds(120)
        _ = try await validator.validate(try await fixture.provider.logoutToken(for: fixture.clientID))
        #expect(cache.count == 1)
        // The one slot is taken by a live entry: the cache fails closed rather than forget it.
        let second = try await fixture.provider.logoutToken(for: fixture.clientID)
        _ = await expectJOSEError(.invalidClaim) { try await validator.validate(second) }
    }
}
