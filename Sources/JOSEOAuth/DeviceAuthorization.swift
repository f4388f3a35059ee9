#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE

/// A device authorization response (RFC 8628 §3.2), read strictly: what the user is shown, and
/// the device code the client polls the token endpoint with.
///
/// Refused with `JOSEError.Code.invalidTokenResponse`: a body that is not one JSON object; a
/// `device_code` that is missing, empty or not visible ASCII; a `user_code` that is missing,
/// empty, longer than ``maximumUserCodeLength`` or not visible ASCII (it is shown on a
/// terminal); a `verification_uri` or `verification_uri_complete` that is not an absolute
/// https URL (http only to a loopback host) of visible ASCII; an `expires_in` that is not an
/// integer number of seconds from 1 to ``maximumExpiresIn``; an `interval` that is not an integer in
/// 0...`expires_in`.
public struct DeviceAuthorization: Sendable {
    /// The longest `user_code` accepted, in bytes.
    public static let maximumUserCodeLength = 64
    /// The longest `expires_in` accepted: one day.
    public static let maximumExpiresIn = Duration.seconds(86_400)
    /// The polling interval when the response gives none (RFC 8628 §3.2).
    public static let defaultInterval = Duration.seconds(5)

    /// `device_code`: what the client polls with; never shown.
    public let deviceCode: String
    /// `user_code`: what the user types at ``verificationURI``.
    public let userCode: String
    /// `verification_uri`: where the user goes, on another device.
    public let verificationURI: URL
    /// `verification_uri_complete`: ``verificationURI`` with the user code in it, when sent.
    public let verificationURIComplete: URL?
    /// `expires_in`: how long the codes stay valid, in whole seconds.
    public let expiresIn: Duration
    /// `interval`: the least time between two polls, in whole seconds; ``defaultInterval``
    /// unless sent.
    public let interval: Duration

    /// Reads a `200` device authorization response body.
    ///
    /// - Parameter body: The JSON body.
    /// - Throws: `JOSEError` `invalid_token_response` naming the first problem.
    public init(json body: [UInt8]) throws {
        let root: JSONValue
        do {
            root = try JSONDocument(bytes: body).root
        } catch let error as JOSEError {
            throw Self.refusal("is not valid JSON: \(error.message)")
        }
        guard root.kind == .object else { throw Self.refusal("is not a JSON object") }
        guard let deviceCode = root["device_code"]?.string, Self.isVisibleASCII(deviceCode) else {
            throw Self.refusal("has no \"device_code\" of visible ASCII")
        }
        guard let userCode = root["user_code"]?.string, Self.isVisibleASCII(userCode),
              userCode.utf8.count <= Self.maximumUserCodeLength else {
            throw Self.refusal("has no \"user_code\" of visible ASCII up to \(Self.maximumUserCodeLength) bytes")
        }
        guard let verificationURI = try Self.url(root, "verification_uri") else {
            throw Self.refusal("has no \"verification_uri\"")
        }
        let maximum = Self.maximumExpiresIn.components.seconds
        guard let expiresIn = Self.integer(root["expires_in"]), (1...maximum).contains(expiresIn) else {
            throw Self.refusal("has no \"expires_in\" integer in 1...\(maximum)")
        }
        let interval: Duration
        if let value = root["interval"] {
            guard let seconds = Self.integer(value), (0...expiresIn).contains(seconds) else {
                throw Self.refusal("has an \"interval\" that is not an integer in 0...expires_in")
            }
            interval = .seconds(seconds)
        } else {
            interval = Self.defaultInterval
        }
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURI = verificationURI
        verificationURIComplete = try Self.url(root, "verification_uri_complete")
        self.expiresIn = .seconds(expiresIn)
        self.interval = interval
    }

    /// Reads a device authorization endpoint's answer.
    ///
    /// - Parameter response: The HTTP response.
    /// - Returns: The device authorization.
    /// - Throws: `JOSEError` `authorization_error` (details in `JOSEError.providerError`) for
    ///   a `400` or `401` carrying an OAuth error; `invalid_token_response` for any other
    ///   status or an unreadable body.
    static func read(_ response: HTTPFetchResponse) throws -> DeviceAuthorization {
        if response.statusCode == 200 { return try DeviceAuthorization(json: response.body) }
        if response.statusCode == 400 || response.statusCode == 401, let details = TokenResponse.providerError(in: response.body) {
            throw JOSEError(.authorizationError, "the device authorization endpoint refused the request: \(details.summary)",
                            providerError: details)
        }
        throw JOSEError(.invalidTokenResponse, "the device authorization endpoint answered \(response.statusCode) without an OAuth error")
    }

    private static func refusal(_ problem: String) -> JOSEError {
        JOSEError(.invalidTokenResponse, "the device authorization response " + problem)
    }

    private static func isVisibleASCII(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    private static func integer(_ value: JSONValue?) -> Int64? {
        guard let value, value.kind == .number, value.isIntegerLiteral else { return nil }
        return value.integer
    }

    /// An optional URL member: when present, an absolute URL of visible ASCII that
    /// `TransportPolicy` allows.
    private static func url(_ root: JSONValue, _ name: String) throws -> URL? {
        guard let value = root[name] else { return nil }
        guard let text = value.string, let url = URIText.absoluteURL(text), TransportPolicy.isAllowed(url) else {
            throw refusal("has a \"\(name)\" that is not an https URL (http only to a loopback host)")
        }
        return url
    }
}
