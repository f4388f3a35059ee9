#if JOSE_SWIFT_CRYPTO
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SwiftASN1
// The SPI is swift-certificates' own way to validate at a chosen instant (its
// `init(validationTime:)` is deprecated in favour of it).
@_spi(FixedExpiryValidationTime) import X509

/// RFC 5280 path validation of an `x5c` chain with swift-certificates' `Verifier` and its
/// `RFC5280Policy`: the roots in one `CertificateStore`, the rest of the chain as intermediates
/// in another, the expiry checked at the requirements' instant.
///
/// `RFC5280Policy` checks versions, validity periods, basic constraints and name constraints;
/// the path length, the leaf's key usage and the required extensions are checked here on the
/// path it validated.
enum SwiftCryptoCertificateChains: BackendCertificateChains {
    /// Validates `chain` (DER, leaf first) to one of `roots` (DER).
    ///
    /// - Throws: ``JOSEError/Code/invalidCertificateChain`` naming the certificate and why.
    static func validate(_ chain: [[UInt8]], roots: [[UInt8]], requirements: CertificateChainRequirements) async throws {
        let certificates = try chain.enumerated().map { index, der in
            try parse(der, orThrow: "certificate \(index) (\(index == 0 ? "the leaf" : "an intermediate")) is not DER X.509")
        }
        let trusted = try roots.enumerated().map { index, der in
            try parse(der, orThrow: "trusted root \(index) is not DER X.509")
        }
        var verifier = Verifier(rootCertificates: CertificateStore(trusted)) {
            RFC5280Policy(fixedExpiryValidationTime: requirements.validationTime)
        }
        let result = await verifier.validate(leaf: certificates[0], intermediates: CertificateStore(certificates.dropFirst()))
        guard case .validCertificate(let path) = result else {
            throw JOSEError(.invalidCertificateChain, failureMessage(result, at: requirements.validationTime))
        }
        let limit = requirements.maximumPathLength
        guard path.count <= limit else {
            throw JOSEError(.invalidCertificateChain,
                "certificate \(limit) (\(role(limit, of: path.count))): certificate chain too long "
                    + "(\(path.count) certificates to the root, at most \(limit) accepted)")
        }
        guard allowsDigitalSignature(path.leaf) else {
            throw JOSEError(.invalidCertificateChain, "certificate 0 (the leaf): its key usage does not allow digitalSignature")
        }
        if let oid = requirements.leafExtension, !hasExtension(path.leaf, oid) {
            throw JOSEError(.invalidCertificateChain, "certificate 0 (the leaf): it lacks the required extension \(oid)")
        }
        if let oid = requirements.intermediateExtension, path.count < 3 || !hasExtension(path[1], oid) {
            throw JOSEError(.invalidCertificateChain, "certificate 1 (an intermediate): it lacks the required extension \(oid)")
        }
    }

    /// Why no path was found, from the first candidate path that failed the policy: the first
    /// certificate of it outside its validity period when there is one, else the policy's own
    /// reason (which describes certificates by their names, so it is quoted). With no candidate,
    /// no path reached a trusted root.
    private static func failureMessage(_ result: CertificateValidationResult, at time: Date) -> String {
        guard case .couldNotValidate(let failures) = result, let failure = failures.first else {
            return "certificate 0 (the leaf): no path to a trusted root (an issuer is missing or untrusted, "
                + "or a certificate has an unknown critical extension)"
        }
        let candidate = Array(failure.chain)
        for (index, certificate) in candidate.enumerated() {
            let name = "certificate \(index) (\(role(index, of: candidate.count)))"
            if certificate.notValidBefore > time { return "\(name): certificate is not yet valid" }
            if certificate.notValidAfter < time { return "\(name): certificate has expired" }
        }
        return "certificate 0 (the leaf): no valid path to a trusted root: "
            + JOSEError.quoted(failure.policyFailureReason.description)
    }

    /// One DER certificate, with no bytes after it.
    private static func parse(_ der: [UInt8], orThrow message: String) throws -> Certificate {
        do {
            return try Certificate(derEncoded: der)
        } catch {
            throw JOSEError(.invalidCertificateChain, message)
        }
    }

    /// Whether `certificate` may sign: it has no key-usage extension, or one that allows
    /// `digitalSignature` (one that does not decode allows nothing).
    private static func allowsDigitalSignature(_ certificate: Certificate) -> Bool {
        guard let usage = try? certificate.extensions.keyUsage else {
            return certificate.extensions[oid: .X509ExtensionID.keyUsage] == nil
        }
        return usage.digitalSignature
    }

    /// Whether `certificate` carries an extension with the dotted `oid`.
    private static func hasExtension(_ certificate: Certificate, _ oid: String) -> Bool {
        guard let identifier = try? ASN1ObjectIdentifier(dotRepresentation: oid) else { return false }
        return certificate.extensions[oid: identifier] != nil
    }

    /// How messages name the certificate at `index` of a path of `count` certificates.
    private static func role(_ index: Int, of count: Int) -> String {
        index == 0 ? "the leaf" : index == count - 1 ? "the root" : "an intermediate"
    }
}
#endif
