#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE

/// How a client authenticates to the token (and PAR) endpoint.
///
/// ```swift
/// let signer = try JWSSigner(key: clientPrivateKey, algorithm: .es256)
/// let authentication = try ClientAuthentication.privateKeyJWT(signer)
/// ```
///
/// - `none`: a public client (a native or browser app); only `client_id` is sent, PKCE binds
///   the code to the app.
/// - `client_secret_basic`: HTTP Basic with the client id and secret, each form-encoded before
///   base64 as RFC 6749 §2.3.1 requires.
/// - `client_secret_post`: `client_id` and `client_secret` in the form.
/// - `private_key_jwt` (RFC 7523, OpenID Connect Core §9): a fresh JWT signed with the client's
///   key, with `iss` = `sub` = client id, `aud` = the endpoint (or the issuer), a random `jti`,
///   `iat` and an `exp` at most 60 seconds later.
public struct ClientAuthentication: Sendable {
    /// What a `private_key_jwt` assertion names as its audience.
    public struct AssertionAudience: Sendable, Hashable {
        let usesIssuer: Bool
        /// The endpoint the assertion is sent to (the token endpoint for a token request).
        public static let endpoint = AssertionAudience(usesIssuer: false)
        /// The provider's issuer identifier, which many providers accept too.
        public static let issuer = AssertionAudience(usesIssuer: true)
    }

    private enum Method: Sendable {
        case none
        case secretBasic(String)
        case secretPost(String)
        case privateKeyJWT(JWSSigner, AssertionAudience, lifetime: Int64)
    }

    private let method: Method

    /// The longest lifetime of a `private_key_jwt` assertion.
    public static let maximumAssertionLifetime = Duration.seconds(60)

    /// A public client: no secret, `client_id` in the form.
    public static let none = ClientAuthentication(method: .none)

    /// HTTP Basic authentication with a client secret.
    ///
    /// - Parameter secret: The client secret.
    /// - Returns: The authentication.
    public static func clientSecretBasic(_ secret: String) -> ClientAuthentication {
        ClientAuthentication(method: .secretBasic(secret))
    }

    /// The client secret in the form body.
    ///
    /// - Parameter secret: The client secret.
    /// - Returns: The authentication.
    public static func clientSecretPost(_ secret: String) -> ClientAuthentication {
        ClientAuthentication(method: .secretPost(secret))
    }

    /// A JWT assertion signed with the client's private key: a `JWK` in memory, or a
    /// `JWSSigningKey` that never leaves its device (`JWSSigner(signingKey:keyID:)`).
    ///
    /// - Parameters:
    ///   - signer: The client's signer (its public key registered with the provider).
    ///   - audience: The assertion's `aud`; the endpoint unless given.
    ///   - lifetime: From `iat` to `exp`, whole seconds up to ``maximumAssertionLifetime``;
    ///     that maximum unless given.
    /// - Returns: The authentication.
    /// - Throws: `JOSEError` `invalid_input` for a lifetime that is not whole seconds in 1...60.
    public static func privateKeyJWT(
        _ signer: JWSSigner, audience: AssertionAudience = .endpoint, lifetime: Duration = maximumAssertionLifetime
    ) throws -> ClientAuthentication {
        let maximum = maximumAssertionLifetime.components.seconds
        guard let seconds = lifetime.wholeSeconds, (1...maximum).contains(seconds) else {
            throw JOSEError.invalidInput("a client assertion lives whole seconds in 1...\(maximum), got \(lifetime)")
        }
        return ClientAuthentication(method: .privateKeyJWT(signer, audience, lifetime: seconds))
    }

    /// The method's registered name, for example `client_secret_basic`.
    public var methodName: String {
        switch method {
        case .none: "none"
        case .secretBasic: "client_secret_basic"
        case .secretPost: "client_secret_post"
        case .privateKeyJWT: "private_key_jwt"
        }
    }

    /// The signer of `private_key_jwt`; `nil` for other methods.
    var signer: JWSSigner? {
        if case .privateKeyJWT(let signer, _, _) = method { return signer }
        return nil
    }

    /// The client secret of `client_secret_basic` and `client_secret_post`, which also keys
    /// HS256, HS384 and HS512 ID tokens (OpenID Connect Core §10.1); `nil` for other methods.
    var clientSecret: String? {
        switch method {
        case .secretBasic(let secret), .secretPost(let secret): secret
        case .none, .privateKeyJWT: nil
        }
    }

    /// Adds the client's credentials to a request's form and headers.
    ///
    /// - Parameters:
    ///   - form: The form; `client_id` and method-specific members are appended.
    ///   - headers: The headers; `Authorization` for `client_secret_basic`.
    ///   - clientID: The client id.
    ///   - endpoint: Where the request goes (an assertion's audience).
    ///   - issuer: The provider's issuer (an assertion's audience, when asked).
    ///   - clock: The time source for an assertion's `iat` and `exp`.
    /// - Throws: `JOSEError` `invalid_input` when the clock is unusable or the form already
    ///   names a client credential; `invalid_key` if signing fails.
    public func apply(
        to form: inout [(name: String, value: String)], headers: inout [String: String],
        clientID: String, endpoint: URL, issuer: String, clock: JOSEClock = .system
    ) throws {
        let reserved: Set<String> = ["client_id", "client_secret", "client_assertion", "client_assertion_type"]
        if let clash = form.first(where: { reserved.contains($0.name) }) {
            throw JOSEError.invalidInput("the form already carries \(JOSEError.quoted(clash.name))")
        }
        switch method {
        case .none:
            form.append(("client_id", clientID))
        case .secretBasic(let secret):
            let pair = FormURLEncoding.encode(component: clientID) + ":" + FormURLEncoding.encode(component: secret)
            headers["Authorization"] = "Basic " + Data(pair.utf8).base64EncodedString()
        case .secretPost(let secret):
            form.append(("client_id", clientID))
            form.append(("client_secret", secret))
        case .privateKeyJWT(let signer, let audience, let lifetime):
            let now = clock.secondsSince1970
            guard now.isFinite, now >= 0, now < 1e15 else {
                throw JOSEError.invalidInput("the clock reads \(now), which is not a usable time")
            }
            let issuedAt = Int64(now)
            let claims = JSONOutput.object([
                ("iss", .string(clientID)), ("sub", .string(clientID)),
                ("aud", .string(audience.usesIssuer ? issuer : endpoint.absoluteString)),
                ("jti", .string(try RandomValue.state())), ("iat", .integer(issuedAt)),
                ("exp", .integer(issuedAt + lifetime)),
            ])
            let assertion = try signer.sign(claims: claims)
            form.append(("client_id", clientID))
            form.append(("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"))
            form.append(("client_assertion", assertion))
        }
    }
}
