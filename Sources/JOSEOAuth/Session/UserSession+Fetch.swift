#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE

extension UserSession {
    /// Sends `request` to a resource server with the session's access token, through `fetcher`.
    ///
    /// ```swift
    /// let orders = try await session.fetch(HTTPFetchRequest(url: ordersURL), using: URLSessionHTTPFetcher())
    /// ```
    ///
    /// The token is one ``accessToken(minimumValidity:)`` gives (refreshed first when it expires
    /// within 60 seconds). It goes out as `Authorization: Bearer …`, or for a DPoP-bound session as
    /// `Authorization: DPoP …` with a fresh `DPoP` proof for the request's method and URL,
    /// carrying `ath` and the last nonce the server's origin gave (RFC 9449 §7, §9).
    ///
    /// Two `401` answers are handled, each at most once per call:
    /// - `WWW-Authenticate: … error="invalid_token"`: the token was refused (revoked, expired
    ///   early). The session is refreshed (``refresh(replacing:)``, shared with concurrent
    ///   callers, skipped when another caller has refreshed already) and the request is sent
    ///   again with the new token.
    /// - `WWW-Authenticate: DPoP error="use_dpop_nonce"` with a `DPoP-Nonce` header, for a
    ///   DPoP-bound session: the request is sent again with a proof carrying that nonce.
    ///
    /// A request is sent again only when it has no body, or when `bodyIsReplayable` says its
    /// body may be sent twice. Otherwise the `401` is returned as it came; the session has
    /// been refreshed (or the nonce remembered) all the same, so that the caller's own retry
    /// succeeds. Any other answer, and a second `401` of either kind, is returned as it came. A
    /// valid `DPoP-Nonce` on any answer is remembered for the origin's next request.
    ///
    /// - Parameters:
    ///   - request: The request, without `Authorization` or `DPoP` headers: the session adds them.
    ///   - fetcher: The HTTP client.
    ///   - bodyIsReplayable: Whether a request with a body may be sent a second time; `false`
    ///     unless given.
    /// - Returns: The server's final answer.
    /// - Throws: `JOSEError` `invalid_input` for a request that carries `Authorization` or
    ///   `DPoP` already, or whose URL a DPoP proof cannot name; `transport_failed` when the
    ///   server cannot be reached; as ``accessToken(minimumValidity:)`` and
    ///   ``refresh(replacing:)`` (`login_required` when the session has ended).
    public nonisolated func fetch(
        _ request: HTTPFetchRequest, using fetcher: any HTTPFetcher, bodyIsReplayable: Bool = false
    ) async throws -> HTTPFetchResponse {
        if let taken = request.headers.keys.first(where: { ["authorization", "dpop"].contains($0.lowercased()) }) {
            throw JOSEError.invalidInput("the request carries \(JOSEError.quoted(taken)) already; the session adds it")
        }
        let mayReplay = request.body.isEmpty || bodyIsReplayable
        var token = try await accessToken()
        var refreshed = false
        var nonceGiven = false
        while true {
            let origin = try token.proofSigner.map { _ in try Self.origin(of: request.url) }
            var authorized = request
            for (name, value) in try token.headers(method: request.method.rawValue, url: request.url,
                                                   nonce: origin.flatMap(resourceNonces.nonce(for:))) {
                authorized.headers[name] = value
            }
            let response = try await OpenIDClient.send(authorized, using: fetcher)
            let fields = response.headers.map { (name: $0.key, value: $0.value) }
            if let origin, let nonce = response.header("DPoP-Nonce"), DPoPNonceRetry.isNonce(nonce) {
                resourceNonces.remember(nonce, for: origin)
            }
            guard response.statusCode == 401 else { return response }
            if origin != nil, DPoPNonceRetry.nonce(status: 401, headers: fields) != nil {
                guard mayReplay, !nonceGiven else { return response }
                nonceGiven = true
                continue
            }
            guard !refreshed, Self.refusesToken(fields) else { return response }
            token = try await refresh(replacing: token.value)
            refreshed = true
            guard mayReplay else { return response }
        }
    }

    /// Whether a `401`'s `WWW-Authenticate` says the token itself was refused: `error="invalid_token"`
    /// in a `Bearer` or `DPoP` challenge (RFC 6750 §3.1, RFC 9449 §7.1).
    private static func refusesToken(_ fields: [(name: String, value: String)]) -> Bool {
        fields.contains { field in
            field.name == "www-authenticate" && ["Bearer", "DPoP"].contains { scheme in
                AuthenticationChallenges.carriesChallengeError("invalid_token", scheme: scheme, in: field.value)
            }
        }
    }

    /// The origin of `url` (`scheme://host[:port]`, normalised as DPoP's `htu`): the key its
    /// server's nonce is remembered under.
    private static func origin(of url: URL) throws -> String {
        // "https:", "", "host:port", "path"
        let parts = try DPoPTargetURI.normalized(url.absoluteString).split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        return parts[0] + "//" + parts[2]
    }
}
