#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An OAuth 2.0 Protected Resource Metadata document (RFC 9728): what a client needs to know
/// to call the resource (which authorization servers issue its tokens, which scopes it knows,
/// whether it wants DPoP), served at ``wellKnownURL(forResource:)`` and named in challenges as
/// `resource_metadata`.
///
/// ```swift
/// var metadata = ProtectedResourceMetadata(resource: URL(string: "https://api.example.com")!)
/// metadata.authorizationServers = ["https://auth.example.com"]
/// metadata.scopesSupported = ["orders:read", "orders:write"]
/// metadata.dpopSigningAlgorithms = [.es256, .ps256]
/// let body = metadata.jsonString      // serve as application/json
/// ```
public struct ProtectedResourceMetadata: Sendable {
    /// `resource`: the resource identifier, an https URL without fragment (required).
    public var resource: URL
    /// `authorization_servers`: issuer identifiers of the authorization servers it trusts
    /// (identifiers, compared as exact strings, not URLs to fetch).
    public var authorizationServers: [String] = []
    /// `jwks_uri`: the resource's own public keys (for signed responses), if any.
    public var jwksURI: URL?
    /// `scopes_supported`: the scopes the resource understands.
    public var scopesSupported: [String] = []
    /// `bearer_methods_supported`: how tokens may be sent (`header`, `body`, `query`);
    /// `header` only by default, the one RFC 6750 method this library reads.
    public var bearerMethodsSupported: [String] = ["header"]
    /// `resource_signing_alg_values_supported`: algorithms the resource signs responses with.
    public var resourceSigningAlgorithms: [JWSAlgorithm] = []
    /// `resource_name`: a human-readable name.
    public var resourceName: String?
    /// `resource_documentation`: a URL of developer documentation.
    public var resourceDocumentation: URL?
    /// `resource_policy_uri`: the data-usage policy.
    public var resourcePolicyURI: URL?
    /// `resource_tos_uri`: the terms of service.
    public var resourceTermsOfServiceURI: URL?
    /// `tls_client_certificate_bound_access_tokens`, when stated.
    public var tlsClientCertificateBoundAccessTokens: Bool?
    /// `dpop_signing_alg_values_supported`: the algorithms the resource accepts for DPoP proofs.
    public var dpopSigningAlgorithms: [JWSAlgorithm] = []
    /// `dpop_bound_access_tokens_required`: whether every token must be DPoP-bound, when stated.
    public var dpopBoundAccessTokensRequired: Bool?

    /// Creates a document for `resource`.
    ///
    /// - Parameter resource: the resource identifier.
    public init(resource: URL) {
        self.resource = resource
    }

    /// The document as JSON text, members in RFC 9728 §2 order, empty lists and unset values
    /// left out; served as `application/json`.
    public var jsonString: String {
        var members: [(String, JSONOutput)] = [("resource", .string(resource.absoluteString))]
        func list(_ name: String, _ values: [String]) {
            if !values.isEmpty { members.append((name, .array(values.map(JSONOutput.string)))) }
        }
        func text(_ name: String, _ value: String?) {
            if let value { members.append((name, .string(value))) }
        }
        list("authorization_servers", authorizationServers)
        text("jwks_uri", jwksURI?.absoluteString)
        list("scopes_supported", scopesSupported)
        list("bearer_methods_supported", bearerMethodsSupported)
        list("resource_signing_alg_values_supported", resourceSigningAlgorithms.map(\.rawValue))
        text("resource_name", resourceName)
        text("resource_documentation", resourceDocumentation?.absoluteString)
        text("resource_policy_uri", resourcePolicyURI?.absoluteString)
        text("resource_tos_uri", resourceTermsOfServiceURI?.absoluteString)
        if let tlsClientCertificateBoundAccessTokens {
            members.append(("tls_client_certificate_bound_access_tokens", .bool(tlsClientCertificateBoundAccessTokens)))
        }
        list("dpop_signing_alg_values_supported", dpopSigningAlgorithms.map(\.rawValue))
        if let dpopBoundAccessTokensRequired {
            members.append(("dpop_bound_access_tokens_required", .bool(dpopBoundAccessTokensRequired)))
        }
        return JSONOutput.object(members).serialized()
    }

    /// Where the metadata of `resource` is served (RFC 9728 §3.1): `/.well-known/oauth-protected-resource`
    /// inserted between the host and the path (`https://api.example.com/v1` →
    /// `https://api.example.com/.well-known/oauth-protected-resource/v1`).
    ///
    /// - Parameter resource: the resource identifier: an https URL (http for loopback hosts
    ///   during development is the caller's choice) without query or fragment.
    /// - Returns: the metadata URL.
    /// - Throws: ``JOSEError`` `invalid_input` when `resource` is not an absolute http(s) URL
    ///   without query and fragment.
    public static func wellKnownURL(forResource resource: URL) throws -> URL {
        let (origin, path) = try wellKnownLocation(forResource: resource)
        guard let url = URL(string: origin + path) else {
            throw JOSEError.invalidInput("the metadata URL of \(JOSEError.quoted(resource.absoluteString)) is not a URL")
        }
        return url
    }

    /// The path, still percent-encoded, at which a server serves the metadata of `resource`
    /// (see ``wellKnownURL(forResource:)``): what the framework adapters route.
    ///
    /// - Throws: ``JOSEError`` `invalid_input` as ``wellKnownURL(forResource:)``.
    package static func wellKnownPath(forResource resource: URL) throws -> String {
        try wellKnownLocation(forResource: resource).path
    }

    /// The resource's origin, and the metadata's path after it.
    private static func wellKnownLocation(forResource resource: URL) throws -> (origin: String, path: String) {
        let text = resource.absoluteString
        guard !text.contains("?"), !text.contains("#") else {
            throw JOSEError.invalidInput("a resource identifier has no query or fragment (RFC 9728 §1.2)")
        }
        _ = try DPoPTargetURI.normalized(text)
        guard let schemeEnd = text.firstRange(of: "://") else {
            throw JOSEError.invalidInput("the resource identifier is not an absolute URL")
        }
        let afterScheme = text[schemeEnd.upperBound...]
        let pathStart = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        var path = String(afterScheme[pathStart...])
        if path == "/" { path = "" }
        return (String(text[..<pathStart]), "/.well-known/oauth-protected-resource" + path)
    }
}
