#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension X5CVerifier {
    /// A verifier for App Store Server Notifications (version 2), StoreKit 2 signed transactions
    /// and renewal information: Apple Root CA - G3 as the only trusted root, `ES256` only, the
    /// leaf carrying Apple's App Store receipt-signing marker (1.2.840.113635.100.6.11.1) and the
    /// intermediate Apple's WWDR marker (1.2.840.113635.100.6.2.1), the chain validated at the
    /// payload's `signedDate` (milliseconds since 1970, as Apple sends it).
    ///
    /// Validating at `signedDate` is what Apple's own libraries do: a notification stays
    /// verifiable after its leaf certificate expires. The signature is still checked with that
    /// leaf's key, right after.
    ///
    /// - Parameters:
    ///   - trustedRoots: other roots (DER) in place of Apple's, for chains made in tests with the
    ///     same shape; `nil` (or empty) for Apple Root CA - G3.
    ///   - clock: unused by the chain check (which reads `signedDate`); kept for callers that
    ///     switch ``validationTime`` to ``ValidationTime/clock``.
    public static func appStore(trustedRoots: [[UInt8]]? = nil, clock: JOSEClock = .system) -> X5CVerifier {
        var verifier = X5CVerifier(
            checkedRoots: trustedRoots.flatMap { $0.isEmpty ? nil : $0 } ?? [appleRootCAG3], algorithms: [.es256], validationTime: .claim("signedDate", inMilliseconds: true),
            clock: clock, limits: .default)
        verifier.maximumChainLength = 3
        verifier.leafExtension = "1.2.840.113635.100.6.11.1"
        verifier.intermediateExtension = "1.2.840.113635.100.6.2.1"
        return verifier
    }

    /// Apple Root CA - G3, DER: Apple's public root certificate, as published at
    /// https://www.apple.com/certificateauthority/AppleRootCA-G3.cer (SHA-256 fingerprint
    /// 63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79,
    /// valid until 2039-04-30).
    static let appleRootCAG3: [UInt8] = Array(Data(base64Encoded:
        "MIICQzCCAcmgAwIBAgIILcX8iNLFS5UwCgYIKoZIzj0EAwMwZzEbMBkGA1UEAwwSQXBwbGUgUm9vdCBDQSAtIEczMSYwJAYDVQQL"
            + "DB1BcHBsZSBDZXJ0aWZpY2F0aW9uIEF1dGhvcml0eTETMBEGA1UECgwKQXBwbGUgSW5jLjELMAkGA1UEBhMCVVMwHhcNMTQwNDMw"
            + "MTgxOTA2WhcNMzkwNDMwMTgxOTA2WjBnMRswGQYDVQQDDBJBcHBsZSBSb290IENBIC0gRzMxJjAkBgNVBAsMHUFwcGxlIENlcnRp"
            + "ZmljYXRpb24gQXV0aG9yaXR5MRMwEQYDVQQKDApBcHBsZSBJbmMuMQswCQYDVQQGEwJVUzB2MBAGByqGSM49AgEGBSuBBAAiA2IA"
            + "BJjpLz1AcqTtkyJygRMc3RCV8cWjTnHcFBbZDuWmBSp3ZHtfTjjTuxxEtX/1H7YyYl3J6YRbTzBPEVoA/VhYDKX1DyxNB0cTddqX"
            + "l5dvMVztK517IDvYuVTZXpmkOlEKMaNCMEAwHQYDVR0OBBYEFLuw3qFYM4iapIqZ3r6966/ayySrMA8GA1UdEwEB/wQFMAMBAf8w"
            + "DgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49BAMDA2gAMGUCMQCD6cHEFl4aXTQY2e3v9GwOAEZLuN+yRhHFD/3meoyhpmvOwgPUnPWT"
            + "xnS4at+qIxUCMG1mihDK1A3UT82NQz60imOlM27jbdoXt2QfyFMm+YhidDkLF1vLUagM6BgD56KyKA==") ?? Data())
}
