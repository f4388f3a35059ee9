import Foundation
import Testing
@testable import JOSE
@testable import JOSEOAuth
import JOSEURLSession
import JOSETestSupport

/// Every way a login must fail, against the provider test server.
@Suite(.tags(.threadSanitized)) struct LoginFlowErrorTests {
    /// Replaces one query parameter of a callback URL.
    private func replacing(_ name: String, with value: String?, in callback: String) throws -> String {
        var components = try #require(URLComponents(string: callback))
        var items = components.queryItems ?? []
        items.removeAll { $0.name == name }
        if let value { items.append(URLQueryItem(name: name, value: value)) }
        components.queryItems = items
        return try #require(components.string)
    }

    @Test func wrongStateIsRefusedAndNothingIsExchanged() async throws {
        let fixture = try await LoginFixture.make()
        try await fixture.provider.setBehaviour(["state_override": "attacker-state"])
        let (callback, transaction) = try await fixture.authorize()
        _ = await expectJOSEError(.invalidState) {
            try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        }
        #expect(try await fixture.provider.lastRequest(path: "/token").count == 0)
    }

    @Test func missingStateIsRefused() async throws {
        let fixture = try await LoginFixture.make()
        let (callback, transaction) = try await fixture.authorize()
        _ = await expectJOSEError(.invalidState) {
            try await fixture.client.finishLogin(callbackURL: try replacing("state", with: nil, in: callback),
                                                 transaction: transaction)
        }
    }

    @Test func missingIssIsRefusedWhenTheProviderSendsIt() async throws {
        let fixture = try await LoginFixture.make()
        try await fixture.provider.setBehaviour(["send_iss": false])
        let (callback, transaction) = try await fixture.authorize()
        #expect(transaction.requiresIssuerParameter)
        _ = await expectJOSEError(.invalidIssuer) {
            try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        }
        #expect(try await fixture.provider.lastRequest(path: "/token").count == 0)
    }

    @Test func missingIssIsAcceptedWhenTheProviderDoesNotAdvertiseIt() async throws {
        let provider = try OAuthProviderTestServer()
        try await provider.setBehaviour(["iss_supported": false, "send_iss": false])
        try await provider.registerClient("app", authentication: "none", redirectURIs: [LoginFixture.redirectURI])
        let client = try await OpenIDClient.discovered(issuer: provider.issuer, clientID: "app")
        let prepared = try client.prepare(AuthorizationRequest(clientID: "app", redirectURI: LoginFixture.redirectURI))
        #expect(!prepared.transaction.requiresIssuerParameter)
        let callback = try await provider.callbackURL(for: prepared.url)
        _ = try await client.finishLogin(callbackURL: callback, transaction: prepared.transaction)
    }

    @Test func wrongIssIsRefused() async throws {
        let fixture = try await LoginFixture.make()
        try await fixture.provider.setBehaviour(["iss_override": "https://attacker.example"])
        let (callback, transaction) = try await fixture.authorize()
        let error = await expectJOSEError(.invalidIssuer) {
            try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        }
        #expect(error?.message.contains("attacker.example") == true)
    }

    @Test func errorResponseIsTypedWithTheProviderFields() async throws {
        let fixture = try await LoginFixture.make()
        try await fixture.provider.setBehaviour(["authorize_error": [
            "error": "access_denied", "error_description": "The user said no\u{1B}[31m", "error_uri": "https://op.example/e",
        ]])
        let (callback, transaction) = try await fixture.authorize()
        let error = await expectJOSEError(.authorizationError) {
            try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        }
        #expect(error?.providerError?.error == "access_denied")
        #expect(error?.providerError?.errorDescription == "The user said no\u{1B}[31m")
        #expect(error?.providerError?.errorURI == "https://op.example/e")
        #expect(error?.message.contains("\u{1B}") == false)
    }

    @Test func mismatchedRedirectIsRefused() async throws {
        let fixture = try await LoginFixture.make()
        let (callback, transaction) = try await fixture.authorize()
        let moved = callback.replacingOccurrences(of: "https://app.example/callback", with: "https://app.example/callback/evil")
        _ = await expectJOSEError(.invalidRedirectURI) {
            try await fixture.client.finishLogin(callbackURL: moved, transaction: transaction)
        }
        let otherHost = callback.replacingOccurrences(of: "https://app.example", with: "https://app.example.evil")
        _ = await expectJOSEError(.invalidRedirectURI) {
            try await fixture.client.finishLogin(callbackURL: otherHost, transaction: transaction)
        }
    }

    @Test func reusedTransactionIsRefused() async throws {
        let fixture = try await LoginFixture.make()
        let (callback, transaction) = try await fixture.authorize()
        _ = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        let copy = fixture.client
        _ = await expectJOSEError(.transactionReused) {
            try await copy.finishLogin(callbackURL: callback, transaction: transaction)
        }
        #expect(try await fixture.provider.lastRequest(path: "/token").count == 1)
    }

    @Test func concurrentFinishesOfOneTransactionSucceedOnce() async throws {
        let fixture = try await LoginFixture.make()
        let (callback, transaction) = try await fixture.authorize()
        let client = fixture.client
        let outcomes = await withTaskGroup(of: JOSEError.Code?.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    do {
                        _ = try await client.finishLogin(callbackURL: callback, transaction: transaction)
                        return nil
                    } catch let error as JOSEError {
                        return error.code
                    } catch {
                        return .invalidInput
                    }
                }
            }
            return await group.reduce(into: [JOSEError.Code?]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == nil }.count == 1)
        #expect(outcomes.filter { $0 == .transactionReused }.count == 3)
        #expect(try await fixture.provider.lastRequest(path: "/token").count == 1)
    }

    /// Anyone can start a login and call the callback with a made-up code: the token endpoint
    /// refuses it, and nothing is recorded, so a flood of such callbacks beyond the record's
    /// quota leaves a real login free to finish (and to finish once).
    @Test func forgedCallbacksBeyondTheQuotaDoNotBlockARealLogin() async throws {
        var fixture = try await LoginFixture.make()
        let record = try InMemoryReplayCache(maximumEntries: 3, maximumEntriesPerOwner: 3)
        fixture.client.consumedTransactions = record
        for index in 0..<6 {
            let (callback, transaction) = try await fixture.authorize()
            let forged = try replacing("code", with: "forged-\(index)", in: callback)
            _ = await expectJOSEError(.tokenError) {
                try await fixture.client.finishLogin(callbackURL: forged, transaction: transaction)
            }
        }
        #expect(record.count == 0)
        let (callback, transaction) = try await fixture.authorize()
        let login = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        #expect(login.idToken?.claims.nonce == transaction.nonce)
        _ = await expectJOSEError(.transactionReused) {
            try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        }
        #expect(record.count == 1)
    }

    /// A callback whose code the endpoint refused leaves its transaction usable: the real
    /// callback of the same transaction still finishes.
    @Test func aRefusedCodeLeavesTheTransactionUsable() async throws {
        let fixture = try await LoginFixture.make()
        let (callback, transaction) = try await fixture.authorize()
        _ = await expectJOSEError(.tokenError) {
            try await fixture.client.finishLogin(callbackURL: try replacing("code", with: "forged", in: callback),
                                                 transaction: transaction)
        }
        _ = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
    }

    @Test func transactionSurvivesARestartAsJSON() async throws {
        let fixture = try await LoginFixture.make()
        let (callback, transaction) = try await fixture.authorize()
        let stored = try transaction.json()
        let restarted = try await OpenIDClient.discovered(
            issuer: fixture.provider.issuer, location: .oauthAuthorizationServer, clientID: fixture.clientID)
        let login = try await restarted.finishLogin(callbackURL: callback, transaction: LoginTransaction(json: stored))
        #expect(login.idToken?.claims.nonce == transaction.nonce)
    }

    @Test func expiredTransactionIsRefused() async throws {
        let fixture = try await LoginFixture.make()
        let (callback, transaction) = try await fixture.authorize()
        var client = fixture.client
        client.transactionLifetime = .seconds(-1)
        _ = await expectJOSEError(.expired) {
            try await client.finishLogin(callbackURL: callback, transaction: transaction)
        }
    }

    @Test(arguments: [
        (#"{"token_type":"Bearer","id_token":"x"}"#, 200),
        (#"{"access_token":"a","token_type":"Bearer","expires_in":"3600"}"#, 200),
        (#"{"access_token":"a","token_type":"mac"}"#, 200),
        (#"{"access_token":"a","access_token":"b","token_type":"Bearer"}"#, 200),
        ("<html>oops</html>", 200),
        ("", 500),
    ])
    func badTokenResponseIsRefused(body: String, status: Int) async throws {
        let fixture = try await LoginFixture.make()
        try await fixture.provider.setBehaviour(["token_body": body, "token_status": status])
        let (callback, transaction) = try await fixture.authorize()
        _ = await expectJOSEError(.invalidTokenResponse) {
            try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        }
    }

    @Test func tokenResponseWithoutIDTokenIsRefused() async throws {
        let fixture = try await LoginFixture.make()
        try await fixture.provider.setBehaviour(["token_body": #"{"access_token":"a","token_type":"Bearer"}"#])
        let (callback, transaction) = try await fixture.authorize()
        _ = await expectJOSEError(.invalidTokenResponse) {
            try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        }
    }

    @Test func tokenErrorResponseIsTyped() async throws {
        let fixture = try await LoginFixture.make()
        try await fixture.provider.setBehaviour([
            "token_body": #"{"error":"invalid_grant","error_description":"code expired"}"#, "token_status": 400,
        ])
        let (callback, transaction) = try await fixture.authorize()
        let error = await expectJOSEError(.tokenError) {
            try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        }
        #expect(error?.providerError == JOSEError.ProviderError(error: "invalid_grant", errorDescription: "code expired"))
    }

    @Test func idTokenWithAWrongNonceIsRefused() async throws {
        let fixture = try await LoginFixture.make()
        try await fixture.provider.setBehaviour(["nonce_override": "replayed-nonce"])
        let (callback, transaction) = try await fixture.authorize()
        _ = await expectJOSEError(.invalidNonce) {
            try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        }
    }

    @Test func atHashMismatchIsRefused() async throws {
        let fixture = try await LoginFixture.make()
        try await fixture.provider.setBehaviour(["at_hash_override": "AAAAAAAAAAAAAAAAAAAAAA"])
        let (callback, transaction) = try await fixture.authorize()
        _ = await expectJOSEError(.invalidTokenHash) {
            try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        }
    }

    @Test func maxAgeRequiresAuthTime() async throws {
        let fixture = try await LoginFixture.make()
        var request = fixture.request()
        request.maxAge = .seconds(300)
        let (callback, transaction) = try await fixture.authorize(request)
        #expect(transaction.maxAge == .seconds(300))
        #expect(try await fixture.provider.lastRequest(path: "/authorize").parameters["max_age"] == "300")
        _ = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
    }

    @Test func unreachableTokenEndpointIsATransportFailure() async throws {
        let fixture = try await LoginFixture.make()
        let (callback, transaction) = try await fixture.authorize()
        fixture.provider.stop()
        let error = await expectJOSEError(.transportFailed) {
            try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        }
        #expect(error?.message.contains("/token") == true, "\(String(describing: error))")
    }

    @Test func transactionForAnotherProviderIsRefused() async throws {
        let fixture = try await LoginFixture.make()
        let foreign = try localTransaction(issuer: "https://other.example")
        _ = await expectJOSEError(.invalidIssuer) {
            try await fixture.client.finishLogin(callbackURL: "https://app.example/callback?code=c&state=" + foreign.state,
                                                 transaction: foreign)
        }
    }

    @Test func missingIssIsRefusedWhenTheMetadataSaysItIsSentEvenIfTheTransactionDoesNot() async throws {
        let fixture = try await LoginFixture.make()
        try await fixture.provider.setBehaviour(["send_iss": false])
        let endpoint = try #require(fixture.client.metadata.authorizationEndpoint)
        let prepared = try fixture.request().prepare(authorizationEndpoint: endpoint, issuer: fixture.provider.issuer)
        #expect(!prepared.transaction.requiresIssuerParameter)
        let callback = try await fixture.provider.callbackURL(for: prepared.url)
        _ = await expectJOSEError(.invalidIssuer) {
            try await fixture.client.finishLogin(callbackURL: callback, transaction: prepared.transaction)
        }
        let response = try AuthorizationResponse(callbackURL: callback, transaction: prepared.transaction)
        _ = await expectJOSEError(.invalidIssuer) {
            try await fixture.client.finishLogin(response, transaction: prepared.transaction)
        }
        #expect(try await fixture.provider.lastRequest(path: "/token").count == 0)
    }

    @Test func acrValuesAreAVoluntaryRequest() async throws {
        let fixture = try await LoginFixture.make()
        var request = fixture.request()
        request.acrValues = ["urn:example:loa:2"]
        try await fixture.provider.setBehaviour(["acr_override": "urn:example:loa:1"])
        let other = try await fixture.authorize(request)
        #expect(other.transaction.acrValues == ["urn:example:loa:2"])
        #expect(!other.transaction.requiresAuthenticationContext)
        let otherLogin = try await fixture.client.finishLogin(callbackURL: other.callback, transaction: other.transaction)
        #expect(otherLogin.idToken?.claims.string("acr") == "urn:example:loa:1")
        try await fixture.provider.setBehaviour(["acr_override": ""])
        let missing = try await fixture.authorize(request)
        let missingLogin = try await fixture.client.finishLogin(callbackURL: missing.callback, transaction: missing.transaction)
        #expect(missingLogin.idToken?.claims.json["acr"] == nil)
    }

    @Test func requiredACRMustBeOneOfTheRequestedValues() async throws {
        let fixture = try await LoginFixture.make()
        var request = fixture.request()
        request.acrValues = ["urn:example:loa:2"]
        request.requiresAuthenticationContext = true
        try await fixture.provider.setBehaviour(["acr_override": "urn:example:loa:1"])
        let weak = try await fixture.authorize(request)
        #expect(weak.transaction.requiresAuthenticationContext)
        _ = await expectJOSEError(.invalidClaim) {
            try await fixture.client.finishLogin(callbackURL: weak.callback, transaction: weak.transaction)
        }
        try await fixture.provider.setBehaviour(["acr_override": ""])
        let missing = try await fixture.authorize(request)
        _ = await expectJOSEError(.missingClaim) {
            try await fixture.client.finishLogin(callbackURL: missing.callback, transaction: missing.transaction)
        }
        try await fixture.provider.setBehaviour(["acr_override": "urn:example:loa:2"])
        let strong = try await fixture.authorize(request)
        let login = try await fixture.client.finishLogin(callbackURL: strong.callback, transaction: strong.transaction)
        #expect(login.idToken?.claims.string("acr") == "urn:example:loa:2")
    }

    @Test func anEssentialACRInTheClaimsParameterIsRequired() async throws {
        let fixture = try await LoginFixture.make()
        var request = fixture.request()
        request.extraParameters = [("claims", #"{"id_token":{"acr":{"essential":true,"values":["urn:example:loa:2"]}}}"#)]
        try await fixture.provider.setBehaviour(["acr_override": ""])
        let missing = try await fixture.authorize(request)
        #expect(missing.transaction.requiresAuthenticationContext)
        #expect(missing.transaction.acrValues == ["urn:example:loa:2"])
        _ = await expectJOSEError(.missingClaim) {
            try await fixture.client.finishLogin(callbackURL: missing.callback, transaction: missing.transaction)
        }
        try await fixture.provider.setBehaviour(["acr_override": "urn:example:loa:1"])
        let weak = try await fixture.authorize(request)
        _ = await expectJOSEError(.invalidClaim) {
            try await fixture.client.finishLogin(callbackURL: weak.callback, transaction: weak.transaction)
        }
        try await fixture.provider.setBehaviour(["acr_override": "urn:example:loa:2"])
        let strong = try await fixture.authorize(request)
        let login = try await fixture.client.finishLogin(callbackURL: strong.callback, transaction: strong.transaction)
        #expect(login.idToken?.claims.string("acr") == "urn:example:loa:2")
    }

    @Test func aClaimsParameterThatDoesNotMarkACREssentialRequiresNothing() async throws {
        let endpoint = try #require(URL(string: "https://op.example/authorize"))
        for claims in [#"{"id_token":{"acr":{"essential":false,"values":["urn:a"]}}}"#, #"{"id_token":{"acr":null}}"#,
                       #"{"userinfo":{"acr":{"essential":true}}}"#, #"{"id_token":{"email":{"essential":true,"value":7}}}"#] {
            var request = AuthorizationRequest(clientID: "app", redirectURI: "https://app.example/callback")
            request.extraParameters = [("claims", claims)]
            let transaction = try request.prepare(authorizationEndpoint: endpoint, issuer: "https://op.example").transaction
            #expect(!transaction.requiresAuthenticationContext, "\(claims)")
        }
        for claims in ["not json", "[1]", #"{"id_token":{"acr":{"essential":"yes"}}}"#,
                       #"{"id_token":{"acr":{"essential":true}}}"#] {
            var request = AuthorizationRequest(clientID: "app", redirectURI: "https://app.example/callback")
            request.extraParameters = [("claims", claims)]
            _ = await expectJOSEError(.invalidInput) {
                try request.prepare(authorizationEndpoint: endpoint, issuer: "https://op.example")
            }
        }
        var request = AuthorizationRequest(clientID: "app", redirectURI: "https://app.example/callback")
        request.acrValues = ["urn:b"]
        request.extraParameters = [("claims", #"{"id_token":{"acr":{"essential":true}}}"#)]
        let transaction = try request.prepare(authorizationEndpoint: endpoint, issuer: "https://op.example").transaction
        #expect(transaction.requiresAuthenticationContext && transaction.acrValues == ["urn:b"])
    }

    @Test func validatorAcceptedSetChecksAPresentACR() async throws {
        var fixture = try await LoginFixture.make()
        fixture.client.idTokenValidator.acceptedAuthenticationContexts = ["urn:example:loa:2"]
        try await fixture.provider.setBehaviour(["acr_override": "urn:example:loa:1"])
        let weak = try await fixture.authorize()
        _ = await expectJOSEError(.invalidClaim) {
            try await fixture.client.finishLogin(callbackURL: weak.callback, transaction: weak.transaction)
        }
        try await fixture.provider.setBehaviour(["acr_override": ""])
        let missing = try await fixture.authorize()
        _ = try await fixture.client.finishLogin(callbackURL: missing.callback, transaction: missing.transaction)
        fixture.client.idTokenValidator.requiresAuthenticationContext = true
        let required = try await fixture.authorize()
        _ = await expectJOSEError(.missingClaim) {
            try await fixture.client.finishLogin(callbackURL: required.callback, transaction: required.transaction)
        }
    }

    @Test func upstreamIdPSelectionWithACRValuesLogsIn() async throws {
        let fixture = try await LoginFixture.make()
        try await fixture.provider.setBehaviour(["acr_override": ""])
        var request = fixture.request()
        request.acrValues = ["idp:google"]
        let (callback, transaction) = try await fixture.authorize(request)
        #expect(try await fixture.provider.lastRequest(path: "/authorize").parameters["acr_values"] == "idp:google")
        let login = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        #expect(login.idToken?.claims.subject == "alice")
        #expect(login.idToken?.claims.json["acr"] == nil)
    }

    @Test func requiringACRWithoutACRValuesIsRefused() async throws {
        var request = AuthorizationRequest(clientID: "app", redirectURI: "https://app.example/callback")
        request.requiresAuthenticationContext = true
        let endpoint = try #require(URL(string: "https://op.example/authorize"))
        _ = await expectJOSEError(.invalidInput) {
            try request.prepare(authorizationEndpoint: endpoint, issuer: "https://op.example")
        }
        request.acrValues = ["urn:a"]
        let transaction = try request.prepare(authorizationEndpoint: endpoint, issuer: "https://op.example").transaction
        let stored = try JSONEncoder().encode(transaction)
        #expect(try JSONDecoder().decode(LoginTransaction.self, from: stored).requiresAuthenticationContext)
        var object = try #require(try JSONSerialization.jsonObject(with: stored) as? [String: Any])
        object.removeValue(forKey: "acr_values")
        _ = await expectJOSEError(.invalidInput) {
            try JSONDecoder().decode(LoginTransaction.self, from: JSONSerialization.data(withJSONObject: object))
        }
    }

    @Test func transactionWithoutACRValuesDecodesAndKeepsThemWhenPresent() throws {
        var request = AuthorizationRequest(clientID: "app", redirectURI: "https://app.example/callback")
        request.acrValues = ["urn:a", "urn:b"]
        let transaction = try request.prepare(authorizationEndpoint: #require(URL(string: "https://op.example/authorize")),
                                              issuer: "https://op.example").transaction
        let stored = try JSONEncoder().encode(transaction)
        #expect(try JSONDecoder().decode(LoginTransaction.self, from: stored).acrValues == ["urn:a", "urn:b"])
        var object = try #require(try JSONSerialization.jsonObject(with: stored) as? [String: Any])
        object.removeValue(forKey: "acr_values")
        let old = try JSONSerialization.data(withJSONObject: object)
        #expect(try JSONDecoder().decode(LoginTransaction.self, from: old).acrValues == [])
    }

    @Test func aStoredTransactionWithADuplicatedMemberIsRefused() throws {
        let transaction = try AuthorizationRequest(clientID: "app", redirectURI: "https://app.example/callback")
            .prepare(authorizationEndpoint: #require(URL(string: "https://op.example/authorize")), issuer: "https://op.example")
            .transaction
        let stored = try transaction.json()
        #expect(try LoginTransaction(json: stored) == transaction)
        let duplicated = Array(#"{"state":"forged","#.utf8) + stored.dropFirst()

        let thrown = #expect(throws: JOSEError.self) { try LoginTransaction(json: duplicated) }
        #expect(thrown?.code == .malformed)
        #expect(thrown?.message.contains("duplicate member name \"state\"") == true)
        let notATransaction = #expect(throws: JOSEError.self) { try LoginTransaction(json: Array(#"{"state":"s"}"#.utf8)) }
        #expect(notATransaction?.code == .invalidInput)
    }

    @Test func responseCheckedAgainstAnotherTransactionIsRefused() async throws {
        let fixture = try await LoginFixture.make()
        let first = try await fixture.authorize()
        let second = try await fixture.authorize()
        let response = try AuthorizationResponse(callbackURL: first.callback, transaction: first.transaction)
        _ = await expectJOSEError(.invalidState) {
            try await fixture.client.finishLogin(response, transaction: second.transaction)
        }
        #expect(try await fixture.provider.lastRequest(path: "/token").count == 0)
    }

    @Test func replacedValidatorForAnotherIssuerOrClientIsRefused() async throws {
        var fixture = try await LoginFixture.make()
        let first = try await fixture.authorize()
        let login = try await fixture.client.finishLogin(callbackURL: first.callback, transaction: first.transaction)
        let keys = JWKSet(keys: [])
        for (issuer, clientID) in [("https://attacker.example", fixture.clientID), (fixture.provider.issuer, "other-app")] {
            fixture.client.idTokenValidator = IDTokenValidator(issuer: issuer, clientID: clientID, keySource: keys)
            let (callback, transaction) = try await fixture.authorize()
            _ = await expectJOSEError(.invalidInput) {
                try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
            }
            _ = await expectJOSEError(.invalidInput) {
                try await fixture.client.refresh(refreshToken: try #require(login.tokens.refreshToken),
                                                 previousIDToken: try #require(login.idToken))
            }
        }
        #expect(try await fixture.provider.lastRequest(path: "/token").count == 1)
    }

    @Test(arguments: [
        (#"{"request_uri":"urn:ietf:params:oauth:request_uri:abc","expires_in":60}"#, 200),
        (#"{"request_uri":"urn:ietf:params:oauth:request_uri:abc"}"#, 201),
        (#"{"request_uri":"urn:ietf:params:oauth:request_uri:abc","expires_in":0}"#, 201),
        (#"{"request_uri":"urn:ietf:params:oauth:request_uri:abc","expires_in":"60"}"#, 201),
        (#"{"request_uri":"urn:x:a b","expires_in":60}"#, 201),
        ("{\"request_uri\":\"urn:x:\(String(repeating: "a", count: 2100))\",\"expires_in\":60}", 201),
    ])
    func unusablePARAnswerIsRefused(body: String, status: Int) async throws {
        let fixture = try await LoginFixture.make()
        try await fixture.provider.setBehaviour(["par_body": body, "par_status": status])
        _ = await expectJOSEError(.invalidTokenResponse) { try await fixture.client.push(fixture.request()) }
        #expect(try await fixture.provider.lastRequest(path: "/par").count == 1)
    }

    @Test func transactionMadeInTheFutureIsRefused() async throws {
        let fixture = try await LoginFixture.make()
        let future = try fixture.request().prepare(for: fixture.client.metadata, clock: .fixed(secondsSince1970: Date().timeIntervalSince1970 + 3600))
        let callback = try await fixture.provider.callbackURL(for: future.url)
        _ = await expectJOSEError(.expired) {
            try await fixture.client.finishLogin(callbackURL: callback, transaction: future.transaction)
        }
    }
}
