#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A compact JWS split and decoded, before its signature is checked.
///
/// The three parts are decoded into one buffer (`header ‖ signature ‖ payload`): one
/// allocation, and the parsed header reads straight from it.
struct CompactJWS {
    /// The validated protected header.
    let header: JWSHeader
    /// The decoded header, signature and payload, back to back.
    let decoded: [UInt8]
    /// Where the signature sits in ``decoded``.
    let signatureRange: Range<Int>
    /// Where the payload sits in ``decoded``.
    let payloadRange: Range<Int>
    /// The length of the signing input (`header.payload`) at the start of the token text.
    let signingInputCount: Int

    /// Splits and decodes `token`, and validates the header.
    ///
    /// - Throws: ``JOSEError`` `malformed` for anything but three strict base64url parts with a
    ///   JSON-object header within the limits; header errors as ``JWSHeader``.
    init(_ token: UnsafeRawBufferPointer, limits: JWSLimits, understoodCritical: Set<String>) throws {
        guard token.count <= limits.maximumTokenBytes else {
            throw JOSEError.malformed("the token has \(token.count) bytes; the limit is \(limits.maximumTokenBytes)")
        }
        guard let firstDot = CompactJWS.offset(ofDotIn: token, from: 0),
              let secondDot = CompactJWS.offset(ofDotIn: token, from: firstDot + 1)
        else {
            throw JOSEError.malformed("a compact JWS has three base64url parts separated by dots")
        }
        guard CompactJWS.offset(ofDotIn: token, from: secondDot + 1) == nil else {
            throw JOSEError.malformed("a compact JWS has exactly three parts; this token has more")
        }
        guard firstDot > 0 else { throw JOSEError.malformed("the JWS header part is empty") }

        let headerText = UnsafeRawBufferPointer(rebasing: token[0..<firstDot])
        let payloadText = UnsafeRawBufferPointer(rebasing: token[(firstDot + 1)..<secondDot])
        let signatureText = UnsafeRawBufferPointer(rebasing: token[(secondDot + 1)...])
        let signatureStart = try JOSEError.within("the JWS header") { try Base64URL.checkedDecodedLength(headerText) }
        guard signatureStart <= limits.maximumHeaderBytes else {
            throw JOSEError.malformed("the JWS header is longer than \(limits.maximumHeaderBytes) bytes")
        }
        let payloadStart = try signatureStart
            + JOSEError.within("the JWS signature") { try Base64URL.checkedDecodedLength(signatureText) }
        let decodedCount = try payloadStart
            + JOSEError.within("the JWS payload") { try Base64URL.checkedDecodedLength(payloadText) }

        // All three parts are decoded straight into one uninitialised buffer.
        let decoded = try [UInt8](unsafeUninitializedCapacity: decodedCount) { buffer, count in
            let output = UnsafeMutableRawBufferPointer(buffer)
            try JOSEError.within("the JWS header") {
                try Base64URL.decode(headerText, into: UnsafeMutableRawBufferPointer(rebasing: output[0..<signatureStart]))
            }
            try JOSEError.within("the JWS signature") {
                try Base64URL.decode(signatureText, into: UnsafeMutableRawBufferPointer(rebasing: output[signatureStart..<payloadStart]))
            }
            try JOSEError.within("the JWS payload") {
                try Base64URL.decode(payloadText, into: UnsafeMutableRawBufferPointer(rebasing: output[payloadStart...]))
            }
            count = decodedCount
        }

        let json = try JSONDocument(
            bytes: decoded, range: 0..<signatureStart,
            limits: JSONLimits(maxBytes: limits.maximumHeaderBytes, maxDepth: limits.maximumNestingDepth))
        // The header takes over the document: no copy, so no retain.
        self.header = try JWSHeader(json: JSONValue(document: consume json, index: 0), understood: understoodCritical)
        guard payloadStart > signatureStart else { throw JOSEError.malformed("the JWS signature part is empty") }
        self.signatureRange = signatureStart..<payloadStart
        self.payloadRange = payloadStart..<decodedCount
        self.signingInputCount = secondDot
        self.decoded = consume decoded
    }

    /// The offset of the first `.` in `token` at or after `start`, or `nil` (`memchr`, which
    /// scans many bytes per step).
    private static func offset(ofDotIn token: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < token.count, let base = token.baseAddress,
              let found = memchr(base + start, Int32(UInt8(ascii: ".")), token.count - start)
        else { return nil }
        return UnsafeRawPointer(found) - base
    }
}

extension JOSEError {
    /// Runs `body`, prefixing the message of a `malformed` error with where it happened.
    static func within<T>(_ place: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as JOSEError where error.code == .malformed {
            throw JOSEError.malformed("\(place): \(error.message)")
        }
    }
}
