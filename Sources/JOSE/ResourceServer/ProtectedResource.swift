#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One call per request for an API: reads the `Authorization` (and `DPoP`) headers, validates
/// the access token (``AccessTokenValidator``), checks the DPoP proof and the token's binding
/// to it (``DPoPProofVerifier``), then the scopes and user authentication the route requires;
/// and makes the challenge for any failure.
///
/// A token bound to a key (`cnf.jkt`) is accepted only with the `DPoP` scheme and a valid proof
/// for that key (RFC 9449 §7.2: a bound token sent as `Bearer` is refused), and when DPoP is
/// ``DPoPMode/required(_:)`` bearer tokens are refused altogether. A token bound any other way (an mTLS
/// client certificate, `cnf.x5t#S256`) is refused: that binding cannot be checked here.
///
/// With ``Introspection/opaqueTokens(_:)``, opaque access tokens are checked at the authorization server's
/// introspection endpoint (RFC 7662), then go through the same audience (the ``validator``'s:
/// the answer's `aud` must be present and contain it), binding, scope and authentication
/// checks. A JWT-shaped token (three dot-separated parts) is validated by its
/// signature and never sent to introspection; ``Introspection/allTokens(_:)`` sends it too.
///
/// ```swift
/// let api = ProtectedResource(validator: validator, dpop: .accepted(try DPoPProofVerifier()),
///                             resourceMetadata: try ProtectedResourceMetadata.wellKnownURL(forResource: metadata.resource))
/// do {
///     let access = try await api.authenticate(ProtectedResourceRequest(
///         method: "GET", url: url, authorization: authorizationHeaders, dpop: dpopHeaders),
///         scope: .allOf(["orders:read"]))
///     // access.token.subject, access.token.scopes, access.proof?.keyThumbprint
/// } catch let error as JOSEError {
///     let challenge = api.challenge(for: error, request: request, scope: .allOf(["orders:read"]))
///     // answer challenge.status with challenge.headers
/// }
/// ```
public struct ProtectedResource: Sendable {
    /// Which proof of possession a resource accepts (RFC 9449).
    public enum DPoPMode: Sendable {
        /// Bearer tokens only: a DPoP request counts as one without credentials.
        case off
        /// Bearer tokens, and DPoP requests whose proofs the verifier checks.
        case accepted(DPoPProofVerifier)
        /// DPoP requests only: bearer tokens are refused.
        case required(DPoPProofVerifier)
    }

    /// Which access tokens go to the authorization server's introspection endpoint (RFC 7662).
    public enum Introspection: Sendable {
        /// None: every token must be a JWT the ``ProtectedResource/validator`` accepts.
        case off
        /// Opaque tokens; JWT-shaped tokens are validated by their signature.
        case opaqueTokens(TokenIntrospector)
        /// Every token, JWT-shaped ones too.
        case allTokens(TokenIntrospector)
    }

    /// Validates the access tokens.
    public let validator: AccessTokenValidator
    /// Which proof of possession the resource accepts.
    public let dpop: DPoPMode
    /// Which tokens are checked by introspection.
    public let introspection: Introspection
    /// The URL of the resource's RFC 9728 metadata, named in every challenge.
    public let resourceMetadata: URL?
    /// The protection space named in challenges, if any.
    public let realm: String?

    /// Creates a resource guard.
    ///
    /// - Parameters:
    ///   - validator: the access-token validator (issuer, audience, keys).
    ///   - dpop: whether DPoP proofs are off, accepted or required, and their verifier.
    ///   - resourceMetadata: the RFC 9728 metadata URL for challenges.
    ///   - realm: the `realm` for challenges.
    ///   - introspection: which tokens are checked by introspection, and the introspector.
    public init(
        validator: AccessTokenValidator, dpop: DPoPMode = .off, resourceMetadata: URL? = nil, realm: String? = nil,
        introspection: Introspection = .off
    ) {
        self.validator = validator
        self.dpop = dpop
        self.introspection = introspection
        self.resourceMetadata = resourceMetadata
        self.realm = realm
    }

    /// The schemes this resource accepts.
    public var schemes: [AuthorizationCredentials.Scheme] {
        switch dpop {
        case .off: [.bearer]
        case .accepted: [.bearer, .dpop]
        case .required: [.dpop]
        }
    }

    /// The DPoP proof verifier, when DPoP is accepted.
    private var dpopVerifier: DPoPProofVerifier? {
        switch dpop {
        case .off: nil
        case .accepted(let verifier), .required(let verifier): verifier
        }
    }

    /// The introspector that checks `token`, or `nil` when its signature decides.
    private func introspector(for token: String) -> TokenIntrospector? {
        switch introspection {
        case .off: nil
        case .opaqueTokens(let introspector): Self.isJWTShaped(token) ? nil : introspector
        case .allTokens(let introspector): introspector
        }
    }

    /// Authenticates one request.
    ///
    /// - Parameters:
    ///   - request: the request's method, URL and credential headers.
    ///   - scope: the scopes the route requires, if any.
    ///   - authentication: the user authentication the route requires, if any.
    ///   - dpopNonce: the nonce DPoP proofs must carry now, when the server issues nonces.
    /// - Returns: the verified token, and the proof when the DPoP scheme was used.
    /// - Throws: ``JOSEError``: `missing_credentials` (also for a scheme the resource does not
    ///   accept, e.g. DPoP at a bearer-only resource), `invalid_request`, the token's errors,
    ///   `invalid_token_binding`, `invalid_dpop_proof`, `use_dpop_nonce`, then
    ///   `insufficient_scope` or `insufficient_user_authentication`. Pass it to
    ///   ``challenge(for:request:scope:authentication:dpopNonce:)``.
    public func authenticate(
        _ request: ProtectedResourceRequest, scope: ScopeRequirement? = nil,
        authentication: AuthenticationRequirement? = nil, dpopNonce: String? = nil
    ) async throws -> AuthenticatedAccess {
        guard let credentials = try AuthorizationCredentials.parse(request.authorization) else {
            throw JOSEError(.missingCredentials, "the request has no Bearer or DPoP credentials")
        }
        guard schemes.contains(credentials.scheme) else {
            if credentials.scheme == .bearer {
                throw JOSEError(.invalidTokenBinding, "this resource requires DPoP; it does not accept bearer tokens")
            }
            // A scheme the resource does not support counts as no credentials (RFC 6750 §3.1):
            // the answer is a plain challenge naming the schemes it does accept.
            throw JOSEError(.missingCredentials, "the request has no Bearer credentials (this resource does not accept DPoP)")
        }
        let token: VerifiedAccessToken
        if let introspector = introspector(for: credentials.token) {
            token = try await introspector.introspect(credentials.token)
            try TokenIntrospector.checkAudience(of: token.claims, is: validator.audience)
        } else {
            token = try await validator.validate(credentials.token)
        }
        let boundKey = try token.claims.confirmationKeyThumbprint()
        var proof: VerifiedDPoPProof?
        switch credentials.scheme {
        case .bearer:
            if boundKey != nil {
                throw JOSEError(.invalidTokenBinding, "the access token is DPoP-bound but came as a bearer token")
            }
        case .dpop:
            guard let dpopVerifier else { throw JOSEError(.missingCredentials, "this resource does not accept DPoP") }
            guard request.dpop.count == 1, let header = request.dpop.first else {
                throw JOSEError(.invalidDPoPProof, "a DPoP request needs exactly one DPoP header; it has \(request.dpop.count)")
            }
            guard let boundKey else {
                throw JOSEError(.invalidTokenBinding, "the access token is not DPoP-bound (it has no cnf.jkt)")
            }
            proof = try await dpopVerifier.verify(header, for: DPoPRequest(
                method: request.method, url: request.url, accessToken: credentials.token, expectedNonce: dpopNonce,
                boundKeyThumbprint: boundKey))
        }
        try validator.checkRequirements(of: token, scope: scope, authentication: authentication)
        return AuthenticatedAccess(token: token, proof: proof)
    }

    /// Whether `token` has the shape of a JWS compact serialization: three parts, two dots.
    private static func isJWTShaped(_ token: String) -> Bool {
        token.utf8.count(where: { $0 == UInt8(ascii: ".") }) == 2
    }

    /// The answer to a request ``authenticate(_:scope:authentication:dpopNonce:)`` refused.
    ///
    /// - Parameters:
    ///   - error: the error it threw.
    ///   - request: the request (its scheme decides which challenge carries the error).
    ///   - scope: the scopes the route requires (for `insufficient_scope`).
    ///   - authentication: the route's step-up requirement.
    ///   - dpopNonce: the nonce the client must use next, when the server issues nonces.
    /// - Returns: the status and headers to answer with.
    public func challenge(
        for error: JOSEError, request: ProtectedResourceRequest, scope: ScopeRequirement? = nil,
        authentication: AuthenticationRequirement? = nil, dpopNonce: String? = nil
    ) -> ResourceChallenge {
        let scheme = (try? AuthorizationCredentials.parse(request.authorization))?.map(\.scheme)
        return ResourceChallenge(
            error, scheme: scheme.flatMap { schemes.contains($0) ? $0 : nil }, schemes: schemes, scope: scope,
            authentication: authentication, dpopNonce: dpopNonce,
            dpopAlgorithms: dpopVerifier.map { $0.algorithms.sorted() } ?? [], resourceMetadata: resourceMetadata, realm: realm)
    }
}
