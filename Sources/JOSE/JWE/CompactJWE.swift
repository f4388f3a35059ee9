/// A compact JWE split into its five parts and decoded (RFC 7516 §7.1), before any key is used.
///
/// Every part is strict base64url (no padding, no whitespace, no other alphabet); the token and
/// its header are held to ``JWSLimits``. The additional authenticated data is the header part's
/// text, exactly as received.
struct CompactJWE {
    /// The validated protected header.
    let header: JWEHeader
    /// The encrypted content-encryption key (empty for `dir` and `ECDH-ES`).
    let encryptedKey: [UInt8]
    /// The initialization vector.
    let iv: [UInt8]
    /// The ciphertext.
    let ciphertext: [UInt8]
    /// The authentication tag.
    let tag: [UInt8]
    /// The protected header's base64url text, the AAD of the content encryption.
    let additionalData: [UInt8]

    /// Splits and decodes `token`.
    ///
    /// - Throws: ``JOSEError`` `malformed` for a token over the size limit, without exactly five
    ///   parts, with a part that is not strict base64url, or with a header that is not JSON within
    ///   the limits; the header's own errors (see ``JWEHeader``).
    init(_ token: some StringProtocol, limits: JWSLimits) throws {
        let bytes = Array(token.utf8)
        guard bytes.count <= limits.maximumTokenBytes else {
            throw JOSEError.malformed("the JWE is \(bytes.count) bytes; at most \(limits.maximumTokenBytes) are accepted")
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 5 else {
            throw JOSEError.malformed("a compact JWE has five parts separated by \".\"; this has \(parts.count)")
        }
        guard !parts[0].isEmpty else { throw JOSEError.malformed("the JWE header part is empty") }
        guard parts[0].count <= Base64URL.encodedLength(byteCount: limits.maximumHeaderBytes) else {
            throw JOSEError.malformed("the JWE header is over \(limits.maximumHeaderBytes) bytes")
        }
        let decoded = try parts.enumerated().map { index, part in
            do {
                return try part.withUnsafeBytes { raw -> [UInt8] in
                    let count = try Base64URL.checkedDecodedLength(raw)
                    var output = [UInt8](repeating: 0, count: count)
                    try output.withUnsafeMutableBytes { try Base64URL.decode(raw, into: $0) }
                    return output
                }
            } catch let error as JOSEError {
                throw JOSEError.malformed("JWE part \(index + 1) (\(CompactJWE.partNames[index])) is not base64url: \(error.message)")
            }
        }
        let document = try JSONDocument(
            bytes: decoded[0], limits: JSONLimits(maxBytes: limits.maximumHeaderBytes, maxDepth: limits.maximumNestingDepth))
        header = try JWEHeader(json: document.root)
        encryptedKey = decoded[1]
        iv = decoded[2]
        ciphertext = decoded[3]
        tag = decoded[4]
        additionalData = Array(parts[0])
    }

    /// The parts' names, for messages.
    private static let partNames = ["header", "encrypted key", "iv", "ciphertext", "tag"]
}
