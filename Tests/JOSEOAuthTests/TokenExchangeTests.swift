import Foundation
import JOSETestSupport
import Testing
@testable import JOSE
@testable import JOSEOAuth

@Suite struct TokenExchangeTests {
    @Test func fullTokenResponseParses() throws {
        let response = try TokenResponse(json: Array("""
            {"access_token":"at","token_type":"bearer","expires_in":3600,"refresh_token":"rt","id_token":"a.b.c",
             "scope":"openid profile","extra":{"x":1}}
            """.utf8))
        #expect(response.accessToken == "at")
        #expect(response.tokenType == "bearer")
        #expect(response.expiresIn == .seconds(3600))
        #expect(response.refreshToken == "rt")
        #expect(response.idToken == "a.b.c")
        #expect(response.scope == "openid profile")
        #expect(response.json["extra"]?["x"]?.integer == 1)
        struct Extra: Decodable { struct Inner: Decodable { let x: Int }; let extra: Inner }
        #expect(try JSONDecoder().decode(Extra.self, from: Data(response.jsonString.utf8)).extra.x == 1)
    }

    @Test(arguments: [
        #"[]"#, #"{"access_token":"","token_type":"Bearer"}"#, #"{"access_token":1,"token_type":"Bearer"}"#,
        #"{"access_token":"a\nb","token_type":"Bearer"}"#, #"{"access_token":"a b","token_type":"Bearer"}"#,
        #"{"access_token":"a"}"#,
        #"{"access_token":"a","token_type":"Bearer","expires_in":-1}"#,
        #"{"access_token":"a","token_type":"Bearer","expires_in":1.5}"#,
        #"{"access_token":"a","token_type":"Bearer","expires_in":1e3}"#,
        #"{"access_token":"a","token_type":"Bearer","expires_in":99999999999999999999}"#,
        #"{"access_token":"a","token_type":"Bearer","refresh_token":null}"#,
        #"{"access_token":"a","token_type":"Bearer","id_token":""}"#,
        #"{"access_token":"a","token_type":"Bearer","scope":["openid"]}"#,
        #"{"access_token":"a","token_type":"Bearer"} x"#,
    ])
    func strictTokenResponse(body: String) async throws {
        _ = await expectJOSEError(.invalidTokenResponse) { try TokenResponse(json: Array(body.utf8)) }
    }

    @Test func errorStatusesMapToTypedErrors() async throws {
        let denied = HTTPFetchResponse(statusCode: 401, body: Array(#"{"error":"invalid_client"}"#.utf8))
        let error = await expectJOSEError(.tokenError) { try TokenResponse.read(denied) }
        #expect(error?.providerError?.error == "invalid_client")
        let broken = HTTPFetchResponse(statusCode: 400, body: Array("nope".utf8))
        _ = await expectJOSEError(.invalidTokenResponse) { try TokenResponse.read(broken) }
        let redirect = HTTPFetchResponse(statusCode: 201, body: Array(#"{"access_token":"a","token_type":"Bearer"}"#.utf8))
        _ = await expectJOSEError(.invalidTokenResponse) { try TokenResponse.read(redirect) }
    }

    @Test func clientSecretBasicFormEncodesBeforeBase64() throws {
        var form: [(name: String, value: String)] = []
        var headers: [String: String] = [:]
        try ClientAuthentication.clientSecretBasic("p@ss word:+").apply(
            to: &form, headers: &headers, clientID: "my client", endpoint: URL(string: "https://op.example/token")!,
            issuer: "https://op.example")
        #expect(form.isEmpty)
        let encoded = try #require(headers["Authorization"]?.dropFirst("Basic ".count))
        let decoded = String(decoding: try #require(Data(base64Encoded: String(encoded))), as: UTF8.self)
        #expect(decoded == "my%20client:p%40ss%20word%3A%2B")
    }

    @Test func privateKeyJWTAssertionCanNameTheIssuer() throws {
        let key = try JWK.generate(for: .es256)
        let authentication = try ClientAuthentication.privateKeyJWT(JWSSigner(key: key, algorithm: .es256),
                                                                    audience: .issuer, lifetime: .seconds(30))
        var form: [(name: String, value: String)] = []
        var headers: [String: String] = [:]
        try authentication.apply(to: &form, headers: &headers, clientID: "app", endpoint: URL(string: "https://op.example/token")!,
                                 issuer: "https://op.example", clock: .fixed(secondsSince1970: 1_700_000_000))
        let assertion = try #require(form.first { $0.name == "client_assertion" }?.value)
        let claims = try JSONDocument(bytes: Base64URL.decode(String(assertion.split(separator: ".")[1]))).root
        #expect(claims["aud"]?.string == "https://op.example")
        #expect(claims["exp"]?.integer == 1_700_000_030)
        #expect(throws: JOSEError.self) {
            try ClientAuthentication.privateKeyJWT(JWSSigner(key: key, algorithm: .es256), lifetime: .seconds(61))
        }
        #expect(throws: JOSEError.self) {   // exp is an integer: no fraction is rounded away
            try ClientAuthentication.privateKeyJWT(JWSSigner(key: key, algorithm: .es256), lifetime: .milliseconds(1500))
        }
    }

    @Test func tokenRequestsCarryTheirGrants() throws {
        let transaction = try localTransaction()
        let code = TokenRequest.authorizationCode("the code", transaction: transaction)
        #expect(code.parameters.map(\.name) == ["grant_type", "code", "redirect_uri", "code_verifier"])
        let http = try code.httpRequest(endpoint: URL(string: "https://op.example/token")!, clientID: "app",
                                        issuer: "https://op.example", authentication: .none)
        #expect(http.method == .post)
        #expect(http.headers["Content-Type"] == "application/x-www-form-urlencoded")
        let body = try FormURLEncoding.decode(String(decoding: http.body, as: UTF8.self))
        #expect(body.last?.name == "client_id")
        #expect(body[1].value == "the code")
        let refresh = TokenRequest.refreshToken("rt", scopes: ["openid", "email"])
        #expect(refresh.parameters.map(\.value) == ["refresh_token", "rt", "openid email"])
    }

    @Test func formEncodingRoundTripsAndDecodesStrictly() async throws {
        let pairs: [(name: String, value: String)] = [("a b", "c&d=e"), ("ø", "~-._*+")]
        let text = FormURLEncoding.encode(pairs)
        #expect(text == "a%20b=c%26d%3De&%C3%B8=~-._%2A%2B")
        #expect(try FormURLEncoding.decode("a+b=c+d").first?.value == "c d")
        let decoded = try FormURLEncoding.decode(text)
        #expect(decoded.map(\.name) == ["a b", "ø"])
        #expect(decoded.map(\.value) == ["c&d=e", "~-._*+"])
        for bad in ["a", "=b", "a=%2", "a=%g0", "a=%FF", "a=1&&b=2"] {
            _ = await expectJOSEError(.malformed) { try FormURLEncoding.decode(bad) }
        }
    }
}
