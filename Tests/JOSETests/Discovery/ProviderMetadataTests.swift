import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

@Suite(.tags(.addressSanitized)) struct ProviderMetadataTests {
    private func metadata(_ json: String, issuer: String = "https://op.example") throws -> OpenIDProviderMetadata {
        try OpenIDProviderMetadata(document: Array(json.utf8), expectedIssuer: issuer)
    }

    @Test func everyModelledMemberIsRead() throws {
        let value = try metadata("""
            {"issuer":"https://op.example","authorization_endpoint":"https://op.example/auth",
             "token_endpoint":"https://op.example/token","userinfo_endpoint":"https://op.example/me",
             "end_session_endpoint":"https://op.example/logout","pushed_authorization_request_endpoint":"https://op.example/par",
             "revocation_endpoint":"https://op.example/revoke","introspection_endpoint":"https://op.example/introspect",
             "jwks_uri":"https://op.example/jwks","id_token_signing_alg_values_supported":["none","RS256","ES256","XX999"],
             "code_challenge_methods_supported":["S256"],"authorization_response_iss_parameter_supported":true,
             "require_pushed_authorization_requests":true,"acr_values_supported":["a"],"custom":{"x":true}}
            """)
        #expect(value.authorizationEndpoint?.absoluteString == "https://op.example/auth")
        #expect(value.tokenEndpoint?.absoluteString == "https://op.example/token")
        #expect(value.userinfoEndpoint?.absoluteString == "https://op.example/me")
        #expect(value.endSessionEndpoint?.absoluteString == "https://op.example/logout")
        #expect(value.pushedAuthorizationRequestEndpoint?.absoluteString == "https://op.example/par")
        #expect(value.revocationEndpoint?.absoluteString == "https://op.example/revoke")
        #expect(value.introspectionEndpoint?.absoluteString == "https://op.example/introspect")
        #expect(value.jwksURI?.absoluteString == "https://op.example/jwks")
        #expect(value.idTokenSigningAlgorithms == [.rs256, .es256])
        #expect(value.authorizationResponseIssParameterSupported)
        #expect(value.requirePushedAuthorizationRequests)
        #expect(value.supportsS256CodeChallenge)
        #expect(value.acrValuesSupported == ["a"])
        #expect(value.json["custom"]?["x"]?.bool == true)
        struct Custom: Decodable { struct Inner: Decodable { let x: Bool }; let custom: Inner }
        #expect(try JSONDecoder().decode(Custom.self, from: Data(value.jsonString.utf8)).custom.x)
    }

    @Test func onlyNoneLeavesTheKeysToDecide() throws {
        let value = try metadata(#"{"issuer":"https://op.example","id_token_signing_alg_values_supported":["none"]}"#)
        #expect(value.idTokenSigningAlgorithms == nil)
        #expect(!value.authorizationResponseIssParameterSupported)
    }

    @Test(arguments: [
        #"{"issuer":"https://op.example","token_endpoint":"http://op.example/token"}"#,
        #"{"issuer":"https://op.example","token_endpoint":"/token"}"#,
        #"{"issuer":"https://op.example","token_endpoint":"https://op.example/t#f"}"#,
        #"{"issuer":"https://op.example","userinfo_endpoint":1}"#,
        #"{"issuer":"https://op.example","scopes_supported":"openid"}"#,
        #"{"issuer":"https://op.example","scopes_supported":["openid",1]}"#,
        #"{"issuer":"https://op.example","authorization_response_iss_parameter_supported":"true"}"#,
        #"{"issuer":"https://op.example/"}"#,
        #"{"issuer":"https://op.example","issuer":"https://op.example"}"#,
    ])
    func untrustworthyDocumentsAreRefused(json: String) async throws {
        _ = await expectJOSEError(.discoveryFailed) { try metadata(json) }
    }

    @Test(arguments: [
        ("https://op.example", "https://op.example/.well-known/oauth-authorization-server"),
        ("https://op.example/", "https://op.example/.well-known/oauth-authorization-server"),
        ("https://op.example/tenant/a", "https://op.example/.well-known/oauth-authorization-server/tenant/a"),
        ("https://op.example:8443/t/", "https://op.example:8443/.well-known/oauth-authorization-server/t"),
    ])
    func rfc8414PathInsertion(issuer: String, expected: String) throws {
        let url = try OpenIDProviderMetadata.discoveryURL(forIssuer: issuer, location: .oauthAuthorizationServer)
        #expect(url.absoluteString == expected)
        let oidc = try OpenIDProviderMetadata.discoveryURL(forIssuer: issuer)
        #expect(oidc.absoluteString.hasSuffix("/.well-known/openid-configuration"))
    }

    @Test func requiredEndpointNamesTheMissingMember() async throws {
        let value = try metadata(#"{"issuer":"https://op.example"}"#)
        let error = await expectJOSEError(.discoveryFailed) { try value.requiredEndpoint(\.tokenEndpoint, "token_endpoint") }
        #expect(error?.message.contains("token_endpoint") == true)
    }
}
