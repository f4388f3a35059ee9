// Audit stub of swift-certificates 1.21.1's X509 surface that the swift-crypto backend's x5c
// path validation uses (`SwiftCryptoCertificateChains`), with its source's availability.
import Foundation
import SwiftASN1

@available(macOS 10.15, iOS 13, watchOS 6, tvOS 13, macCatalyst 13, visionOS 1.0, *)
public struct Certificate: Hashable, Sendable {
    public init(derEncoded: [UInt8]) throws { fatalError() }
    public var notValidBefore: Date { Date() }
    public var notValidAfter: Date { Date() }
    public var extensions: Extensions { fatalError() }

    public struct Extension: Hashable, Sendable {
        public var oid: ASN1ObjectIdentifier
    }
    public struct Extensions: Hashable, Sendable {
        public subscript(oid oid: ASN1ObjectIdentifier) -> Certificate.Extension? { nil }
        public var keyUsage: KeyUsage? { get throws { nil } }
    }
}

extension ASN1ObjectIdentifier {
    public enum X509ExtensionID {
        public static let keyUsage = try! ASN1ObjectIdentifier(dotRepresentation: "2.5.29.15")
    }
}

@available(macOS 10.15, iOS 13, watchOS 6, tvOS 13, macCatalyst 13, visionOS 1.0, *)
public struct KeyUsage: Hashable, Sendable {
    public var digitalSignature: Bool { false }
}

@available(macOS 10.15, iOS 13, watchOS 6, tvOS 13, macCatalyst 13, visionOS 1.0, *)
public struct CertificateStore: Sendable, Hashable {
    public init(_ certificates: some Sequence<Certificate>) {}
}

@available(macOS 10.15, iOS 13, watchOS 6, tvOS 13, macCatalyst 13, visionOS 1.0, *)
public protocol VerifierPolicy {}

@available(macOS 10.15, iOS 13, watchOS 6, tvOS 13, macCatalyst 13, visionOS 1.0, *)
public struct RFC5280Policy: VerifierPolicy, Sendable {
    @_spi(FixedExpiryValidationTime)
    public init(fixedExpiryValidationTime: Date) {}
}

@available(macOS 10.15, iOS 13, watchOS 6, tvOS 13, macCatalyst 13, visionOS 1.0, *)
@resultBuilder
public struct PolicyBuilder: Sendable {
    public static func buildBlock<Policy: VerifierPolicy>(_ component: Policy) -> Policy { component }
}

@available(macOS 10.15, iOS 13, watchOS 6, tvOS 13, macCatalyst 13, visionOS 1.0, *)
public struct VerificationDiagnostic: Sendable {}

@available(macOS 10.15, iOS 13, watchOS 6, tvOS 13, macCatalyst 13, visionOS 1.0, *)
public struct PolicyFailureReason: Sendable, CustomStringConvertible {
    public var description: String { "" }
}

@available(macOS 10.15, iOS 13, watchOS 6, tvOS 13, macCatalyst 13, visionOS 1.0, *)
public struct ValidatedCertificateChain: Sendable, RandomAccessCollection {
    public var leaf: Certificate { fatalError() }
    public var startIndex: Int { 0 }
    public var endIndex: Int { 0 }
    public subscript(index: Int) -> Certificate { fatalError() }
}

@available(macOS 10.15, iOS 13, watchOS 6, tvOS 13, macCatalyst 13, visionOS 1.0, *)
public struct UnverifiedCertificateChain: Sendable, RandomAccessCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { 0 }
    public subscript(index: Int) -> Certificate { fatalError() }
}

@available(macOS 10.15, iOS 13, watchOS 6, tvOS 13, macCatalyst 13, visionOS 1.0, *)
public enum CertificateValidationResult: Sendable {
    case validCertificate(ValidatedCertificateChain)
    case couldNotValidate([PolicyFailure])

    public struct PolicyFailure: Sendable {
        public var chain: UnverifiedCertificateChain
        public var policyFailureReason: PolicyFailureReason
    }
}

@available(macOS 10.15, iOS 13, watchOS 6, tvOS 13, macCatalyst 13, visionOS 1.0, *)
public struct Verifier<Policy: VerifierPolicy> {
    public init(rootCertificates: CertificateStore, @PolicyBuilder policy: () throws -> Policy) rethrows {}
    public mutating func validate(
        leaf: Certificate, intermediates: CertificateStore, diagnosticCallback: ((VerificationDiagnostic) -> Void)? = nil
    ) async -> CertificateValidationResult { fatalError() }
}
