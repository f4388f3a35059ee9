#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE

extension AuthorizationRequest {
    /// Prepares a pushed authorization request (RFC 9126): the form to POST to the provider's
    /// `pushed_authorization_request_endpoint`, then the short authorize URL naming the
    /// `request_uri` it answers with. ``OpenIDClient/push(_:)`` does both steps.
    ///
    /// - Parameters:
    ///   - metadata: The provider's metadata; it must have a PAR and an authorization endpoint.
    ///   - clock: The time source for the transaction's creation time.
    /// - Returns: The form, the endpoints and the transaction.
    /// - Throws: `JOSEError` `discovery_failed` when an endpoint is missing; `invalid_input`
    ///   when S256 is not supported, and as ``prepare(authorizationEndpoint:issuer:requiresIssuerParameter:clock:)``.
    public func preparePushed(for metadata: OpenIDProviderMetadata, clock: JOSEClock = .system) throws -> PushedAuthorizationRequest {
        try AuthorizationRequest.requireS256(metadata)
        let endpoint = try metadata.requiredEndpoint(\.pushedAuthorizationRequestEndpoint, "pushed_authorization_request_endpoint")
        let authorizationEndpoint = try metadata.requiredEndpoint(\.authorizationEndpoint, "authorization_endpoint")
        let transaction = try makeTransaction(
            issuer: metadata.issuer, requiresIssuerParameter: metadata.authorizationResponseIssParameterSupported, clock: clock)
        return PushedAuthorizationRequest(
            endpoint: endpoint, authorizationEndpoint: authorizationEndpoint,
            form: parameters(for: transaction), transaction: transaction)
    }
}

/// A pushed authorization request (RFC 9126): the form to POST, then the authorize URL for the
/// `request_uri` the provider answers with.
public struct PushedAuthorizationRequest: Sendable {
    /// The provider's `pushed_authorization_request_endpoint`.
    public let endpoint: URL
    /// The provider's `authorization_endpoint`.
    public let authorizationEndpoint: URL
    /// The authorization request's parameters, to POST as a form with the client's
    /// authentication added.
    public let form: [(name: String, value: String)]
    /// The transaction to keep until the callback.
    public let transaction: LoginTransaction

    /// The authorize URL for the `request_uri` the PAR endpoint returned: only `client_id` and
    /// `request_uri`.
    ///
    /// - Parameter requestURI: The `request_uri` from the PAR response.
    /// - Returns: The URL to open and the transaction to keep.
    /// - Throws: `JOSEError` `invalid_input` for an empty `requestURI`.
    public func authorizationURL(requestURI: String) throws -> PreparedAuthorization {
        guard !requestURI.isEmpty else { throw JOSEError.invalidInput("the request_uri is empty") }
        let url = try URIText.queryURL(authorizationEndpoint, name: "the authorization endpoint",
                                  adding: [("client_id", transaction.clientID), ("request_uri", requestURI)],
                                  reserving: AuthorizationRequest.reservedParameters)
        return PreparedAuthorization(url: url, transaction: transaction)
    }
}
