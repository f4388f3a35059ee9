/// The protected header of a compact JWE (RFC 7516 §4), validated: `alg` and `enc` are
/// supported algorithms, `kid`/`typ`/`cty` are strings when present, `epk`, `apu` and `apv` (and
/// `AxxxGCMKW`'s `iv` and `tag`) are well-formed where the algorithm uses them, and neither `zip` nor `crit` is present.
///
/// `zip` (compression before encryption) is refused: a small token could otherwise inflate to
/// any size, and compressing secrets beside attacker-chosen text leaks them. `crit` is refused
/// because this library understands no JWE extension parameter.
public struct JWEHeader: Sendable {
    /// The key-management algorithm (`alg`).
    public let keyManagementAlgorithm: KeyManagementAlgorithm
    /// The content-encryption algorithm (`enc`).
    public let contentEncryptionAlgorithm: ContentEncryptionAlgorithm
    /// The parsed header object.
    package let json: JSONValue
    /// The sender's ephemeral public key (`epk`) for the `ECDH-ES` family; `nil` otherwise.
    let ephemeralKey: JWK?
    /// `apu` decoded (empty when absent).
    let partyUInfo: [UInt8]
    /// `apv` decoded (empty when absent).
    let partyVInfo: [UInt8]
    /// The key wrap's `iv` and `tag` for `AxxxGCMKW`, decoded; empty otherwise.
    let keyWrapIV: [UInt8], keyWrapTag: [UInt8]

    /// The key identifier (`kid`).
    public var keyID: String? { json["kid"]?.string }
    /// The media type of the whole token (`typ`).
    public var type: String? { json["typ"]?.string }
    /// The media type of the plaintext (`cty`): `JWT` for a nested JWT.
    public var contentType: String? { json["cty"]?.string }
    /// The string value of any header member, or `nil` when absent or not a string.
    public func string(_ name: String) -> String? { json[name]?.string }

    /// The longest `apu` or `apv` accepted, decoded.
    static let maximumPartyInfoBytes = 1024

    /// Validates a parsed header object.
    ///
    /// - Throws: ``JOSEError`` `malformed` for a header that is not an object or has a member of
    ///   the wrong form; `unsupported_algorithm` for an unknown, refused or missing `alg` or
    ///   `enc`, or for `zip`; `unsupported_critical_header` for `crit`; `decryption_failed` for
    ///   an `epk` that is not a public key on a supported curve.
    init(json: JSONValue) throws {
        guard json.kind == .object else { throw JOSEError.malformed("the JWE header is not a JSON object") }
        guard let algName = json["alg"]?.string else {
            throw JOSEError(.unsupportedAlgorithm, "the JWE header has no string \"alg\"")
        }
        guard let algorithm = KeyManagementAlgorithm(rawValue: algName) else {
            throw JOSEError(.unsupportedAlgorithm, JWEHeader.refusal(ofAlgorithm: algName))
        }
        guard let encName = json["enc"]?.string else {
            throw JOSEError(.unsupportedAlgorithm, "the JWE header has no string \"enc\"")
        }
        guard let encryption = ContentEncryptionAlgorithm(rawValue: encName) else {
            throw JOSEError(.unsupportedAlgorithm, "content encryption \(JOSEError.quoted(encName)) is not supported (\(ContentEncryptionAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        if json["zip"] != nil {
            throw JOSEError(.unsupportedAlgorithm, "compressed JWE (\"zip\") is not accepted: compression before encryption can leak the plaintext and inflate without bound")
        }
        if json["crit"] != nil {
            throw JOSEError(.unsupportedCriticalHeader, "the JWE header lists \"crit\" parameters, and no JWE extension is understood")
        }
        for name in ["kid", "typ", "cty"] where json[name] != nil && json[name]?.string == nil {
            throw JOSEError.malformed("the JWE header \"\(name)\" is not a string")
        }
        self.keyManagementAlgorithm = algorithm
        self.contentEncryptionAlgorithm = encryption
        self.json = json
        if algorithm.wrapsWithGCM {
            keyWrapIV = try JWEHeader.base64URLMember(json, "iv", maximumBytes: 12)
            keyWrapTag = try JWEHeader.base64URLMember(json, "tag", maximumBytes: 16)
        } else {
            keyWrapIV = []
            keyWrapTag = []
        }
        if algorithm.usesKeyAgreement {
            partyUInfo = try JWEHeader.partyInfo(json, "apu")
            partyVInfo = try JWEHeader.partyInfo(json, "apv")
            ephemeralKey = try JWEHeader.ephemeralKey(json)
        } else {
            partyUInfo = []
            partyVInfo = []
            ephemeralKey = nil
        }
    }

    /// Why a key-management name is not accepted.
    private static func refusal(ofAlgorithm name: String) -> String {
        switch name {
        case "RSA1_5":
            "RSA1_5 is refused: its PKCS #1 v1.5 padding is open to Bleichenbacher's attack (RFC 8725 §3.2); use RSA-OAEP-256"
        case "PBES2-HS256+A128KW", "PBES2-HS384+A192KW", "PBES2-HS512+A256KW":
            "password-based key management (\(name)) is not supported"
        default:
            "key management \(JOSEError.quoted(name)) is not supported (\(KeyManagementAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")))"
        }
    }

    /// `apu` or `apv`, decoded; empty when absent.
    private static func partyInfo(_ json: JSONValue, _ name: String) throws -> [UInt8] {
        guard json[name] != nil else { return [] }
        return try base64URLMember(json, name, maximumBytes: maximumPartyInfoBytes)
    }

    /// A required base64url string member of at most `maximumBytes` decoded.
    private static func base64URLMember(_ json: JSONValue, _ name: String, maximumBytes: Int) throws -> [UInt8] {
        guard let text = json[name]?.string, text.utf8.count <= Base64URL.encodedLength(byteCount: maximumBytes) else {
            throw JOSEError.malformed("the JWE header \"\(name)\" must be a base64url string of at most \(maximumBytes) bytes")
        }
        return try Base64URL.decode(text)
    }

    /// The `epk`: a public EC key (RFC 7518 §4.6.1.1) or X25519 key (RFC 8037 §3.2). An EC
    /// point is checked to be on its curve as every EC key is; a bad key is a failed decryption,
    /// not a separate answer.
    private static func ephemeralKey(_ json: JSONValue) throws -> JWK {
        guard let value = json["epk"], value.kind == .object else {
            throw JOSEError.malformed("the JWE header has no \"epk\" object, which \(json["alg"]?.string ?? "ECDH-ES") needs")
        }
        guard value["kty"]?.string == "EC" || (value["kty"]?.string == "OKP" && value["crv"]?.string == "X25519"),
              value["d"] == nil
        else {
            throw JOSEError.malformed("the JWE header \"epk\" must be a public EC or X25519 key")
        }
        do {
            let key = try JWK(jsonObject: value, policy: .default)
            guard !key.isPrivate else { throw JOSEError.undecryptable }
            return key
        } catch {
            throw JOSEError.undecryptable
        }
    }
}
