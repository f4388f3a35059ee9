import Foundation
import JOSE
import JOSEOAuth
import JOSEURLSession

/// A stored login (`jose login --profile NAME`): the session, and in its attributes what
/// refreshing it needs: the metadata of a login given by hand (`--iss` and the endpoints; after
/// `jose login --issuer` there is none and the issuer is discovered again), the
/// client-authentication flags (a secret *file* path or a private-key path, never a secret), and
/// the DPoP key of a bound session.
struct Profile {
    /// The attribute names of a profile.
    enum Attribute {
        /// The provider metadata given by hand, as JSON text; absent when the issuer is discovered.
        static let metadata = "provider_metadata"
        /// The client-authentication flags, as a JSON array of strings.
        static let clientAuthentication = "client_authentication"
        /// The DPoP private key, as a JWK.
        static let dpopKey = "dpop_key"
        /// The subject UserInfo named, for a login that brought no ID token.
        static let userInfoSubject = "userinfo_sub"
    }

    /// The profile's name.
    let name: String
    /// Its file.
    let store: FileSessionStore
    /// The stored session.
    let session: StoredSession

    /// Reads profile `name`.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when there is no such profile or its file is unusable.
    static func load(_ name: String) async throws -> Profile {
        let store = try ProfileLocation.store(named: name)
        let stored: StoredSession?
        do {
            stored = try await store.load()
        } catch let error as JOSEError {
            throw CLIFailure(error, context: "cannot read profile '\(name)'")
        }
        guard let stored else {
            throw CLIFailure.usage("there is no profile '\(name)' (\(store.path))",
                                   hint: "log in first: jose login --issuer URL --client-id ID --profile \(name)")
        }
        return Profile(name: name, store: store, session: stored)
    }

    /// The attributes a login stores with its session.
    ///
    /// - Parameters:
    ///   - metadata: The metadata document given by hand; `nil` when discovered.
    ///   - authentication: The client-authentication flags as given.
    ///   - dpopKey: The DPoP private key, for a bound session.
    static func attributes(metadata: String?, authentication: ClientAuthenticationOptions, dpopKey: JWK?) throws -> [String: String] {
        var attributes: [String: String] = [:]
        if let metadata { attributes[Attribute.metadata] = metadata }
        let flags = authentication.storableFlags
        if !flags.isEmpty {
            attributes[Attribute.clientAuthentication] = JSONOutput.array(flags.map { .string($0) }).serialized()
        }
        if let dpopKey { attributes[Attribute.dpopKey] = try dpopKey.jsonString(includingPrivateMembers: true) }
        return attributes
    }

    /// A client for this profile's provider: the stored metadata, or the issuer discovered; the
    /// stored client authentication (or `JOSE_CLIENT_SECRET`); the stored DPoP key.
    ///
    /// - Parameter timeout: The limit on each request to the provider.
    /// - Throws: ``CLIFailure`` (exit 2) for unusable stored settings; `JOSEError` for discovery.
    func makeClient(timeout: Duration) async throws -> (client: OpenIDClient, keys: JWKSCache) {
        let fetcher = URLSessionHTTPFetcher()
        let metadata: OpenIDProviderMetadata
        if let document = session.attributes[Attribute.metadata] {
            metadata = try withContext("profile '\(name)' holds unusable provider metadata") {
                try OpenIDProviderMetadata(document: Array(document.utf8), expectedIssuer: session.issuer)
            }
        } else {
            metadata = try await OpenIDProviderMetadata.discover(issuer: session.issuer, fetcher: fetcher, timeout: timeout)
        }
        var (client, keys) = try ProviderConnection.client(
            metadata: metadata, clientID: session.clientID, authentication: try authentication(),
            fetcher: fetcher, timeout: timeout)
        client.dpop = try dpopSigner()
        return (client, keys)
    }

    /// The DPoP key of a bound session; `nil` for a Bearer session.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when the stored key is unusable.
    func dpopSigner() throws -> DPoPProofSigner? {
        try session.attributes[Attribute.dpopKey].map { key in
            try withContext("profile '\(name)' holds an unusable DPoP key") { try DPoPProofSigner(key: try JWK(json: key)) }
        }
    }

    /// The stored client authentication, parsed as the flags were at login.
    private func authentication() throws -> ClientAuthentication {
        guard let text = session.attributes[Attribute.clientAuthentication] else {
            return try ClientAuthenticationOptions.parse([]).makeAuthentication()
        }
        guard let flags = try? JSONDecoder().decode([String].self, from: Data(text.utf8)),
              let options = try? ClientAuthenticationOptions.parse(flags) else {
            throw CLIFailure.input("profile '\(name)' holds unusable client-authentication settings; log in again")
        }
        return try options.makeAuthentication()
    }

    /// The subject: the ID token's, else the one UserInfo named.
    var subject: String? { session.subject ?? session.attributes[Attribute.userInfoSubject] }
}
