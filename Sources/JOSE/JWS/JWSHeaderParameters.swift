/// The protected-header parameters a ``JWSSigner`` writes beside `alg` and `kid`: the typed
/// `typ` and `cty`, `crit`, and further members.
///
/// ```swift
/// let header = JWSHeaderParameters(type: "at+jwt")
/// let token = try signer.sign(claims: claims, header: header)
/// ```
///
/// The signer checks them when it signs (RFC 7515 §4.1, RFC 8725 §3.10):
/// - `alg` and `kid` come from the signer (``JWSSigner/algorithm``, ``JWSSigner/keyID``),
///   `typ`, `cty` and `crit` from the typed properties; a member of one of these names is refused.
/// - `jku` and `x5u` are refused: they name a URL to fetch keys from, and a verifier that
///   followed them would take its key from whoever made the token. (This library's verifiers
///   never follow them; others' might.)
/// - `b64` (RFC 7797 unencoded payloads) and the JWE-only parameters (`enc`, `zip`, `epk`,
///   `apu`, `apv`, `iv`, `tag`, `p2s`, `p2c`) are refused: this is a JWS with a base64url payload.
/// - `crit` lists extension members this header carries: each name at most once, none a
///   registered parameter. A verifier accepts such a token only when told it understands
///   every name (``JWSVerifier/init(keySet:algorithms:limits:understoodCriticalParameters:)``).
public struct JWSHeaderParameters: Sendable {
    /// The `typ` header, e.g. `JWT` (the default), `at+jwt` or `dpop+jwt`; omitted when `nil`.
    public var type: String?
    /// The `cty` header: the payload's media type (`JWT` for a nested JWT); omitted when `nil`.
    public var contentType: String?
    /// The `crit` header: names of extension members of this header that a verifier must
    /// understand; omitted when empty.
    public var critical: [String]
    /// Further members, written after the others in the order first set (for example a DPoP
    /// proof's public `jwk`, or a private parameter): see ``set(_:_:)``.
    package private(set) var members: [(name: String, value: JSONOutput)]

    /// Describes a header.
    ///
    /// - Parameters:
    ///   - type: the `typ` header; `JWT` by default, `nil` to leave it out.
    ///   - contentType: the `cty` header, when wanted.
    ///   - critical: the `crit` names, when wanted.
    public init(type: String? = "JWT", contentType: String? = nil, critical: [String] = []) {
        self.init(type: type, contentType: contentType, critical: critical, members: [])
    }

    /// Describes a header with further members already written as JSON.
    package init(type: String? = "JWT", contentType: String? = nil, critical: [String] = [], members: [(name: String, value: JSONOutput)]) {
        self.type = type
        self.contentType = contentType
        self.critical = critical
        self.members = members
    }

    /// Sets a further member (a private parameter, or one a `crit` entry names), replacing its
    /// value in place when it is already set. The names the signer refuses are refused when it
    /// signs, not here.
    ///
    /// - Parameters:
    ///   - name: the member name.
    ///   - value: any `Encodable` value, written by the library's strict JSON encoder, as
    ///     ``JWSSigner/sign(claims:header:)`` writes claims.
    /// - Throws: ``JOSEError`` `invalid_input` for a value JSON cannot hold.
    public mutating func set(_ name: String, _ value: some Encodable) throws {
        let json = try JSONOutput(encoding: value)
        if let index = members.firstIndex(where: { $0.name == name }) {
            members[index].value = json
        } else {
            members.append((name, json))
        }
    }

    /// Members the typed properties or the signer write.
    static let typedNames: Set<String> = ["alg", "kid", "typ", "cty", "crit"]
    /// Members that point a verifier at a URL to fetch keys from.
    static let keyURLNames: Set<String> = ["jku", "x5u"]
    /// Members that do not belong in a JWS with a base64url payload: RFC 7797's `b64` and
    /// the JWE parameters (RFC 7516 §4.1, RFC 7518 §4.6–4.8).
    static let foreignNames: Set<String> = ["b64", "enc", "zip", "epk", "apu", "apv", "iv", "tag", "p2s", "p2c"]

    /// The header object for `algorithm` and `keyID`, after checking the rules above.
    ///
    /// - Throws: ``JOSEError`` `invalid_input` naming the member or `crit` entry that breaks a rule.
    func object(algorithm: JWSAlgorithm, keyID: String?) throws -> JSONOutput {
        var header: [(String, JSONOutput)] = [("alg", .string(algorithm.rawValue))]
        if let keyID { header.append(("kid", .string(keyID))) }
        if let type { header.append(("typ", .string(type))) }
        if let contentType { header.append(("cty", .string(contentType))) }
        var names: Set<String> = []
        for member in members {
            try Self.check(memberName: member.name)
            guard names.insert(member.name).inserted else {
                throw JOSEError.invalidInput("the header member \(JOSEError.quoted(member.name)) is given twice")
            }
        }
        if !critical.isEmpty {
            try checkCritical(memberNames: names)
            header.append(("crit", .array(critical.map(JSONOutput.string))))
        }
        header += members.map { ($0.name, $0.value) }
        return .object(header)
    }

    /// Refuses a member name the rules above forbid.
    private static func check(memberName name: String) throws {
        if typedNames.contains(name) {
            throw JOSEError.invalidInput(
                "the header member \(JOSEError.quoted(name)) is written by the signer or a typed property"
                    + " (JWSSigner keyID, JWSHeaderParameters type, contentType, critical), not as a member")
        }
        if keyURLNames.contains(name) {
            throw JOSEError.invalidInput(
                "the header member \(JOSEError.quoted(name)) is refused: it points verifiers at a URL to fetch keys from"
                    + " (RFC 8725 §3.10); publish the key set at a URL the verifier is configured with")
        }
        if foreignNames.contains(name) {
            throw JOSEError.invalidInput(
                "the header member \(JOSEError.quoted(name)) does not belong in a JWS with a base64url payload"
                    + " (RFC 7797's b64 and JWE parameters are not supported)")
        }
    }

    /// RFC 7515 §4.1.11: `crit` names extension members present in this header, each once,
    /// none registered.
    private func checkCritical(memberNames: Set<String>) throws {
        var seen: Set<String> = []
        for name in critical {
            guard seen.insert(name).inserted else {
                throw JOSEError.invalidInput("\"crit\" lists \(JOSEError.quoted(name)) twice")
            }
            guard !JWSHeader.registeredNames.contains(name) else {
                throw JOSEError.invalidInput(
                    "\"crit\" may not list the registered parameter \(JOSEError.quoted(name)) (RFC 7515 §4.1.11)")
            }
            guard memberNames.contains(name) else {
                throw JOSEError.invalidInput(
                    "\"crit\" lists \(JOSEError.quoted(name)), which is not among the header's members")
            }
        }
    }
}
