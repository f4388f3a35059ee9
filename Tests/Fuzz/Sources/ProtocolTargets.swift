import JOSE
import JOSEOAuth

extension FuzzTarget {
    /// Form encoding (RFC 6749 Appendix B, as the login flow reads callbacks and writes requests):
    /// what `decode` accepts must encode to text that decodes to the same parameters.
    static let formURLEncoded = FuzzTarget(name: "form-urlencoded") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        guard let parameters = allowingJOSEError("FormURLEncoding.decode", { try FormURLEncoding.decode(text) }) else { return }
        let encoded = FormURLEncoding.encode(parameters)
        guard let again = allowingJOSEError("decode(encode)", { try FormURLEncoding.decode(encoded) }) else {
            fuzzFailure("decode rejects encode's output \(encoded.debugDescription)")
        }
        if !again.elementsEqual(parameters, by: { $0.name == $1.name && $0.value == $1.value }) {
            fuzzFailure("decode(encode(p)) differs from p for \(text.debugDescription)")
        }
    }

    /// Authorization callbacks, as a redirect URL and as a `form_post` body, checked against one
    /// fixed transaction: any outcome but a crash or a non-JOSEError is fine, and an accepted
    /// callback must carry the transaction's state.
    static let oauthCallback = FuzzTarget(name: "oauth-callback") { bytes in
        let transaction = Fixtures.loginTransaction
        let url = String(decoding: bytes, as: UTF8.self)
        if allowingJOSEError("AuthorizationResponse(callbackURL:)", {
            try AuthorizationResponse(callbackURL: url, transaction: transaction)
        }) != nil, !url.contains(transaction.state) {
            fuzzFailure("a callback without the transaction's state was accepted: \(url.debugDescription)")
        }
        _ = allowingJOSEError("AuthorizationResponse(formPostBody:)", {
            try AuthorizationResponse(formPostBody: bytes, receivedAt: transaction.redirectURI, transaction: transaction)
        })
    }

    /// Documents from the provider: a token response and a discovery document.
    static let oauthDocuments = FuzzTarget(name: "oauth-documents") { bytes in
        _ = allowingJOSEError("TokenResponse(json:)", { try TokenResponse(json: bytes) })
        _ = allowingJOSEError("OpenIDProviderMetadata(document:)", {
            try OpenIDProviderMetadata(document: bytes, expectedIssuer: "https://issuer.example")
        })
    }

    /// What an API server reads from a request: the `Authorization` header and, for DPoP, the
    /// request URL normalised as `htu`. A normalised URL must be a fixed point.
    static let resourceHeaders = FuzzTarget(name: "resource-headers") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        _ = allowingJOSEError("AuthorizationCredentials.parse", { try AuthorizationCredentials.parse(text) })
        if let normalized = allowingJOSEError("DPoPTargetURI.normalized", { try DPoPTargetURI.normalized(text) }) {
            guard let again = allowingJOSEError("normalized twice", { try DPoPTargetURI.normalized(normalized) }),
                  again == normalized else {
                fuzzFailure("htu normalisation is not a fixed point for \(text.debugDescription)")
            }
        }
    }
}
