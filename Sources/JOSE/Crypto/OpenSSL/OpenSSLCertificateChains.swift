#if !JOSE_SWIFT_CRYPTO
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import COpenSSL

/// RFC 5280 path validation of an `x5c` chain with OpenSSL's `X509_verify_cert`: the roots in
/// an `X509_STORE`, the rest of the chain as untrusted intermediates, the validation time and
/// the depth set on the context's parameters.
enum OpenSSLCertificateChains: BackendCertificateChains {
    /// Validates `chain` (DER, leaf first) to one of `roots` (DER).
    ///
    /// - Throws: ``JOSEError/Code/invalidCertificateChain`` naming the certificate and why.
    static func validate(_ chain: [[UInt8]], roots: [[UInt8]], requirements: CertificateChainRequirements) async throws {
        // Freed however the parsing ends: a certificate that fails to parse leaves those before it.
        var certificates: [OpaquePointer] = []
        defer { certificates.forEach { X509_free($0) } }
        for (index, der) in chain.enumerated() {
            certificates.append(try parse(der, orThrow: "certificate \(index) (\(role(index, of: chain.count + 1))) is not DER X.509"))
        }
        guard let store = X509_STORE_new() else { throw failure("OpenSSL cannot create a certificate store") }
        defer { X509_STORE_free(store) }
        for (index, der) in roots.enumerated() {
            let root = try parse(der, orThrow: "trusted root \(index) is not DER X.509")
            defer { X509_free(root) }
            guard X509_STORE_add_cert(store, root) == 1 else { throw failure("OpenSSL cannot add trusted root \(index)") }
        }
        guard let untrusted = OPENSSL_sk_new_null() else { throw failure("OpenSSL cannot create a certificate stack") }
        defer { OPENSSL_sk_free(untrusted) }
        for certificate in certificates.dropFirst() {
            guard OPENSSL_sk_push(untrusted, UnsafeRawPointer(certificate)) > 0 else {
                throw failure("OpenSSL cannot collect the intermediates")
            }
        }
        guard let context = X509_STORE_CTX_new() else { throw failure("OpenSSL cannot create a verification context") }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, certificates[0], untrusted) == 1,
              let parameters = X509_STORE_CTX_get0_param(context)
        else { throw failure("OpenSSL cannot set up the verification") }
        X509_VERIFY_PARAM_set_time(parameters, time_t(requirements.validationTime.timeIntervalSince1970.rounded(.down)))
        // The depth counts the certificates above the leaf.
        X509_VERIFY_PARAM_set_depth(parameters, Int32(max(0, requirements.maximumPathLength - 1)))
        guard X509_verify_cert(context) == 1 else {
            let code = X509_STORE_CTX_get_error(context)
            let depth = Int(X509_STORE_CTX_get_error_depth(context))
            let pathLength = Int(OPENSSL_sk_num(X509_STORE_CTX_get0_chain(context)))
            let reason = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
            throw failure("certificate \(depth) (\(role(depth, of: max(pathLength, depth + 1)))): \(reason)")
        }
        let path = X509_STORE_CTX_get0_chain(context)
        let pathLength = Int(OPENSSL_sk_num(path))
        guard pathLength <= requirements.maximumPathLength else {
            throw failure("the chain to the root has \(pathLength) certificates; at most \(requirements.maximumPathLength) are accepted")
        }
        let leaf = certificates[0]
        let usage = X509_get_key_usage(leaf)
        if usage != UInt32.max, usage & UInt32(KU_DIGITAL_SIGNATURE) == 0 {
            throw failure("certificate 0 (the leaf): its key usage does not allow digitalSignature")
        }
        if let oid = requirements.leafExtension, !hasExtension(leaf, oid) {
            throw failure("certificate 0 (the leaf): it lacks the required extension \(oid)")
        }
        if let oid = requirements.intermediateExtension {
            guard pathLength > 2, let intermediate = OPENSSL_sk_value(path, 1),
                  hasExtension(OpaquePointer(intermediate), oid)
            else { throw failure("certificate 1 (an intermediate): it lacks the required extension \(oid)") }
        }
    }

    /// One DER certificate, with no bytes after it.
    private static func parse(_ der: [UInt8], orThrow message: String) throws -> OpaquePointer {
        guard let parsed = EVPKey.parseDERCertificate(der) else { throw failure(message) }
        return parsed
    }

    /// Whether `certificate` carries an extension with the dotted `oid`.
    private static func hasExtension(_ certificate: OpaquePointer, _ oid: String) -> Bool {
        guard let object = OBJ_txt2obj(oid, 1) else {
            OpenSSLErrorQueue.clear()
            return false
        }
        defer { ASN1_OBJECT_free(object) }
        return X509_get_ext_by_OBJ(certificate, object, -1) >= 0
    }

    /// How messages name the certificate at `index` of a path of `count` certificates.
    private static func role(_ index: Int, of count: Int) -> String {
        index == 0 ? "the leaf" : index == count - 1 ? "the root" : "an intermediate"
    }

    /// An `invalid_certificate_chain` error, the OpenSSL error queue emptied.
    private static func failure(_ message: String) -> JOSEError {
        OpenSSLErrorQueue.clear()
        return JOSEError(.invalidCertificateChain, message)
    }
}
#endif
