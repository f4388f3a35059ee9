#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A compact JWS split and decoded, before its signature is checked.
///
/// One allocation per token and no copy of decoded bytes: the payload, the signature and the
/// header are decoded, in that order, into one ``JSONStorage``, and the header is parsed there.
/// On request the storage keeps room for the payload's JSON tokens too, so that a layer above
/// (JWT claims) can parse the payload in place, right after decoding, while the bytes are in the
/// cache. The header, the payload and whatever is parsed from it all share the storage.
///
/// Not copyable: one owner, from the parse to the result.
struct CompactJWS: ~Copyable {
    /// The validated protected header. Its document's storage holds the decoded payload,
    /// signature and header, back to back, with the header's tokens and room for the payload's
    /// (if the header's tokens outgrew the room, the whole text moved with them).
    let header: JWSHeader
    /// The length of the decoded payload at the start of ``storage``'s text.
    let payloadCount: Int
    /// The length of the decoded signature, after the payload in ``storage``'s text.
    let signatureCount: Int
    /// The length of the signing input (`header.payload`) at the start of the token text.
    let signingInputCount: Int

    /// Splits and decodes `token`, and validates the header.
    ///
    /// - Parameters:
    ///   - token: the compact serialization.
    ///   - limits: size and nesting limits.
    ///   - understoodCritical: the `crit` parameters the caller processes.
    ///   - reservingPayloadTokens: whether to keep room in the storage for parsing the payload as
    ///     JSON in place (see ``storage``).
    /// - Throws: ``JOSEError`` `malformed` for anything but three strict base64url parts with a
    ///   JSON-object header within the limits; header errors as ``JWSHeader``.
    init(
        _ token: UnsafeRawBufferPointer, limits: JWSLimits, understoodCritical: borrowing Set<String>, reservingPayloadTokens: Bool
    ) throws {
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
        let memo = HeaderMemo.forThisThread
        let remembered = memo?.decodedCount(of: headerText, limits: limits)
        let headerCount = try remembered ?? JOSEError.within("the JWS header") { try Base64URL.checkedDecodedLength(headerText) }
        guard headerCount <= limits.maximumHeaderBytes else {
            throw JOSEError.malformed("the JWS header is longer than \(limits.maximumHeaderBytes) bytes")
        }
        let signatureCount = try JOSEError.within("the JWS signature") { try Base64URL.checkedDecodedLength(signatureText) }
        let payloadCount = try JOSEError.within("the JWS payload") { try Base64URL.checkedDecodedLength(payloadText) }
        let headerStart = payloadCount + signatureCount
        let headerRange = headerStart..<(headerStart + headerCount)
        let tokenRoom = headerCount / 8 + 8 + (reservingPayloadTokens ? payloadCount / 8 + 8 : 0)
        let storage = JSONStorage.make(textCount: headerRange.upperBound, capacity: tokenRoom)
        let output = storage.mutableText
        if remembered == nil {
            try JOSEError.within("the JWS header") {
                try Base64URL.decode(headerText, into: UnsafeMutableRawBufferPointer(rebasing: output[headerRange]))
            }
        }
        try JOSEError.within("the JWS signature") {
            try Base64URL.decode(signatureText, into: UnsafeMutableRawBufferPointer(rebasing: output[payloadCount..<headerStart]))
        }
        try JOSEError.within("the JWS payload") {
            try Base64URL.decode(payloadText, into: UnsafeMutableRawBufferPointer(rebasing: output[0..<payloadCount]))
        }
        let header: JWSHeader
        if let memo, remembered != nil {
            header = memo.header(into: consume storage, textOffset: headerStart)
        } else {
            let json = try JSONDocument(
                parsingInPlace: consume storage, range: headerRange,
                limits: JSONLimits(maxBytes: limits.maximumHeaderBytes, maxDepth: limits.maximumNestingDepth))
            let root = json.rootIndex
            // The header takes over the document: no copy, so no retain.
            header = try JWSHeader(json: JSONValue(document: consume json, index: root), understood: understoodCritical)
            memo?.remember(header, encoded: headerText, textOffset: headerStart, decodedCount: headerCount, limits: limits)
        }
        guard signatureCount > 0 else { throw JOSEError.malformed("the JWS signature part is empty") }
        self.header = header
        self.payloadCount = payloadCount
        self.signatureCount = signatureCount
        self.signingInputCount = secondDot
    }

    /// Calls `body` with the decoded signature.
    func withSignature<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withBuffers { _, text in
            try body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: text[payloadCount..<(payloadCount + signatureCount)])))
        }
    }

    /// The storage holding the decoded token (the header document's): the payload is its text's
    /// first ``payloadCount`` bytes.
    var storage: JSONStorage { header.json.document.storage }

    /// The result of a verified signature: the header, the key and the payload.
    consuming func verified(by key: consuming JWK) -> VerifiedJWS {
        VerifiedJWS(header: header, key: key, storage: storage, payloadCount: payloadCount)
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
        } catch {
            throw placed(error, in: place)
        }
    }

    /// `error` with its message prefixed by `place` when it is a `malformed` error.
    static func placed(_ error: any Error, in place: String) -> any Error {
        guard let error = error as? JOSEError, error.code == .malformed else { return error }
        return JOSEError.malformed("\(place): \(error.message)")
    }
}
