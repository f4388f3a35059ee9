import Foundation
import Testing
@testable import JOSE
@testable import JOSEOAuth

/// An OpenID provider answered in the test's own process: an ``HTTPFetcher`` that serves the
/// discovery document, the key set, the token endpoint and the pushed-authorization endpoint of
/// `https://op.example` from memory, with no network and nothing that suspends. Its tokens are
/// signed with one ES256 key and carry the times of ``ThreadProbe/now``.
final class InProcessProvider: HTTPFetcher {
    static let issuer = "https://op.example"
    static let clientID = "app"
    static let redirectURI = "https://app.example/callback"
    /// The API the access tokens are for.
    static let resource = "https://api.example"

    /// The signing key (`kid` `op-1`).
    let key: JWK
    /// The instant the tokens are issued at.
    let now: Double
    /// The nonce DPoP proofs to the token endpoint must carry: a proof without it is answered
    /// `use_dpop_nonce`, a proof with it gets a DPoP token.
    static let dpopNonce = "dpop-nonce-1"
    /// The nonce of the last login the provider answered, for the ID token it issues next.
    private let nonce = Lock<String?>(nil)
    /// The isolations ``fetch(_:)`` was called in (noted from Swift 6.2 on).
    private let callerIsolations = Lock<[(any Actor)?]>([])

    init(now: Double) throws {
        key = try JWK.generate(for: .es256, keyID: "op-1")
        self.now = now
    }

    /// The public key set.
    var keySet: JWKSet { JWKSet(keys: [key.publicKey!]) }

    /// The discovery document.
    var metadata: String {
        #"{"issuer":"\#(Self.issuer)","authorization_endpoint":"\#(Self.issuer)/authorize","#
            + #""token_endpoint":"\#(Self.issuer)/token","pushed_authorization_request_endpoint":"\#(Self.issuer)/par","#
            + #""jwks_uri":"\#(Self.issuer)/jwks.json","id_token_signing_alg_values_supported":["ES256"],"#
            + #""code_challenge_methods_supported":["S256"],"authorization_response_iss_parameter_supported":true}"#
    }

    /// Signs `claims` (JSON text) with the provider's key.
    func sign(_ claims: String, type: String? = "JWT") throws -> String {
        try JWSSigner(key: key, algorithm: .es256).sign(Array(claims.utf8), header: JWSHeaderParameters(type: type))
    }

    /// An ID token for ``clientID`` about `alice`, with `nonce` when given.
    func idToken(nonce: String?) throws -> String {
        let nonceMember = nonce.map { #","nonce":"\#($0)""# } ?? ""
        return try sign(#"{"iss":"\#(Self.issuer)","sub":"alice","aud":"\#(Self.clientID)","#
                        + #""exp":\#(Int(now) + 600),"iat":\#(Int(now))\#(nonceMember)}"#)
    }

    /// An RFC 9068 access token for ``resource`` about `alice`.
    func accessToken() throws -> String {
        try sign(#"{"iss":"\#(Self.issuer)","sub":"alice","aud":"\#(Self.resource)","client_id":"\#(Self.clientID)","#
                 + #""exp":\#(Int(now) + 600),"iat":\#(Int(now)),"jti":"at-1","scope":"orders:read"}"#, type: "at+jwt")
    }

    /// Lets the user in for `transaction`: the callback URL the browser would be sent back to.
    func callbackURL(for transaction: LoginTransaction) throws -> String {
        nonce.withLock { $0 = transaction.nonce }
        var callback = try #require(URLComponents(string: Self.redirectURI))
        callback.queryItems = [
            URLQueryItem(name: "code", value: "code-1"), URLQueryItem(name: "state", value: transaction.state),
            URLQueryItem(name: "iss", value: Self.issuer),
        ]
        return try #require(callback.url?.absoluteString)
    }

    /// The provider's answer to `request`.
    func respond(to request: HTTPFetchRequest) throws -> HTTPFetchResponse {
        let json = ["Content-Type": "application/json"]
        switch (request.method, request.url.absoluteString) {
        case (.get, Self.issuer + "/.well-known/openid-configuration"):
            return HTTPFetchResponse(statusCode: 200, headers: json, body: Array(metadata.utf8))
        case (.get, Self.issuer + "/jwks.json"):
            return HTTPFetchResponse(statusCode: 200, headers: json, body: Array(try keySet.publicJSONString().utf8))
        case (.post, Self.issuer + "/token"):
            let proofClaims = try request.headers["DPoP"].map { proof in
                try JSONDocument(bytes: Base64URL.decode(String(proof.split(separator: ".")[1]))).root
            }
            if let proofClaims, proofClaims["nonce"]?.string != Self.dpopNonce {
                return HTTPFetchResponse(statusCode: 400, headers: json.merging(["DPoP-Nonce": Self.dpopNonce]) { $1 },
                                         body: Array(#"{"error":"use_dpop_nonce"}"#.utf8))
            }
            let refreshing = String(decoding: request.body, as: UTF8.self).contains("grant_type=refresh_token")
            let idToken = try self.idToken(nonce: refreshing ? nil : nonce.withLock { $0 })
            let body = #"{"access_token":"at-1","token_type":"\#(proofClaims == nil ? "Bearer" : "DPoP")","#
                + #""expires_in":600,"refresh_token":"rt-1","id_token":"\#(idToken)"}"#
            return HTTPFetchResponse(statusCode: 200, headers: json, body: Array(body.utf8))
        case (.post, Self.issuer + "/par"):
            let body = #"{"request_uri":"urn:ietf:params:oauth:request_uri:r-1","expires_in":60}"#
            return HTTPFetchResponse(statusCode: 201, headers: json, body: Array(body.utf8))
        default:
            return HTTPFetchResponse(statusCode: 404)
        }
    }

    /// The isolation each fetch was called in, since the last call, which forgets them.
    func takeCallerIsolations() -> [(any Actor)?] {
        callerIsolations.withLock { isolations in
            defer { isolations = [] }
            return isolations
        }
    }

    #if compiler(>=6.2)
    /// Answers at once, on the caller's executor, noting the caller's isolation: it never
    /// suspends, so a caller that keeps its executor through the library runs the whole exchange
    /// without leaving it.
    nonisolated(nonsending) func fetch(_ request: HTTPFetchRequest) async throws -> HTTPFetchResponse {
        let isolation = #isolation
        isolation?.preconditionIsolated("the fetch runs on the executor of the isolation it was handed")
        callerIsolations.withLock { $0.append(isolation) }
        return try respond(to: request)
    }
    #else
    /// Answers at once.
    func fetch(_ request: HTTPFetchRequest) async throws -> HTTPFetchResponse {
        try respond(to: request)
    }
    #endif
}

/// A clock that notes, on every reading, the thread it was read on: given to the verifiers,
/// caches and clients under test, it tells where their work ran.
final class ThreadProbe: Sendable {
    /// What the clock reads.
    let now: Double
    /// The threads of the readings, in order.
    private let readings = Lock<[UInt]>([])

    init(now: Double) { self.now = now }

    /// The calling thread's identity.
    static var currentThread: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    /// The probing clock.
    var clock: JOSEClock {
        JOSEClock(secondsSince1970: { [self] in
            let thread = Self.currentThread
            readings.withLock { $0.append(thread) }
            return now
        })
    }

    /// The threads of the readings since the last call, which forgets them.
    func take() -> [UInt] {
        readings.withLock { readings in
            defer { readings = [] }
            return readings
        }
    }
}
