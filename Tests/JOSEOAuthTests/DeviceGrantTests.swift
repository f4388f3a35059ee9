import Foundation
import Testing
import JOSE
@testable import JOSEOAuth
import JOSEURLSession
import JOSETestSupport

/// The device authorization grant (RFC 8628) against the loopback provider, with a clock that
/// records the waits instead of waiting.
@Suite(.tags(.addressSanitized), .timeLimit(.minutes(3))) struct DeviceGrantTests {
    /// A provider with a public client `tv`, and its device authorization.
    private func start(_ behaviour: [String: Any] = [:]) async throws
        -> (fixture: LoginFixture, authorization: DeviceAuthorization) {
        let fixture = try await LoginFixture.make(clientID: "tv")
        if !behaviour.isEmpty { try await fixture.provider.setBehaviour(behaviour) }
        let authorization = try await fixture.client.authorizeDevice(scopes: ["profile"])
        return (fixture, authorization)
    }

    @Test func theDeviceRequestCarriesTheClientAndScopesAndTheAnswerIsRead() async throws {
        let (fixture, authorization) = try await start()
        let request = try await fixture.provider.lastRequest(path: "/device_authorization")
        #expect(request.parameters["client_id"] == "tv")
        #expect(request.parameters["scope"] == "openid profile")
        #expect(authorization.verificationURI.absoluteString == fixture.provider.baseURL + "/device")
        #expect(authorization.verificationURIComplete?.absoluteString.hasSuffix("user_code=" + authorization.userCode) == true)
        #expect(authorization.interval == .seconds(1))
        #expect(authorization.expiresIn == .seconds(600))
    }

    @Test func pendingAndSlowDownPollAgainAndSlowDownAddsFiveSecondsForGood() async throws {
        let (fixture, authorization) = try await start(
            ["device_script": ["authorization_pending", "slow_down", "authorization_pending"]])
        try await fixture.provider.answerDevice(userCode: authorization.userCode, approve: true)
        let clock = RecordingClock()

        let login = try await fixture.client.finishDeviceLogin(authorization, clock: clock)

        #expect(clock.sleeps == [.seconds(1), .seconds(1), .seconds(6), .seconds(6)])
        let polls = try await fixture.provider.lastRequest(path: "/token")
        #expect(polls.count == 4)
        #expect(polls.parameters["grant_type"] == "urn:ietf:params:oauth:grant-type:device_code")
        #expect(polls.parameters["device_code"] == authorization.deviceCode)
        #expect(polls.parameters["client_id"] == "tv")
        #expect(login.idToken?.claims.subject == "alice")
        #expect(login.tokens.scope == "openid profile")
    }

    @Test(arguments: [("access_denied", false), ("expired_token", true)])
    func accessDeniedAndExpiredTokenEndTheLoginWithTheProvidersError(error: String, expired: Bool) async throws {
        let (fixture, authorization) = try await start(expired ? ["device_expired": true] : [:])
        if !expired { try await fixture.provider.answerDevice(userCode: authorization.userCode, approve: false) }
        let clock = RecordingClock()

        let thrown = await #expect(throws: JOSEError.self) {
            try await fixture.client.finishDeviceLogin(authorization, clock: clock)
        }
        #expect(thrown?.code == .tokenError)
        #expect(thrown?.providerError?.error == error)
        #expect(clock.sleeps == [.seconds(1)])
    }

    @Test func theCodesLifetimeOnTheClockEndsAnUnansweredLogin() async throws {
        let (fixture, authorization) = try await start(["device_expires_in": 3])
        let clock = RecordingClock()

        let thrown = await #expect(throws: JOSEError.self) {
            try await fixture.client.finishDeviceLogin(authorization, clock: clock)
        }
        #expect(thrown?.code == .loginTimedOut)
        #expect(clock.sleeps == [.seconds(1), .seconds(1)])
        #expect(try await fixture.provider.lastRequest(path: "/token").count == 2)
    }

    @Test func aProviderWithoutTheDeviceEndpointIsADiscoveryFailure() async throws {
        let fixture = try await LoginFixture.make(clientID: "tv")
        try await fixture.provider.setBehaviour(["metadata_extra": ["device_authorization_endpoint": NSNull()]])
        let client = try await OpenIDClient.discovered(issuer: fixture.provider.issuer, clientID: "tv")
        let thrown = await #expect(throws: JOSEError.self) { try await client.authorizeDevice() }
        #expect(thrown?.code == .discoveryFailed)
    }

    @Test(arguments: [
        #"{"device_code":"d","user_code":"AB\u001bCD","verification_uri":"https://op.example/device","expires_in":600}"#,
        #"{"device_code":"d","user_code":"ABCD","verification_uri":"http://op.example/device","expires_in":600}"#,
        #"{"device_code":"d","user_code":"ABCD","verification_uri":"https://op.example/device","expires_in":600,"interval":601}"#,
        #"{"device_code":"d","user_code":"ABCD","verification_uri":"https://op.example/device","expires_in":"600"}"#,
        #"{"device_code":"","user_code":"ABCD","verification_uri":"https://op.example/device","expires_in":600}"#,
        #"{"device_code":"d","user_code":"ABCD","verification_uri":"https://op.example/device","verification_uri_complete":"javascript:x","expires_in":600}"#,
    ])
    func unusableDeviceAnswersAreRefused(body: String) {
        let thrown = #expect(throws: JOSEError.self) { try DeviceAuthorization(json: Array(body.utf8)) }
        #expect(thrown?.code == .invalidTokenResponse)
    }

    @Test func theIntervalIsFiveSecondsUnlessGiven() throws {
        let body = #"{"device_code":"d","user_code":"ABCD","verification_uri":"https://op.example/device","expires_in":600}"#
        #expect(try DeviceAuthorization(json: Array(body.utf8)).interval == .seconds(5))
    }
}
