#if canImport(AuthenticationServices) && !os(tvOS)
import AuthenticationServices
import Foundation
import JOSE
import JOSEOAuth

/// Logs a user in through the system's web authentication session
/// (`ASWebAuthenticationSession`): prepares the authorization request with an `OpenIDClient`,
/// shows the provider's page, keeps the `LoginTransaction` until the provider sends the browser
/// back, and finishes the login with it.
///
/// ```swift
/// let login = WebAuthenticationLogin(client: client, presentationContextProvider: viewController)
/// let request = AuthorizationRequest(clientID: "my-app", redirectURI: "com.example.app:/callback")
/// let result = try await login.logIn(request)
/// ```
///
/// The redirect URI is a custom scheme (`com.example.app:/callback`) or, from iOS 17.4,
/// macOS 14.4, watchOS 10.4 and visionOS 1.1, an `https` URL of a domain the app is associated
/// with (`https://example.com/callback`; the session then matches its host and path).
///
/// On watchOS the session presents itself, and the initializer takes no presentation context.
///
/// A user who closes the sheet gets `JOSEError` `login_cancelled`; cancelling the task that
/// awaits ``logIn(_:)`` closes the sheet, with the same error.
///
/// Not on tvOS: Apple documents the session there without a presentation context or the
/// private-session option; TV apps log in with the device authorization grant
/// (`OpenIDClient.authorizeDevice(scopes:extraParameters:)`).
@MainActor
public final class WebAuthenticationLogin {
    /// The client that prepares and finishes the login.
    public let client: OpenIDClient
    /// Whether to ask the browser for a private session that shares no cookies with the user's
    /// normal browsing (`prefersEphemeralWebBrowserSession`): the user signs in every time,
    /// and the system does not ask to use the provider's domain first. `false` unless set.
    public var prefersEphemeralWebBrowserSession: Bool
    #if !os(watchOS)
    /// Where the session presents its sheet; held until the login ends (the session holds it
    /// weakly).
    private let presentationContextProvider: any ASWebAuthenticationPresentationContextProviding
    #endif
    /// Whether a login runs, from its start to its end.
    private var isLoggingIn = false
    /// The session on screen, while a login shows it.
    private var session: ASWebAuthenticationSession?

    #if os(watchOS)
    /// Creates a login for `client`.
    ///
    /// - Parameters:
    ///   - client: The client that prepares and finishes the login.
    ///   - prefersEphemeralWebBrowserSession: Whether to ask for a private browser session.
    public init(client: OpenIDClient, prefersEphemeralWebBrowserSession: Bool = false) {
        self.client = client
        self.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
    }
    #else
    /// Creates a login for `client` that presents its sheet where `presentationContextProvider`
    /// says.
    ///
    /// - Parameters:
    ///   - client: The client that prepares and finishes the login.
    ///   - presentationContextProvider: Gives the window the sheet is presented from (a view
    ///     controller or window delegate of the app); kept until each login ends.
    ///   - prefersEphemeralWebBrowserSession: Whether to ask for a private browser session.
    public init(
        client: OpenIDClient,
        presentationContextProvider: any ASWebAuthenticationPresentationContextProviding,
        prefersEphemeralWebBrowserSession: Bool = false
    ) {
        self.client = client
        self.presentationContextProvider = presentationContextProvider
        self.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
    }
    #endif

    /// Logs the user in: prepares `request`, shows the provider's page, and finishes the login
    /// with the URL the provider sends the browser back to.
    ///
    /// - Parameter request: What to ask for; its redirect URI is a custom scheme or an `https`
    ///   URL (see ``WebAuthenticationLogin``).
    /// - Returns: The tokens and the validated ID token.
    /// - Throws: `JOSEError` `login_cancelled` when the user closes the sheet or the task is
    ///   cancelled; `invalid_input` for a redirect URI the session cannot wait for (`http`, or
    ///   `https` before iOS 17.4 / macOS 14.4 / watchOS 10.4 / visionOS 1.1), a login already
    ///   running on this object, or a session that does not start; the session's own
    ///   `ASWebAuthenticationSessionError` for its other failures (a presentation context that
    ///   is missing or invalid); otherwise what `OpenIDClient.prepare(_:)` and
    ///   `OpenIDClient.finishLogin(callbackURL:transaction:)` throw.
    public func logIn(_ request: AuthorizationRequest) async throws -> LoginResult {
        guard !isLoggingIn else {
            throw JOSEError(.invalidInput, "a login is already running on this WebAuthenticationLogin")
        }
        isLoggingIn = true
        defer { isLoggingIn = false }
        let callback = try Callback(redirectURI: request.redirectURI)
        let prepared = try client.prepare(request)
        let callbackURL = try await withTaskCancellationHandler {
            try await present(prepared.url, until: callback)
        } onCancel: {
            Task { @MainActor in self.cancel() }
        }
        return try await client.finishLogin(callbackURL: callbackURL.absoluteString, transaction: prepared.transaction)
    }

    /// Closes the sheet of the running login, whose ``logIn(_:)`` then throws
    /// `login_cancelled`; nothing happens when none runs.
    public func cancel() {
        session?.cancel()
    }

    /// Shows `url` in a web authentication session until the browser is sent to a URL that
    /// `callback` matches, and returns that URL.
    private func present(_ url: URL, until callback: Callback) async throws -> URL {
        defer { session = nil }
        do {
            return try await withCheckedThrowingContinuation { continuation in
                let completion: ASWebAuthenticationSession.CompletionHandler = { @Sendable callbackURL, error in
                    if let callbackURL {
                        continuation.resume(returning: callbackURL)
                    } else {
                        continuation.resume(throwing: error ?? JOSEError(
                            .invalidInput, "the web authentication session ended without a callback URL or an error"))
                    }
                }
                let session: ASWebAuthenticationSession
                do {
                    session = try callback.session(for: url, completionHandler: completion)
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                session.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
                #if !os(watchOS)
                session.presentationContextProvider = presentationContextProvider
                #endif
                guard !Task.isCancelled else {
                    continuation.resume(throwing: JOSEError(.loginCancelled, "the login was cancelled before it was shown"))
                    return
                }
                self.session = session
                guard session.start() else {
                    continuation.resume(throwing: JOSEError(
                        .invalidInput, "the web authentication session did not start (no window to present from?)"))
                    return
                }
            }
        } catch let error as ASWebAuthenticationSessionError where error.code == .canceledLogin {
            throw JOSEError(.loginCancelled, "the user closed the login sheet, or the login was cancelled")
        }
    }
}
#endif
