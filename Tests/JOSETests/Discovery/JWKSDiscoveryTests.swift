import Foundation
import Testing
@testable import JOSE
import JOSEURLSession
import JOSETestSupport

/// OpenID Connect Discovery: the configuration URL and the trusted `jwks_uri`.
@Suite struct JWKSDiscoveryTests {
    /// A discovery document as JSON bytes.
    private func document(_ members: [String: Any]) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: members))
    }

    @Test(arguments: [
        ("https://accounts.example.com", "https://accounts.example.com/.well-known/openid-configuration"),
        ("https://accounts.example.com/", "https://accounts.example.com/.well-known/openid-configuration"),
        ("https://example.com/tenant", "https://example.com/tenant/.well-known/openid-configuration"),
        ("https://example.com/tenant/", "https://example.com/tenant/.well-known/openid-configuration"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080/.well-known/openid-configuration"),
    ])
    func discoveryURL(issuer: String, expected: String) throws {
        #expect(try OpenIDProviderMetadata.discoveryURL(forIssuer: issuer).absoluteString == expected)
    }

    @Test(arguments: [
        "http://example.com", "example.com", "", "https://example.com/?tenant=1", "https://example.com/#x",
        "ftp://example.com", "https://", "https://example.com/a tenant", "https://example.com/{tenant}",
    ])
    func unusableIssuerIsInvalidInput(_ issuer: String) async {
        _ = await expectJOSEError(.invalidInput) { try OpenIDProviderMetadata.discoveryURL(forIssuer: issuer) }
    }

    @Test func goodDocumentGivesTheJWKSURI() throws {
        let body = try document([
            "issuer": "https://accounts.example.com",
            "jwks_uri": "https://accounts.example.com/oauth2/v3/certs",
            "authorization_endpoint": "https://accounts.example.com/o/oauth2/v2/auth",
            "id_token_signing_alg_values_supported": ["RS256"],
        ])
        let url = try OpenIDProviderMetadata(document: body, expectedIssuer: "https://accounts.example.com").requiredEndpoint(\.jwksURI, "jwks_uri")
        #expect(url.absoluteString == "https://accounts.example.com/oauth2/v3/certs")
    }

    @Test func loopbackHTTPJWKSURIIsAllowed() throws {
        let body = try document(["issuer": "http://127.0.0.1:9", "jwks_uri": "http://127.0.0.1:9/jwks.json"])
        let url = try OpenIDProviderMetadata(document: body, expectedIssuer: "http://127.0.0.1:9").requiredEndpoint(\.jwksURI, "jwks_uri")
        #expect(url.absoluteString == "http://127.0.0.1:9/jwks.json")
    }

    @Test(arguments: [
        "https://evil.example.com", "https://accounts.example.com/", "https://ACCOUNTS.example.com",
        "https://accounts.example.com ", "",
    ])
    func issuerMismatchIsRejected(_ named: String) async throws {
        let body = try document(["issuer": named, "jwks_uri": "https://accounts.example.com/certs"])
        let error = await expectJOSEError(.discoveryFailed) {
            try OpenIDProviderMetadata(document: body, expectedIssuer: "https://accounts.example.com").requiredEndpoint(\.jwksURI, "jwks_uri")
        }
        #expect(error?.message.contains("expected") == true)
    }

    @Test func issuerComparisonIsByCodeUnits() async throws {
        // "é" precomposed vs. "e" + combining acute: equal as Swift Strings, different bytes.
        let body = try document(["issuer": "https://caf\u{E9}.example", "jwks_uri": "https://x.example/certs"])
        _ = await expectJOSEError(.discoveryFailed) {
            try OpenIDProviderMetadata(document: body, expectedIssuer: "https://cafe\u{301}.example").requiredEndpoint(\.jwksURI, "jwks_uri")
        }
    }

    @Test func missingOrNonStringIssuerIsRejected() async throws {
        for members: [String: Any] in [["jwks_uri": "https://a.example/certs"],
                                       ["issuer": 42, "jwks_uri": "https://a.example/certs"],
                                       ["issuer": NSNull(), "jwks_uri": "https://a.example/certs"]] {
            let body = try document(members)
            _ = await expectJOSEError(.discoveryFailed) {
                try OpenIDProviderMetadata(document: body, expectedIssuer: "https://a.example").requiredEndpoint(\.jwksURI, "jwks_uri")
            }
        }
    }

    @Test(arguments: [
        "http://accounts.example.com/certs", "ftp://accounts.example.com/certs", "/certs", "certs",
        "https:///certs", "", "javascript:alert(1)", "https://a.example/key set", "https://a.example/clés",
    ])
    func untrustedJWKSURIIsRejected(_ jwksURI: String) async throws {
        let body = try document(["issuer": "https://a.example", "jwks_uri": jwksURI])
        let error = await expectJOSEError(.discoveryFailed) {
            try OpenIDProviderMetadata(document: body, expectedIssuer: "https://a.example").requiredEndpoint(\.jwksURI, "jwks_uri")
        }
        #expect(error?.message.contains("jwks_uri") == true)
    }

    @Test func missingOrNonStringJWKSURIIsRejected() async throws {
        for members: [String: Any] in [["issuer": "https://a.example"],
                                       ["issuer": "https://a.example", "jwks_uri": ["https://a.example/certs"]],
                                       ["issuer": "https://a.example", "jwks_uri": NSNull()]] {
            let body = try document(members)
            let error = await expectJOSEError(.discoveryFailed) {
                try OpenIDProviderMetadata(document: body, expectedIssuer: "https://a.example").requiredEndpoint(\.jwksURI, "jwks_uri")
            }
            #expect(error?.message.contains("jwks_uri") == true)
        }
    }

    @Test(arguments: [
        "", "not json", "<html></html>", "[1,2,3]", "\"https://a.example\"", "null", "{", "{\"issuer\":}",
        String(repeating: "[", count: 100_000), "\u{FEFF}\u{0}",
    ])
    func notAJSONObjectIsRejected(_ text: String) async {
        _ = await expectJOSEError(.discoveryFailed) {
            try OpenIDProviderMetadata(document: Array(text.utf8), expectedIssuer: "https://a.example").requiredEndpoint(\.jwksURI, "jwks_uri")
        }
    }

    @Test func invalidUTF8IsRejected() async {
        let bytes: [UInt8] = [0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D]
        _ = await expectJOSEError(.discoveryFailed) {
            try OpenIDProviderMetadata(document: bytes, expectedIssuer: "https://a.example").requiredEndpoint(\.jwksURI, "jwks_uri")
        }
    }

    @Test func fetchesFromTheIssuerOverHTTP() async throws {
        let server = try TestHTTPServer()
        let issuer = server.baseURL.absoluteString
        let jwks = server.url("/jwks.json").absoluteString
        let body = String(decoding: try document(["issuer": issuer, "jwks_uri": jwks]), as: UTF8.self)
        try await server.setRoute("/.well-known/openid-configuration", headers: ["Content-Type": "application/json"], body: body)

        let url = try await OpenIDProviderMetadata.discover(issuer: issuer, fetcher: URLSessionHTTPFetcher()).requiredEndpoint(\.jwksURI, "jwks_uri")
        #expect(url.absoluteString == jwks)
        // A trailing slash on the issuer finds the same document, but the document must then name it.
        _ = await expectJOSEError(.discoveryFailed) { try await OpenIDProviderMetadata.discover(issuer: issuer + "/", fetcher: URLSessionHTTPFetcher()).requiredEndpoint(\.jwksURI, "jwks_uri") }
        #expect(try await server.requestCount(path: "/.well-known/openid-configuration") == 2)
    }

    @Test func discoveryErrorStatusIsUnavailable() async throws {
        let server = try TestHTTPServer()
        let error = await expectJOSEError(.discoveryFailed) {
            try await OpenIDProviderMetadata.discover(issuer: server.baseURL.absoluteString, fetcher: URLSessionHTTPFetcher()).requiredEndpoint(\.jwksURI, "jwks_uri")
        }
        #expect(error?.message.contains("404") == true)
    }
}
