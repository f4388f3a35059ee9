// Stub of Apple's AuthenticationServices: only the web-authentication-session surface
// JOSEAppleLogin reaches, with the Swift signatures and the availability of Apple's documentation:
// - ASWebAuthenticationSession, its completion handler, start() and cancel(), the error and its
//   codes: iOS 12, macOS 10.15, tvOS 16, watchOS 6.2, visionOS 1;
// - presentationContextProvider and ASWebAuthenticationPresentationContextProviding (a
//   @MainActor protocol): iOS 13, macOS 10.15, visionOS 1; not on tvOS or watchOS;
// - prefersEphemeralWebBrowserSession: iOS 13, macOS 10.15, watchOS 6.2, visionOS 1; not tvOS;
// - ASPresentationAnchor (UIWindow, or NSWindow on macOS): iOS 12, macOS 10.15, tvOS 13;
// - ASWebAuthenticationSession.Callback and init(url:callback:completionHandler:): iOS 17.4,
//   macOS 14.4, tvOS 17.4, watchOS 10.4, visionOS 1.1.
//
// Not faithful, on purpose: the classes are Swift classes, not NSObject subclasses (the
// Objective-C runtime is not here), the protocol refines AnyObject instead of NSObjectProtocol,
// the error is a plain Swift error with a code instead of an NSError bridged to a struct, and
// UIWindow and NSWindow (UIKit's and AppKit's) are empty classes declared here.
@_exported import Foundation

#if os(macOS)
@MainActor open class NSWindow {}
@available(macOS 10.15, *)
public typealias ASPresentationAnchor = NSWindow
#elseif !os(watchOS)
@MainActor open class UIWindow {}
@available(iOS 12.0, tvOS 13.0, visionOS 1.0, *)
public typealias ASPresentationAnchor = UIWindow
#endif

@available(iOS 12.0, macOS 10.15, tvOS 16.0, watchOS 6.2, visionOS 1.0, *)
public let ASWebAuthenticationSessionErrorDomain: String = "com.apple.AuthenticationServices.WebAuthenticationSession"

@available(iOS 12.0, macOS 10.15, tvOS 16.0, watchOS 6.2, visionOS 1.0, *)
public struct ASWebAuthenticationSessionError: Error, Hashable {
    public enum Code: Int, Sendable {
        case canceledLogin = 1
        @available(iOS 13.0, macOS 10.15, visionOS 1.0, *) @available(tvOS, unavailable) @available(watchOS, unavailable)
        case presentationContextNotProvided = 2
        @available(iOS 13.0, macOS 10.15, visionOS 1.0, *) @available(tvOS, unavailable) @available(watchOS, unavailable)
        case presentationContextInvalid = 3
    }
    public let code: Code
    public static var errorDomain: String { ASWebAuthenticationSessionErrorDomain }
    public static var canceledLogin: Code { .canceledLogin }
}

#if !os(tvOS) && !os(watchOS)
@available(iOS 13.0, macOS 10.15, visionOS 1.0, *)
@MainActor public protocol ASWebAuthenticationPresentationContextProviding: AnyObject {
    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
}
#endif

@available(iOS 12.0, macOS 10.15, tvOS 16.0, watchOS 6.2, visionOS 1.0, *)
open class ASWebAuthenticationSession {
    public typealias CompletionHandler = (URL?, (any Error)?) -> Void

    @available(iOS 17.4, macOS 14.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
    public final class Callback {
        public static func customScheme(_ customScheme: String) -> Callback { Callback() }
        public static func https(host: String, path: String) -> Callback { Callback() }
        public func matchesURL(_ url: URL) -> Bool { false }
        private init() {}
    }

    public init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping CompletionHandler) {}
    @available(iOS 17.4, macOS 14.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
    public init(url URL: URL, callback: Callback, completionHandler: @escaping CompletionHandler) {}

    // Weak in the SDK; computed here, as a stored property cannot carry availability.
    #if !os(tvOS) && !os(watchOS)
    @available(iOS 13.0, macOS 10.15, visionOS 1.0, *)
    open var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)? { get { nil } set {} }
    #endif
    @available(iOS 13.0, macOS 10.15, watchOS 6.2, visionOS 1.0, *) @available(tvOS, unavailable)
    open var prefersEphemeralWebBrowserSession: Bool { get { false } set {} }
    @available(iOS 13.4, macOS 10.15.4, tvOS 16.0, watchOS 6.2, visionOS 1.0, *)
    open var canStart: Bool { false }

    open func start() -> Bool { false }
    open func cancel() {}
}
