/// The client's side of server-provided DPoP nonces (RFC 9449 §8, §9): whether a failed
/// response asks for a nonce, and which one to put in the next proof.
///
/// ```swift
/// if let nonce = DPoPNonceRetry.nonce(status: response.status, headers: response.headerPairs) {
///     let retryProof = try signer.proof(method: "GET", url: url, accessToken: token, nonce: nonce)
///     // send the request once more with retryProof
/// }
/// ```
public enum DPoPNonceRetry {
    /// The longest nonce accepted from a server, in bytes.
    public static let maximumNonceBytes = 1024

    /// The nonce to retry with, when the response asks for one; `nil` otherwise.
    ///
    /// A resource server asks with `401` and `WWW-Authenticate: DPoP error="use_dpop_nonce"`; an
    /// authorization server with `400` and `{"error":"use_dpop_nonce"}` in the body (pass that
    /// error as `errorCode` to make the check exact). Either way the nonce is the response's
    /// one `DPoP-Nonce` header, which must be 1 to ``maximumNonceBytes`` visible ASCII
    /// characters other than `"` and `\` (RFC 9449 §8.1). Several `DPoP-Nonce` headers, or
    /// one that breaks that syntax, give `nil`: retrying would not help.
    ///
    /// - Parameters:
    ///   - status: the HTTP status code.
    ///   - headers: the response's header fields as (name, value) pairs; names match in any case.
    ///   - errorCode: the `error` member of a 400 response's JSON body, when the caller read it.
    /// - Returns: the nonce for the next proof, or `nil`.
    public static func nonce(status: Int, headers: [(name: String, value: String)], errorCode: String? = nil) -> String? {
        let nonces = headers.filter { $0.name.lowercased() == "dpop-nonce" }.map(\.value)
        guard nonces.count == 1, let nonce = nonces.first, isNonce(nonce) else { return nil }
        let challenged = headers.contains { field in
            field.name.lowercased() == "www-authenticate"
                && AuthenticationChallenges.carriesChallengeError("use_dpop_nonce", scheme: "DPoP", in: field.value)
        }
        switch status {
        case 401: return challenged ? nonce : nil
        case 400: return challenged || errorCode == nil || errorCode == "use_dpop_nonce" ? nonce : nil
        default: return nil
        }
    }

    /// RFC 9449 §8.1: `nonce = 1*NQCHAR` (`%x21 / %x23-5B / %x5D-7E`), here with a length cap.
    package static func isNonce(_ text: String) -> Bool {
        (1...maximumNonceBytes).contains(text.utf8.count) && text.utf8.allSatisfy {
            $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0)
        }
    }
}
