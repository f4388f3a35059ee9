import Foundation
import JOSETestSupport
import Testing
@testable import JOSE
@testable import JOSEOAuth

@Suite(.tags(.addressSanitized)) struct AuthorizationResponseTests {
    @Test func queryResponseParses() throws {
        let transaction = try localTransaction()
        let response = try AuthorizationResponse(
            callbackURL: "https://app.example/callback?code=abc%2Bdef&state=\(transaction.state)&iss=https%3A%2F%2Fop.example",
            transaction: transaction)
        #expect(response.code == "abc+def")
        #expect(response.issuer == "https://op.example")
    }

    @Test func fragmentResponseParses() throws {
        let transaction = try localTransaction()
        let response = try AuthorizationResponse(
            callbackURL: "https://app.example/callback#code=abc&state=\(transaction.state)&iss=https%3A%2F%2Fop.example",
            transaction: transaction)
        #expect(response.code == "abc")
    }

    @Test func formPostResponseParses() throws {
        let transaction = try localTransaction()
        let body = "code=abc&state=\(transaction.state)&iss=https%3A%2F%2Fop.example"
        let response = try AuthorizationResponse(formPostBody: Array(body.utf8), receivedAt: "https://app.example/callback",
                                                 transaction: transaction)
        #expect(response.code == "abc")
        // Another path, and the same URI spelled otherwise (RFC 9700 §2.1: exact string matching).
        for receivedAt in ["https://app.example/other", "https://APP.example:443/callback"] {
            let error = try #require(throws: JOSEError.self) {
                try AuthorizationResponse(formPostBody: Array(body.utf8), receivedAt: receivedAt, transaction: transaction)
            }
            #expect(error.code == .invalidRedirectURI)
        }
    }

    @Test(arguments: ["code", "iss", "x"])
    func duplicateParametersAreRefused(name: String) async throws {
        let transaction = try localTransaction()
        let url = "https://app.example/callback?code=a&state=\(transaction.state)&iss=https%3A%2F%2Fop.example&x=1&\(name)=again"
        _ = await expectJOSEError(.malformed) { try AuthorizationResponse(callbackURL: url, transaction: transaction) }
    }

    @Test func duplicateOrMissingStateIsInvalidState() async throws {
        let transaction = try localTransaction()
        let iss = "iss=https%3A%2F%2Fop.example"
        _ = await expectJOSEError(.invalidState) {
            try AuthorizationResponse(callbackURL: "https://app.example/callback?code=a&state=\(transaction.state)&state=\(transaction.state)&\(iss)",
                                      transaction: transaction)
        }
        _ = await expectJOSEError(.invalidState) {
            try AuthorizationResponse(callbackURL: "https://app.example/callback?code=a&\(iss)", transaction: transaction)
        }
        _ = await expectJOSEError(.invalidState) {
            try AuthorizationResponse(callbackURL: "https://app.example/callback?code=a&state=\(transaction.state)x&\(iss)",
                                      transaction: transaction)
        }
    }

    @Test func parametersInQueryAndFragmentAreRefused() async throws {
        let transaction = try localTransaction()
        _ = await expectJOSEError(.malformed) {
            try AuthorizationResponse(callbackURL: "https://app.example/callback?code=a#state=\(transaction.state)",
                                      transaction: transaction)
        }
    }

    @Test(arguments: [
        "http://app.example/callback", "https://app.example:8443/callback", "https://app.example/callback/",
        "https://app.example/Callback", "https://app.example.evil/callback", "https://user@app.example/callback",
        "https://app.example/callbackx", "app.example/callback",
        // Equivalent under RFC 3986 normalisation, but not the same string (RFC 9700 §2.1).
        "HTTPS://app.example/callback", "https://APP.example/callback", "https://app.example:443/callback",
        "https://app%2Eexample/callback", "https://app.example/%63allback", "https://app.example/./callback",
    ])
    func redirectMustMatchExactly(base: String) async throws {
        let transaction = try localTransaction()
        _ = await expectJOSEError(.invalidRedirectURI) {
            try AuthorizationResponse(callbackURL: base + "?code=a&state=\(transaction.state)&iss=https%3A%2F%2Fop.example",
                                      transaction: transaction)
        }
    }

    @Test func privateUseSchemeRedirectMatches() throws {
        let transaction = try localTransaction(redirectURI: "com.example.app:/oauth2redirect")
        let response = try AuthorizationResponse(
            callbackURL: "com.example.app:/oauth2redirect?code=a&state=\(transaction.state)&iss=https%3A%2F%2Fop.example",
            transaction: transaction)
        #expect(response.code == "a")
    }

    @Test func errorResponseKeepsTheProviderFieldsButEscapesTheMessage() async throws {
        let transaction = try localTransaction(requiresIssuerParameter: false)
        let url = "https://app.example/callback?error=login_required&error_description=%0Afake%20line&state=\(transaction.state)"
        let error = await expectJOSEError(.authorizationError) { try AuthorizationResponse(callbackURL: url, transaction: transaction) }
        #expect(error?.providerError?.error == "login_required")
        #expect(error?.providerError?.errorDescription == "\nfake line")
        #expect(error?.message.contains("\n") == false)
    }

    @Test func missingCodeAndBadEncodingAreMalformed() async throws {
        let transaction = try localTransaction(requiresIssuerParameter: false)
        _ = await expectJOSEError(.malformed) {
            try AuthorizationResponse(callbackURL: "https://app.example/callback?state=\(transaction.state)", transaction: transaction)
        }
        _ = await expectJOSEError(.malformed) {
            try AuthorizationResponse(callbackURL: "https://app.example/callback?code=%zz&state=\(transaction.state)",
                                      transaction: transaction)
        }
    }

    @Test(arguments: ["code=%1B%5B31mred", "code=a%7Fb", "code=caf%C3%A9", "code=a&iss=https%3A%2F%2Fop.example%1B"])
    func codeAndIssOutsideVisibleASCIIAreRefused(parameters: String) async throws {
        let transaction = try localTransaction(requiresIssuerParameter: false)
        let url = "https://app.example/callback?\(parameters)&state=\(transaction.state)"
        _ = await expectJOSEError(.malformed) { try AuthorizationResponse(callbackURL: url, transaction: transaction) }
    }
}
