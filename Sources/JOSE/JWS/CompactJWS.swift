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
        var firstDot = -1
        var secondDot = -1
        for index in token.indices where token[index] == UInt8(ascii: ".") {
            if firstDot < 0 {
                firstDot = index
            } else if secondDot < 0 {
                secondDot = index
            } else {
                throw JOSEError.malformed("a compact JWS has exactly three parts; this token has more")
            }
        }
        guard secondDot > 0 else {
            throw JOSEError.malformed("a compact JWS has three base64url parts separated by dots")
        }
        guard firstDot > 0 else { throw JOSEError.malformed("the JWS header part is empty") }

        let headerText = UnsafeRawBufferPointer(rebasing: token[0..<firstDot])
        let payloadText = UnsafeRawBufferPointer(rebasing: token[(firstDot + 1)..<secondDot])
        let signatureText = UnsafeRawBufferPointer(rebasing: token[(secondDot + 1)...])
        guard let headerLength = Base64URL.decodedLength(encodedLength: headerText.count),
              headerLength <= limits.maximumHeaderBytes
        else {
            throw JOSEError.malformed("the JWS header is longer than \(limits.maximumHeaderBytes) bytes or not base64url")
        }

        var decoded: [UInt8] = []
        decoded.reserveCapacity(token.count * 3 / 4 + 3)
        try JOSEError.within("the JWS header") { try Base64URL.decode(headerText, appendingTo: &decoded) }
        let signatureStart = decoded.count
        try JOSEError.within("the JWS signature") { try Base64URL.decode(signatureText, appendingTo: &decoded) }
        let payloadStart = decoded.count
        try JOSEError.within("the JWS payload") { try Base64URL.decode(payloadText, appendingTo: &decoded) }

        let json = try JSONDocument(
            bytes: decoded, range: 0..<signatureStart,
            limits: JSONLimits(maxBytes: limits.maximumHeaderBytes, maxDepth: limits.maximumNestingDepth))
        self.header = try JWSHeader(json: json.root, understood: understoodCritical)
        guard payloadStart > signatureStart else { throw JOSEError.malformed("the JWS signature part is empty") }
        self.decoded = decoded
        self.signatureRange = signatureStart..<payloadStart
        self.payloadRange = payloadStart..<decoded.count
        self.signingInputCount = secondDot
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
