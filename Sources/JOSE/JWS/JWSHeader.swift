/// The protected header of a compact JWS, validated: `alg` is a supported algorithm (never
/// `none`), `kid`/`typ`/`cty` are strings when present, and `crit` is well-formed and understood.
public struct JWSHeader: Sendable {
    /// The signature algorithm (`alg`).
    public let algorithm: JWSAlgorithm
    /// The parsed header object.
    package let json: JSONValue
    /// The token index of the `kid` value, −1 when absent (found while validating).
    let keyIDPosition: Int

    /// The `kid` value, when present (a string: validated).
    var keyIDValue: JSONValue? { json.value(at: keyIDPosition) }

    /// Whether the header has a `kid` (read from the position found while validating).
    var hasKeyID: Bool { keyIDPosition >= 0 }

    /// What validating a header found, and where the header sits among its document's tokens:
    /// enough to rebuild the header over any storage that holds the same tokens.
    struct Layout: Sendable {
        /// The validated algorithm.
        let algorithm: JWSAlgorithm
        /// The token index of the header object.
        let root: Int
        /// The token index of the `kid` value, −1 when absent.
        let keyIDPosition: Int

        /// The header, read from `document`, which holds this header's tokens at the same indexes
        /// (the token storage a JWT's claims were parsed into always does).
        func header(in document: consuming JSONDocument) -> JWSHeader {
            JWSHeader(algorithm: algorithm, json: JSONValue(document: document, index: root), keyIDPosition: keyIDPosition)
        }
    }

    /// This header's ``Layout``.
    var layout: Layout { Layout(algorithm: algorithm, root: json.index, keyIDPosition: keyIDPosition) }

    /// A header already validated (see ``Layout``).
    private init(algorithm: JWSAlgorithm, json: JSONValue, keyIDPosition: Int) {
        self.algorithm = algorithm
        self.json = json
        self.keyIDPosition = keyIDPosition
    }

    /// Whether the header's `kid` is exactly `candidate` (byte-for-byte); false without a `kid`.
    /// Reads the header in place, so key selection builds no ``JSONValue``.
    func keyID(is candidate: String) -> Bool {
        keyIDPosition >= 0 && json.document.isString(at: keyIDPosition, equalTo: candidate)
    }

    /// The key identifier (`kid`).
    public var keyID: String? { keyIDValue?.string }
    /// The media type of the whole token (`typ`), e.g. `JWT` or `at+jwt`.
    public var type: String? { json["typ"]?.string }
    /// The media type of the payload (`cty`).
    public var contentType: String? { json["cty"]?.string }
    /// The names listed in `crit`, empty when absent.
    public var criticalParameters: [String] {
        json["crit"]?.elements.map { $0.compactMap(\.string) } ?? []
    }

    /// A string-valued header parameter, e.g. a private one; `nil` when absent or not a string.
    public func string(_ name: String) -> String? { json[name]?.string }

    /// Whether the header has a parameter with this name.
    public func contains(_ name: String) -> Bool { json[name] != nil }

    /// The header's JSON text, exactly as decoded from the token.
    public var jsonString: String { String(decoding: json.rawBytes, as: UTF8.self) }

    /// Calls `body` with the header's JSON text (UTF-8, exactly as decoded from the token) in
    /// place, without copying it.
    public func withJSONBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try json.withRawBytes(body)
    }

    /// Whether the header's JSON text (``withJSONBytes(_:)``) is plain and compact, as the parser
    /// found while reading it: no whitespace between tokens, and no escape and no byte above
    /// 0x7F in any string. Code that prints or forwards the text can then copy it as it is after
    /// looking only for DEL (0x7F), a control character JSON allows raw in strings, as
    /// `jose verify --batch` does.
    public var isPlainCompactJSON: Bool { json.isPlainCompactText }

    /// Header parameters registered for JWS and JWE (RFC 7515 §4.1, RFC 7516 §4.1, RFC 7518 §4.6–4.8):
    /// `crit` may not list them.
    static let registeredNames: Set<String> = [
        "alg", "jku", "jwk", "kid", "x5u", "x5c", "x5t", "x5t#S256", "typ", "cty", "crit",
        "enc", "zip", "epk", "apu", "apv", "iv", "tag", "p2s", "p2c",
    ]

    /// Validates a parsed header object.
    ///
    /// - Parameter understood: the extension parameters the caller processes; `crit` may name
    ///   only these.
    init(json: JSONValue, understood: borrowing Set<String>) throws {
        guard json.kind == .object else { throw JOSEError.malformed("the JOSE header is not a JSON object") }
        // (`json` keeps the storage alive while the view is read.)
        let (algorithm, kid, b64, crit) = try JWSHeader.checkParameters(json.document.storage.view, object: json.index)
        self.algorithm = algorithm
        self.json = json
        self.keyIDPosition = kid
        if b64 >= 0 || crit >= 0 {
            try validateCritical(b64: b64 >= 0, crit: json.value(at: crit), understood: understood)
        }
    }

    /// Finds the parameters checked here in one pass over the members of the header object at
    /// token `object`, and checks `alg`, `kid`, `typ` and `cty`. Reads by token index through a
    /// borrowed view: no JSONValue, no reference counting.
    ///
    /// - Returns: the algorithm and the token indexes of `kid`, `b64` and `crit` (−1: absent).
    private static func checkParameters(
        _ document: JSONView, object: Int
    ) throws -> (algorithm: JWSAlgorithm, kid: Int, b64: Int, crit: Int) {
        var (alg, kid, typ, cty, b64, crit) = (-1, -1, -1, -1, -1, -1)
        document.forEachMember(of: object) { name, value in
            switch name.count {
            case 3:
                if JSONStrings.isName(name, "alg") { alg = value }
                else if JSONStrings.isName(name, "kid") { kid = value }
                else if JSONStrings.isName(name, "typ") { typ = value }
                else if JSONStrings.isName(name, "cty") { cty = value }
                else if JSONStrings.isName(name, "b64") { b64 = value }
            case 4:
                if JSONStrings.isName(name, "crit") { crit = value }
            default:
                break
            }
        }
        guard alg >= 0 else { throw JOSEError.malformed("the JOSE header has no \"alg\"") }
        guard document.kind(at: alg) == .string else { throw JOSEError.malformed("the header \"alg\" is not a string") }
        guard let algorithm = JWSAlgorithm.named(where: { document.isString(at: alg, equalTo: $0) }) else {
            let name = document.string(at: alg) ?? ""
            if name.lowercased() == "none" {
                throw JOSEError(.unsupportedAlgorithm, "alg \(JOSEError.quoted(name)) (unsecured JWS) is never accepted")
            }
            throw JOSEError(.unsupportedAlgorithm, "alg \(JOSEError.quoted(name)) is not a supported JWS algorithm")
        }
        try requireString(document, kid, "kid")
        try requireString(document, typ, "typ")
        try requireString(document, cty, "cty")
        return (algorithm, kid, b64, crit)
    }

    /// Rejects a present header parameter `name` (at token `position`, −1 when absent) whose
    /// value is not a string.
    private static func requireString(_ document: JSONView, _ position: Int, _ name: StaticString) throws {
        if position >= 0, document.kind(at: position) != .string {
            throw JOSEError.malformed("the header \"\(name)\" is not a string")
        }
    }

    /// RFC 7515 §4.1.11: `crit` is a non-empty array of unique, non-registered names that are
    /// present in the header and understood. `b64` (RFC 7797) is not supported, so its presence
    /// is refused whether or not it is listed.
    private func validateCritical(b64: Bool, crit: JSONValue?, understood: borrowing Set<String>) throws {
        // Refused even when the caller lists "b64" as understood: the signature is always checked
        // over the base64url payload, so honouring the name would verify a different input
        // than RFC 7797 signs.
        if b64 {
            throw JOSEError(.unsupportedCriticalHeader, "the \"b64\" header (RFC 7797 unencoded payload) is not supported")
        }
        guard let crit else { return }
        guard let elements = crit.elements, crit.count > 0 else {
            throw JOSEError(.unsupportedCriticalHeader, "\"crit\" must be a non-empty array of names")
        }
        var seen: [String] = []
        for element in elements {
            guard let name = element.string else {
                throw JOSEError(.unsupportedCriticalHeader, "\"crit\" must contain only strings")
            }
            guard !seen.contains(name) else {
                throw JOSEError(.unsupportedCriticalHeader, "\"crit\" lists \(JOSEError.quoted(name)) twice")
            }
            guard !JWSHeader.registeredNames.contains(name) else {
                throw JOSEError(.unsupportedCriticalHeader, "\"crit\" may not list the registered parameter \(JOSEError.quoted(name))")
            }
            guard understood.contains(name) else {
                throw JOSEError(.unsupportedCriticalHeader, "critical header parameter \(JOSEError.quoted(name)) is not understood")
            }
            guard json[name] != nil else {
                throw JOSEError(.unsupportedCriticalHeader, "\"crit\" lists \(JOSEError.quoted(name)), which the header lacks")
            }
            seen.append(name)
        }
    }
}
