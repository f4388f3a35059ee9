#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Verifies a compact JWS whose key comes from its own `x5c` certificate chain (RFC 7515
/// §4.1.6), as App Store Server Notifications and StoreKit 2 transactions are signed.
///
/// The chain in the header (leaf first, standard base64 DER) must validate to one of the
/// verifier's trusted roots by RFC 5280 path validation at the ``validationTime``; then the
/// signature is verified with the leaf's public key, for the algorithms allowed (every JWS
/// signature algorithm but HMAC can be allowed, RSA and PSS included). The leaf must allow
/// `digitalSignature` when it has a key-usage extension. The chain is limited in length and
/// each certificate in size. Without a verifier of this kind, `x5c` is never read: no other
/// verifier takes a key from the token.
///
/// ```swift
/// let verifier = X5CVerifier.appStore()
/// let notification = try await verifier.verify(signedPayload)
/// ```
///
/// Every chain refusal is ``JOSEError/Code/invalidCertificateChain``, its message naming the
/// certificate (its position in the validated path, 0 being the leaf) and why.
public struct X5CVerifier: Sendable {
    /// Which instant the chain is validated at.
    public enum ValidationTime: Sendable, Hashable {
        /// The verifier's ``X5CVerifier/clock``.
        case clock
        /// A number in the payload, read before the signature is checked (the signature is
        /// checked right after, with the key of the chain so validated): seconds since 1970, or
        /// milliseconds when `inMilliseconds` (App Store's `signedDate`).
        case claim(String, inMilliseconds: Bool)
    }

    /// The trusted roots, DER.
    public let trustedRoots: [[UInt8]]
    /// The signature algorithms accepted (the leaf's key narrows them further: an EC leaf
    /// verifies only its curve's ES* algorithm).
    public var algorithms: Set<JWSAlgorithm>
    /// Which instant the chain is validated at.
    public var validationTime: ValidationTime
    /// The time source of ``ValidationTime/clock``.
    public var clock: JOSEClock
    /// The most certificates `x5c` may hold: 4 by default.
    public var maximumChainLength = 4
    /// The largest certificate accepted, in bytes of DER: 8 KiB by default.
    public var maximumCertificateBytes = 8 * 1024
    /// Size and nesting limits for the token.
    public var limits: JWSLimits
    /// A dotted OID the leaf must carry as an extension (set by ``appStore(trustedRoots:clock:)``).
    public internal(set) var leafExtension: String?
    /// A dotted OID the certificate after the leaf must carry (set by ``appStore(trustedRoots:clock:)``).
    public internal(set) var intermediateExtension: String?

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - trustedRoots: the root certificates, DER; at least one.
    ///   - algorithms: the signature algorithms accepted; every asymmetric one by default.
    ///   - validationTime: which instant the chain is validated at; the clock's by default.
    ///   - clock: the time source.
    ///   - limits: size and nesting limits for the token.
    /// - Throws: ``JOSEError`` `invalid_input` without roots, or with an HMAC algorithm.
    public init(
        trustedRoots: [[UInt8]], algorithms: Set<JWSAlgorithm> = Set(JWSAlgorithm.all.filter { $0.family != .hmac }),
        validationTime: ValidationTime = .clock, clock: JOSEClock = .system, limits: JWSLimits = .default
    ) throws {
        guard !trustedRoots.isEmpty else { throw JOSEError.invalidInput("an x5c verifier needs at least one trusted root certificate") }
        guard !algorithms.isEmpty, !algorithms.contains(where: { $0.family == .hmac }) else {
            throw JOSEError.invalidInput("an x5c verifier accepts asymmetric signature algorithms only (a certificate holds no HMAC key)")
        }
        self.init(checkedRoots: trustedRoots, algorithms: algorithms, validationTime: validationTime, clock: clock, limits: limits)
    }

    /// Creates a verifier from arguments already checked.
    init(
        checkedRoots: [[UInt8]], algorithms: Set<JWSAlgorithm>, validationTime: ValidationTime, clock: JOSEClock,
        limits: JWSLimits
    ) {
        self.trustedRoots = checkedRoots
        self.algorithms = algorithms
        self.validationTime = validationTime
        self.clock = clock
        self.limits = limits
    }

    /// Creates a verifier whose roots are the `CERTIFICATE` blocks of PEM text.
    ///
    /// - Throws: ``JOSEError`` `invalid_input` for text without a certificate or with a block
    ///   that is not base64; as ``init(trustedRoots:algorithms:validationTime:clock:limits:)``.
    public init(
        trustedRootsPEM pem: String, algorithms: Set<JWSAlgorithm> = Set(JWSAlgorithm.all.filter { $0.family != .hmac }),
        validationTime: ValidationTime = .clock, clock: JOSEClock = .system, limits: JWSLimits = .default
    ) throws {
        try self.init(trustedRoots: X5CVerifier.certificates(inPEM: pem), algorithms: algorithms,
                      validationTime: validationTime, clock: clock, limits: limits)
    }

    /// Verifies `token`: its `x5c` chain to a trusted root, then its signature with the leaf's key.
    ///
    /// - Returns: the verified header and payload, and the leaf's key.
    /// - Throws: ``JOSEError`` `invalid_certificate_chain` for a missing, malformed, oversized or
    ///   invalid chain; `missing_claim` or `invalid_claim` for a validation-time claim that is
    ///   absent or not a number; the signature errors of ``JWSVerifier``.
    public func verify(_ token: some StringProtocol) async throws -> VerifiedJWS {
        let text = String(token)
        guard text.utf8.count <= limits.maximumTokenBytes else {
            throw JOSEError.malformed("the token is over \(limits.maximumTokenBytes) bytes")
        }
        let parts = try UnverifiedJWS(unverified: text)
        let header = try JSONDocument(
            bytes: parts.header, limits: JSONLimits(maxBytes: limits.maximumHeaderBytes, maxDepth: limits.maximumNestingDepth))
        let chain = try certificateChain(in: header.root)
        let requirements = CertificateChainRequirements(
            validationTime: try instant(payload: parts.payload), maximumPathLength: maximumChainLength + 1,
            leafExtension: leafExtension, intermediateExtension: intermediateExtension)
        try await CertificateChains.validate(chain, roots: trustedRoots, requirements: requirements)
        let leafKey: AsymmetricKey
        do {
            leafKey = try AsymmetricKey.importCertificate(chain[0], policy: RSAKeyPolicy(KeyPolicy.default))
        } catch let error as JOSEError {
            throw JOSEError(.invalidCertificateChain, "certificate 0 (the leaf): its key cannot be used: \(error.message)")
        }
        let key = try JWK(material: .asymmetric(leafKey), keyID: nil, use: nil, keyOperations: nil, algorithm: nil)
        return try JWSVerifier(key: key, algorithms: algorithms, limits: limits).verify(text)
    }

    /// The `x5c` certificates, DER: an array of 1 to ``maximumChainLength`` standard-base64
    /// strings, each at most ``maximumCertificateBytes`` decoded.
    private func certificateChain(in header: JSONValue) throws -> [[UInt8]] {
        guard let value = header["x5c"] else {
            throw JOSEError(.invalidCertificateChain, "the token has no \"x5c\" certificate chain")
        }
        guard let elements = value.elements, value.count >= 1 else {
            throw JOSEError(.invalidCertificateChain, "\"x5c\" must be a non-empty array of base64 certificates")
        }
        guard value.count <= maximumChainLength else {
            throw JOSEError(.invalidCertificateChain, "\"x5c\" holds \(value.count) certificates; at most \(maximumChainLength) are accepted")
        }
        return try elements.enumerated().map { index, element in
            guard let text = element.string, text.utf8.count <= (maximumCertificateBytes + 2) / 3 * 4,
                  let der = Data(base64Encoded: text), !der.isEmpty
            else {
                throw JOSEError(.invalidCertificateChain,
                    "certificate \(index) of \"x5c\" is not base64 DER of at most \(maximumCertificateBytes) bytes")
            }
            return Array(der)
        }
    }

    /// The instant to validate at: the clock's, or the payload's claim.
    private func instant(payload: [UInt8]) throws -> Date {
        switch validationTime {
        case .clock:
            return clock.now
        case .claim(let name, let inMilliseconds):
            let claims = try JSONDocument(
                bytes: payload, limits: JSONLimits(maxBytes: limits.maximumTokenBytes, maxDepth: limits.maximumNestingDepth))
            guard let value = claims.root[name] else {
                throw JOSEError(.missingClaim, "the payload has no \(JOSEError.quoted(name)), the instant its certificate chain is validated at")
            }
            guard let number = value.number, number.isFinite, number >= 0, number < 1e16 else {
                throw JOSEError(.invalidClaim, "\(JOSEError.quoted(name)) is not a non-negative number of \(inMilliseconds ? "milliseconds" : "seconds") since 1970")
            }
            return Date(timeIntervalSince1970: inMilliseconds ? number / 1000 : number)
        }
    }

    /// The DER of each `CERTIFICATE` block of `pem`.
    static func certificates(inPEM pem: String) throws -> [[UInt8]] {
        var certificates: [[UInt8]] = []
        var body: String?
        // Lines are compared with their whitespace removed, so the labels read "BEGINCERTIFICATE".
        for line in pem.split(whereSeparator: \.isNewline).map({ String($0.filter { !$0.isWhitespace }) }) {
            if line == "-----BEGINCERTIFICATE-----" {
                body = ""
            } else if line == "-----ENDCERTIFICATE-----", let text = body {
                guard let der = Data(base64Encoded: text), !der.isEmpty else {
                    throw JOSEError.invalidInput("certificate \(certificates.count) of the PEM text is not base64")
                }
                certificates.append(Array(der))
                body = nil
            } else if body != nil {
                body! += line
            }
        }
        guard !certificates.isEmpty else { throw JOSEError.invalidInput("the PEM text holds no CERTIFICATE block") }
        return certificates
    }
}
