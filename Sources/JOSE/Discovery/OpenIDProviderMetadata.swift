#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An authorization server's metadata: the whole OpenID Connect Discovery 1.0 document
/// (`/.well-known/openid-configuration`) or RFC 8414 document
/// (`/.well-known/oauth-authorization-server`), read strictly and trusted only for its issuer.
///
/// ```swift
/// let metadata = try await OpenIDProviderMetadata.discover(
///     issuer: "https://accounts.example.com", fetcher: URLSessionHTTPFetcher())
/// let tokenEndpoint = try metadata.requiredEndpoint(\.tokenEndpoint, "token_endpoint")
/// ```
///
/// Parsing rejects (with ``JOSEError/Code/discoveryFailed``, as for any discovery document that
/// cannot be trusted): a body that is not a JSON object (duplicate member names included), an
/// `issuer` that is missing or differs from the expected issuer in any code unit, an endpoint
/// that is not a string holding an absolute URL allowed by ``TransportPolicy`` (https, or http
/// to a loopback host) or that has a fragment, a list member that is not an array of strings,
/// and a flag that is not a boolean. Members the library does not model stay readable through
/// ``jsonString``. Endpoints are optional here; a flow that needs one asks for it with
/// ``requiredEndpoint(_:_:)``.
public struct OpenIDProviderMetadata: Sendable {
    /// The issuer identifier, equal to the one the document was fetched for.
    public let issuer: String
    /// `authorization_endpoint`.
    public let authorizationEndpoint: URL?
    /// `token_endpoint`.
    public let tokenEndpoint: URL?
    /// `userinfo_endpoint`.
    public let userinfoEndpoint: URL?
    /// `end_session_endpoint` (OpenID Connect RP-Initiated Logout).
    public let endSessionEndpoint: URL?
    /// `pushed_authorization_request_endpoint` (RFC 9126).
    public let pushedAuthorizationRequestEndpoint: URL?
    /// `revocation_endpoint` (RFC 7009).
    public let revocationEndpoint: URL?
    /// `device_authorization_endpoint` (RFC 8628 §4).
    public let deviceAuthorizationEndpoint: URL?
    /// `introspection_endpoint` (RFC 7662).
    public let introspectionEndpoint: URL?
    /// `registration_endpoint` (RFC 7591).
    public let registrationEndpoint: URL?
    /// `jwks_uri`: the provider's signing keys.
    public let jwksURI: URL?
    /// `scopes_supported`.
    public let scopesSupported: [String]?
    /// `response_types_supported`.
    public let responseTypesSupported: [String]?
    /// `response_modes_supported`.
    public let responseModesSupported: [String]?
    /// `grant_types_supported`.
    public let grantTypesSupported: [String]?
    /// `subject_types_supported`.
    public let subjectTypesSupported: [String]?
    /// `acr_values_supported`.
    public let acrValuesSupported: [String]?
    /// `claims_supported`.
    public let claimsSupported: [String]?
    /// `ui_locales_supported`.
    public let uiLocalesSupported: [String]?
    /// `token_endpoint_auth_methods_supported`.
    public let tokenEndpointAuthMethodsSupported: [String]?
    /// `code_challenge_methods_supported` (RFC 8414).
    public let codeChallengeMethodsSupported: [String]?
    /// `id_token_signing_alg_values_supported`, as the document lists them.
    public let idTokenSigningAlgValuesSupported: [String]?
    /// `authorization_response_iss_parameter_supported` (RFC 9207): whether authorization
    /// responses carry `iss`; `false` when absent.
    public let authorizationResponseIssParameterSupported: Bool
    /// `require_pushed_authorization_requests` (RFC 9126); `false` when absent.
    public let requirePushedAuthorizationRequests: Bool
    /// `backchannel_logout_supported` (OpenID Connect Back-Channel Logout 1.0); `false` when
    /// absent.
    public let backchannelLogoutSupported: Bool
    /// The whole document, parsed.
    package let json: JSONValue

    /// The whole document as received, for members not modelled here (decode it with your own
    /// `Decodable` type).
    public var jsonString: String { json.description }

    /// The ID-token algorithms to allow: ``idTokenSigningAlgValuesSupported`` without `none` and
    /// without names the library does not know; `nil` when the document lists none of those
    /// (then the keys decide, never allowing `none`).
    public var idTokenSigningAlgorithms: Set<JWSAlgorithm>? {
        let known = Set((idTokenSigningAlgValuesSupported ?? []).compactMap(JWSAlgorithm.init(rawValue:)))
        return known.isEmpty ? nil : known
    }

    /// Whether the provider accepts S256 PKCE challenges: listed in
    /// ``codeChallengeMethodsSupported``, or that member absent (many providers support PKCE
    /// without saying so).
    public var supportsS256CodeChallenge: Bool {
        codeChallengeMethodsSupported.map { $0.contains("S256") } ?? true
    }

    /// Reads a metadata document and checks that it belongs to `expectedIssuer`.
    ///
    /// - Parameters:
    ///   - body: The document, a JSON object, read strictly.
    ///   - expectedIssuer: The issuer the document must name, compared exactly (no case
    ///     folding, no trailing-slash or Unicode normalisation).
    /// - Throws: `JOSEError` with code ``JOSEError/Code/discoveryFailed`` naming the first
    ///   member that is missing, of the wrong type, or not an allowed URL.
    public init(document body: [UInt8], expectedIssuer: String) throws {
        let limits = JSONLimits(maxBytes: Swift.max(JSONLimits.default.maxBytes, body.count))
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes: body, limits: limits)
        } catch let error as JOSEError {
            throw JOSEError(.discoveryFailed,
                            "the discovery document for \(JOSEError.quoted(expectedIssuer)) is not valid JSON: \(error.message)")
        }
        let root = document.root
        guard root.kind == .object else {
            throw JOSEError(.discoveryFailed,
                            "the discovery document for \(JOSEError.quoted(expectedIssuer)) is not a JSON object")
        }
        guard let issuer = root["issuer"]?.string else {
            throw JOSEError(.discoveryFailed,
                            "the discovery document for \(JOSEError.quoted(expectedIssuer)) has no string \"issuer\"")
        }
        guard issuer.utf8.elementsEqual(expectedIssuer.utf8) else {
            throw JOSEError(.discoveryFailed,
                            "the discovery document names issuer \(JOSEError.quoted(issuer)), expected \(JOSEError.quoted(expectedIssuer))")
        }
        let reader = MetadataReader(root: root)
        self.issuer = issuer
        authorizationEndpoint = try reader.url("authorization_endpoint")
        tokenEndpoint = try reader.url("token_endpoint")
        userinfoEndpoint = try reader.url("userinfo_endpoint")
        endSessionEndpoint = try reader.url("end_session_endpoint")
        pushedAuthorizationRequestEndpoint = try reader.url("pushed_authorization_request_endpoint")
        revocationEndpoint = try reader.url("revocation_endpoint")
        deviceAuthorizationEndpoint = try reader.url("device_authorization_endpoint")
        introspectionEndpoint = try reader.url("introspection_endpoint")
        registrationEndpoint = try reader.url("registration_endpoint")
        jwksURI = try reader.url("jwks_uri")
        scopesSupported = try reader.strings("scopes_supported")
        responseTypesSupported = try reader.strings("response_types_supported")
        responseModesSupported = try reader.strings("response_modes_supported")
        grantTypesSupported = try reader.strings("grant_types_supported")
        subjectTypesSupported = try reader.strings("subject_types_supported")
        acrValuesSupported = try reader.strings("acr_values_supported")
        claimsSupported = try reader.strings("claims_supported")
        uiLocalesSupported = try reader.strings("ui_locales_supported")
        tokenEndpointAuthMethodsSupported = try reader.strings("token_endpoint_auth_methods_supported")
        codeChallengeMethodsSupported = try reader.strings("code_challenge_methods_supported")
        idTokenSigningAlgValuesSupported = try reader.strings("id_token_signing_alg_values_supported")
        authorizationResponseIssParameterSupported = try reader.flag("authorization_response_iss_parameter_supported")
        requirePushedAuthorizationRequests = try reader.flag("require_pushed_authorization_requests")
        backchannelLogoutSupported = try reader.flag("backchannel_logout_supported")
        json = root
    }

    /// An endpoint the flow cannot do without.
    ///
    /// - Parameters:
    ///   - endpoint: The property, for example `\.tokenEndpoint`.
    ///   - name: The member's name, for the message, for example `token_endpoint`.
    /// - Returns: The endpoint.
    /// - Throws: `JOSEError` with code ``JOSEError/Code/discoveryFailed`` when the document has
    ///   no such member.
    public func requiredEndpoint(_ endpoint: KeyPath<OpenIDProviderMetadata, URL?>, _ name: String) throws -> URL {
        guard let url = self[keyPath: endpoint] else {
            throw JOSEError(.discoveryFailed, "the discovery document for \(JOSEError.quoted(issuer)) has no \"\(name)\"")
        }
        return url
    }
}

/// Reads typed members of a metadata document, failing on a wrong type.
private struct MetadataReader {
    let root: JSONValue

    /// An endpoint member: absent, or an absolute URL without fragment that the transport
    /// policy allows.
    func url(_ name: String) throws -> URL? {
        guard let value = root[name] else { return nil }
        guard let text = value.string else {
            throw JOSEError(.discoveryFailed, "the discovery document's \"\(name)\" is not a string")
        }
        guard let url = URIText.absoluteURL(text), TransportPolicy.hostName(of: url) != nil else {
            throw JOSEError(.discoveryFailed, "\"\(name)\" \(JOSEError.quoted(text)) is not an absolute URL with a host")
        }
        guard TransportPolicy.isAllowed(url) else {
            throw JOSEError(.discoveryFailed,
                            "\"\(name)\" \(JOSEError.quoted(text)) is not https (plain http is allowed only for loopback hosts)")
        }
        guard url.fragment == nil, !text.contains("#") else {
            throw JOSEError(.discoveryFailed, "\"\(name)\" \(JOSEError.quoted(text)) has a fragment")
        }
        return url
    }

    /// A list member: absent, or an array of strings.
    func strings(_ name: String) throws -> [String]? {
        guard let value = root[name] else { return nil }
        guard let elements = value.elements else {
            throw JOSEError(.discoveryFailed, "the discovery document's \"\(name)\" is not an array")
        }
        return try elements.map { element in
            guard let text = element.string else {
                throw JOSEError(.discoveryFailed, "the discovery document's \"\(name)\" holds a value that is not a string")
            }
            return text
        }
    }

    /// A flag member: absent (`false`), or a boolean.
    func flag(_ name: String) throws -> Bool {
        guard let value = root[name] else { return false }
        guard let flag = value.bool else {
            throw JOSEError(.discoveryFailed, "the discovery document's \"\(name)\" is not a boolean")
        }
        return flag
    }
}
