import Foundation
import JOSETestSupport
import Testing
@testable import JOSE
@testable import JOSEOAuth

@Suite(.tags(.addressSanitized)) struct AuthorizationRequestTests {
    let endpoint = URL(string: "https://op.example/authorize?tenant=a")!

    /// The query of `url` as ordered pairs.
    private func query(_ url: URL) throws -> [(name: String, value: String)] {
        try FormURLEncoding.decode(try #require(url.query(percentEncoded: true)))
    }

    @Test func urlCarriesEverySecurityParameterAndTheOptions() throws {
        var request = AuthorizationRequest(clientID: "app", redirectURI: "com.example.app:/callback", scopes: ["profile"])
        request.acrValues = ["urn:idp:bank", "urn:idp:card"]
        request.prompt = ["login", "consent"]
        request.loginHint = "alice@example.com"
        request.maxAge = .zero
        request.uiLocales = ["nb-NO", "en"]
        request.resources = ["https://api.example/"]
        request.extraParameters = [("response_mode", "form_post"), ("provider_extra", "x y&z")]
        let prepared = try request.prepare(authorizationEndpoint: endpoint, issuer: "https://op.example", clock: .fixed(secondsSince1970: 1000))
        let pairs = try query(prepared.url)
        let values = Dictionary(pairs.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        #expect(pairs.first?.name == "tenant")
        #expect(values["response_type"] == "code")
        #expect(values["client_id"] == "app")
        #expect(values["redirect_uri"] == "com.example.app:/callback")
        #expect(values["scope"] == "openid profile")
        #expect(values["state"] == prepared.transaction.state)
        #expect(values["nonce"] == prepared.transaction.nonce)
        #expect(values["code_challenge"] == prepared.transaction.codeVerifier.challenge)
        #expect(values["code_challenge_method"] == "S256")
        #expect(values["acr_values"] == "urn:idp:bank urn:idp:card")
        #expect(values["prompt"] == "login consent")
        #expect(values["login_hint"] == "alice@example.com")
        #expect(values["max_age"] == "0")
        #expect(values["ui_locales"] == "nb-NO en")
        #expect(values["resource"] == "https://api.example/")
        #expect(values["provider_extra"] == "x y&z")
        #expect(pairs.count == Set(pairs.map(\.name)).count)
        #expect(prepared.transaction.createdAt == Date(timeIntervalSince1970: 1000))
        #expect(prepared.transaction.maxAge == .zero)
    }

    @Test func freshSecretsEachTime() throws {
        let request = AuthorizationRequest(clientID: "app", redirectURI: "https://app.example/cb")
        let first = try request.prepare(authorizationEndpoint: endpoint, issuer: "https://op.example").transaction
        let second = try request.prepare(authorizationEndpoint: endpoint, issuer: "https://op.example").transaction
        #expect(first.state != second.state)
        #expect(first.nonce != second.nonce)
        #expect(first.codeVerifier != second.codeVerifier)
        #expect(first.nonce.utf8.count >= 22)  // at least 128 bits in base64url
        #expect(first.state.utf8.count >= 22)
    }

    @Test(arguments: AuthorizationRequest.reservedParameters.sorted())
    func extraParametersCannotOverride(name: String) async throws {
        var request = AuthorizationRequest(clientID: "app", redirectURI: "https://app.example/cb")
        request.extraParameters = [(name, "attacker")]
        _ = await expectJOSEError(.invalidInput) {
            try request.prepare(authorizationEndpoint: endpoint, issuer: "https://op.example")
        }
    }

    @Test(arguments: ["State", "REDIRECT_URI", "Code_Challenge"])
    func reservedNamesAreComparedIgnoringCase(name: String) async throws {
        var request = AuthorizationRequest(clientID: "app", redirectURI: "https://app.example/cb")
        request.extraParameters = [(name, "attacker")]
        _ = await expectJOSEError(.invalidInput) {
            try request.prepare(authorizationEndpoint: endpoint, issuer: "https://op.example")
        }
    }

    @Test(arguments: ["state=x", "tenant=a&redirect_uri=https%3A%2F%2Fevil.example", "Nonce=n", "display=page"])
    func endpointQueryCannotNameAParameterTheRequestSets(query: String) async throws {
        var request = AuthorizationRequest(clientID: "app", redirectURI: "https://app.example/cb")
        request.extraParameters = [("display", "popup")]
        let endpoint = try #require(URL(string: "https://op.example/authorize?" + query))
        _ = await expectJOSEError(.invalidInput) {
            try request.prepare(authorizationEndpoint: endpoint, issuer: "https://op.example")
        }
    }

    @Test func repeatedExtraParameterIsRefused() async throws {
        var request = AuthorizationRequest(clientID: "app", redirectURI: "https://app.example/cb")
        request.extraParameters = [("display", "page"), ("display", "popup")]
        _ = await expectJOSEError(.invalidInput) {
            try request.prepare(authorizationEndpoint: endpoint, issuer: "https://op.example")
        }
    }

    @Test(arguments: ["", "relative/path", "https://app.example/cb?x=1", "https://app.example/cb#f", "https:///cb",
                      "https://app.example/call back", "com.example.app:/{cb}"])
    func unusableRedirectURIsAreRefused(redirect: String) async throws {
        let request = AuthorizationRequest(clientID: "app", redirectURI: redirect)
        _ = await expectJOSEError(.invalidInput) {
            try request.prepare(authorizationEndpoint: endpoint, issuer: "https://op.example")
        }
    }

    @Test func badOptionsAreRefused() async throws {
        var request = AuthorizationRequest(clientID: "app", redirectURI: "https://app.example/cb")
        request.maxAge = .seconds(-1)
        _ = await expectJOSEError(.invalidInput) { try request.prepare(authorizationEndpoint: endpoint, issuer: "i") }
        request.maxAge = .milliseconds(1500)   // max_age is an integer: no fraction is rounded away
        _ = await expectJOSEError(.invalidInput) { try request.prepare(authorizationEndpoint: endpoint, issuer: "i") }
        request.maxAge = .seconds(1e19)        // beyond Int64 seconds: refused, not a trap
        _ = await expectJOSEError(.invalidInput) { try request.prepare(authorizationEndpoint: endpoint, issuer: "i") }
        request.maxAge = nil
        request.scopes = ["openid", "two words"]
        _ = await expectJOSEError(.invalidInput) { try request.prepare(authorizationEndpoint: endpoint, issuer: "i") }
        request.scopes = ["openid"]
        request.resources = ["not a uri"]
        _ = await expectJOSEError(.invalidInput) { try request.prepare(authorizationEndpoint: endpoint, issuer: "i") }
        request.resources = ["https://api.example/a b"]
        _ = await expectJOSEError(.invalidInput) { try request.prepare(authorizationEndpoint: endpoint, issuer: "i") }
    }

    /// Authorization and logout URLs are built by one builder under one transport policy: a
    /// login is not sent to a plain-http or fragment-carrying endpoint either.
    @Test(arguments: ["http://op.example/authorize", "https://op.example/authorize#top"])
    func endpointOutsideTheTransportPolicyIsRefused(text: String) async throws {
        let request = AuthorizationRequest(clientID: "app", redirectURI: "https://app.example/cb")
        let endpoint = try #require(URL(string: text))
        _ = await expectJOSEError(.invalidInput) { try request.prepare(authorizationEndpoint: endpoint, issuer: "i") }
    }

    @Test func transactionRoundTripsThroughJSONAndValidatesOnDecode() throws {
        let request = AuthorizationRequest(clientID: "app", redirectURI: "https://app.example/cb")
        var withMaxAge = request
        withMaxAge.maxAge = .seconds(60)
        let transaction = try withMaxAge.prepare(authorizationEndpoint: endpoint, issuer: "https://op.example",
                                                 requiresIssuerParameter: true).transaction
        let data = try JSONEncoder().encode(transaction)
        #expect(try JSONDecoder().decode(LoginTransaction.self, from: data) == transaction)

        var object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["issuer", "client_id", "redirect_uri", "state", "nonce", "code_verifier",
                                     "max_age", "created_at", "requires_iss"])
        object["code_verifier"] = "short"
        let tampered = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: JOSEError.self) { try JSONDecoder().decode(LoginTransaction.self, from: tampered) }
    }

    @Test func pushedRequestGivesTheFormThenTheShortURL() throws {
        let metadata = try OpenIDProviderMetadata(document: Array("""
            {"issuer":"https://op.example","authorization_endpoint":"https://op.example/authorize",
             "pushed_authorization_request_endpoint":"https://op.example/par"}
            """.utf8), expectedIssuer: "https://op.example")
        let pushed = try AuthorizationRequest(clientID: "app", redirectURI: "https://app.example/cb").preparePushed(for: metadata)
        #expect(pushed.endpoint.absoluteString == "https://op.example/par")
        #expect(pushed.form.first { $0.name == "state" }?.value == pushed.transaction.state)
        let prepared = try pushed.authorizationURL(requestURI: "urn:ietf:params:oauth:request_uri:abc")
        #expect(prepared.url.absoluteString
                == "https://op.example/authorize?client_id=app&request_uri=urn%3Aietf%3Aparams%3Aoauth%3Arequest_uri%3Aabc")
    }

    @Test func providerRequiringPARRefusesAPlainRequest() async throws {
        let metadata = try OpenIDProviderMetadata(document: Array("""
            {"issuer":"https://op.example","authorization_endpoint":"https://op.example/authorize",
             "pushed_authorization_request_endpoint":"https://op.example/par","require_pushed_authorization_requests":true}
            """.utf8), expectedIssuer: "https://op.example")
        let request = AuthorizationRequest(clientID: "app", redirectURI: "https://app.example/cb")
        _ = await expectJOSEError(.invalidInput) { try request.prepare(for: metadata) }
        #expect(try request.preparePushed(for: metadata).transaction.clientID == "app")
    }

    @Test func providerWithoutS256IsRefused() async throws {
        let metadata = try OpenIDProviderMetadata(document: Array("""
            {"issuer":"https://op.example","authorization_endpoint":"https://op.example/authorize",
             "code_challenge_methods_supported":["plain"]}
            """.utf8), expectedIssuer: "https://op.example")
        let error = await expectJOSEError(.invalidInput) {
            try AuthorizationRequest(clientID: "app", redirectURI: "https://app.example/cb").prepare(for: metadata)
        }
        #expect(error?.message.contains("code_challenge_methods_supported") == true)
    }
}
