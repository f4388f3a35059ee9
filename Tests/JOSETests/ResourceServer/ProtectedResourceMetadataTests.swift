import Foundation
import Testing
@testable import JOSE

@Suite struct ProtectedResourceMetadataTests {
    @Test func serialisesTheSetMembersInOrder() {
        var metadata = ProtectedResourceMetadata(resource: URL(string: "https://api.example.com")!)
        metadata.authorizationServers = ["https://auth.example.com"]
        metadata.jwksURI = URL(string: "https://api.example.com/jwks.json")
        metadata.scopesSupported = ["orders:read", "orders:write"]
        metadata.dpopSigningAlgorithms = [.es256, .ps256]
        metadata.dpopBoundAccessTokensRequired = true
        metadata.resourceName = "Orders \"API\""
        #expect(metadata.jsonString == #"{"resource":"https://api.example.com","authorization_servers":["https://auth.example.com"],"jwks_uri":"https://api.example.com/jwks.json","scopes_supported":["orders:read","orders:write"],"bearer_methods_supported":["header"],"resource_name":"Orders \"API\"","dpop_signing_alg_values_supported":["ES256","PS256"],"dpop_bound_access_tokens_required":true}"#)
        #expect(ProtectedResourceMetadata(resource: URL(string: "https://a.example")!).jsonString
                == #"{"resource":"https://a.example","bearer_methods_supported":["header"]}"#)
    }

    @Test(arguments: [("https://api.example.com", "https://api.example.com/.well-known/oauth-protected-resource"),
                      ("https://api.example.com/", "https://api.example.com/.well-known/oauth-protected-resource"),
                      ("https://api.example.com:8443/v1/orders", "https://api.example.com:8443/.well-known/oauth-protected-resource/v1/orders")])
    func wellKnownURL(_ resource: String, _ expected: String) throws {
        #expect(try ProtectedResourceMetadata.wellKnownURL(forResource: URL(string: resource)!).absoluteString == expected)
    }

    @Test(arguments: ["https://api.example.com/?a=1", "https://api.example.com/#x", "api.example.com", "ftp://x/"])
    func wellKnownURLRefuses(_ resource: String) {
        #expect(throws: JOSEError.self) { try ProtectedResourceMetadata.wellKnownURL(forResource: URL(string: resource)!) }
    }
}
