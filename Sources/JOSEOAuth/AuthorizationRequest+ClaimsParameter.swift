#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE

extension AuthorizationRequest {
    /// What a `claims` request parameter (OpenID Connect Core §5.5) among ``extraParameters``
    /// asks of the ID token's `acr`: when it marks `acr` essential (§5.5.1.1), the `acr` values
    /// it accepts (its `values`, or its `value`; empty when it names none); `nil` when there is
    /// no `claims` parameter or it does not mark `acr` essential for the ID token.
    ///
    /// - Throws: `JOSEError` `invalid_input` when the `claims` parameter is not a JSON object
    ///   of the shape §5.5 gives.
    func essentialACRValues() throws -> [String]? {
        guard let parameter = extraParameters.first(where: { $0.name.lowercased() == "claims" }) else { return nil }
        let request: ClaimsRequest
        do {
            request = try JSONDecoder().decode(ClaimsRequest.self, from: Data(parameter.value.utf8))
        } catch {
            throw JOSEError.invalidInput(
                "the claims parameter is not a JSON object of the form OpenID Connect Core §5.5 gives: \(error)")
        }
        guard let acr = request.idToken?.acr, acr.essential == true else { return nil }
        return acr.values ?? acr.value.map { [$0] } ?? []
    }
}

/// The part of a `claims` request parameter the login checks: the ID token's `acr` entry.
private struct ClaimsRequest: Decodable {
    /// The claims asked of the ID token.
    struct IDTokenClaims: Decodable {
        /// The `acr` entry, `nil` when absent or `null`.
        let acr: ClaimRequest?
    }

    /// One claim's request (§5.5.1).
    struct ClaimRequest: Decodable {
        /// Whether the claim is essential.
        let essential: Bool?
        /// The one value asked for.
        let value: String?
        /// The values asked for, in order of preference.
        let values: [String]?
    }

    /// `id_token`.
    let idToken: IDTokenClaims?

    /// The member names of §5.5.
    enum CodingKeys: String, CodingKey {
        case idToken = "id_token"
    }
}
