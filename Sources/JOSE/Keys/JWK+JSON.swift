#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension JWK {
    /// Parses and validates one JWK.
    ///
    /// - Parameters:
    ///   - json: the JWK as UTF-8 JSON text.
    ///   - policy: limits on the key material (RSA size).
    /// - Throws: ``JOSEError`` `malformed` when the text is not strict JSON (duplicate member
    ///   names included), `invalid_key` when the members do not describe a usable key.
    public init(json: some DataProtocol, policy: KeyPolicy = .default) throws {
        let document = try JSONDocument(bytes: Array(json), limits: JWK.jsonLimits)
        try self.init(jsonObject: document.root, policy: policy)
    }

    /// Parses and validates one JWK from its JSON text.
    ///
    /// - Throws: ``JOSEError`` as ``init(json:policy:)-(DataProtocol,_)``.
    public init(json: String, policy: KeyPolicy = .default) throws {
        try self.init(json: Array(json.utf8), policy: policy)
    }

    /// The members that make an RSA, EC or OKP JWK private (RFC 7518 §6.2.2, §6.3.2; RFC 8037).
    static let asymmetricPrivateMemberNames = ["d", "p", "q", "dp", "dq", "qi", "oth"]

    /// Limits for key documents: a JWK Set of 100 RSA-4096 keys fits well inside.
    static let jsonLimits = JSONLimits(maxBytes: 1 << 20, maxDepth: 8)

    /// Builds a key from a parsed JSON object.
    init(jsonObject object: JSONValue, policy: KeyPolicy) throws {
        guard object.kind == .object else { throw JOSEError.invalidKey("a JWK must be a JSON object") }
        let members = JWKMembers(object)
        let kty = try members.requiredString("kty")
        let material: Material
        switch kty {
        case "RSA":
            material = try .asymmetric(JWK.rsaKey(members, policy: policy))
        case "EC":
            let crv = try members.requiredString("crv")
            guard let curve = EllipticCurve(rawValue: crv) else {
                throw JOSEError.invalidKey("EC curve \(JOSEError.quoted(crv)) is not supported (P-256, P-384, P-521, secp256k1)")
            }
            material = try .asymmetric(AsymmetricKey.ec(
                curve: curve, x: members.requiredBytes("x"), y: members.requiredBytes("y"),
                d: members.optionalBytes("d")))
        case "OKP":
            let crv = try members.requiredString("crv")
            guard let curve = OKPCurve(rawValue: crv) else {
                throw JOSEError.invalidKey("OKP curve \(JOSEError.quoted(crv)) is not supported (Ed25519, Ed448, X25519)")
            }
            material = try .asymmetric(AsymmetricKey.okp(
                curve: curve, x: members.requiredBytes("x"), d: members.optionalBytes("d")))
        case "oct":
            let secret = try members.requiredBytes("k")
            guard !secret.isEmpty else { throw JOSEError.invalidKey("the oct key \"k\" is empty") }
            material = try .symmetric(HMACKey(secret: secret))
        default:
            throw JOSEError.invalidKey("key type \(JOSEError.quoted(kty)) is not supported (RSA, EC, OKP, oct)")
        }
        let algorithm = try members.algorithm()
        try self.init(
            material: material,
            keyID: members.optionalString("kid"),
            use: members.optionalString("use"),
            keyOperations: members.keyOperations(),
            algorithm: algorithm?.signature,
            keyManagementAlgorithm: algorithm?.keyManagement,
            policy: policy)
    }

    private static func rsaKey(_ members: JWKMembers, policy: KeyPolicy) throws -> AsymmetricKey {
        if members.object["oth"] != nil {
            throw JOSEError.invalidKey("multi-prime RSA keys (\"oth\") are not supported")
        }
        let primes: RSAPrimes?
        switch try (members.optionalBytes("p"), members.optionalBytes("q"), members.optionalBytes("dp"),
                    members.optionalBytes("dq"), members.optionalBytes("qi")) {
        case let (p?, q?, dp?, dq?, qi?):
            primes = RSAPrimes(p: p, q: q, dp: dp, dq: dq, qi: qi)
        case (nil, nil, nil, nil, nil):
            primes = nil
        default:
            throw JOSEError.invalidKey("RSA private members p, q, dp, dq and qi must all be present or all absent")
        }
        let d = try members.optionalBytes("d")
        if d == nil, primes != nil {
            throw JOSEError.invalidKey("RSA CRT members are present without \"d\"")
        }
        return try AsymmetricKey.rsa(
            modulus: members.requiredBytes("n"), exponent: members.requiredBytes("e"),
            privateExponent: d, primes: primes, policy: RSAKeyPolicy(policy))
    }
}

/// Typed access to the members of a JWK object, with `invalid_key` errors naming the member.
struct JWKMembers {
    let object: JSONValue

    init(_ object: JSONValue) { self.object = object }

    func optionalString(_ name: String) throws -> String? {
        guard let value = object[name] else { return nil }
        guard let string = value.string else {
            throw JOSEError.invalidKey("JWK member \"\(name)\" must be a string")
        }
        return string
    }

    func requiredString(_ name: String) throws -> String {
        guard let string = try optionalString(name) else {
            throw JOSEError.invalidKey("JWK member \"\(name)\" is missing")
        }
        return string
    }

    func optionalBytes(_ name: String) throws -> [UInt8]? {
        guard let text = try optionalString(name) else { return nil }
        do {
            return try Base64URL.decode(text)
        } catch let error as JOSEError {
            throw JOSEError.invalidKey("JWK member \"\(name)\" is not base64url: \(error.message)")
        }
    }

    func requiredBytes(_ name: String) throws -> [UInt8] {
        guard let bytes = try optionalBytes(name) else {
            throw JOSEError.invalidKey("JWK member \"\(name)\" is missing")
        }
        return bytes
    }

    func keyOperations() throws -> [String]? {
        guard let value = object["key_ops"] else { return nil }
        guard let elements = value.elements else {
            throw JOSEError.invalidKey("JWK member \"key_ops\" must be an array of strings")
        }
        var operations: [String] = []
        for element in elements {
            guard let operation = element.string else {
                throw JOSEError.invalidKey("JWK member \"key_ops\" must be an array of strings")
            }
            guard !operations.contains(operation) else {
                throw JOSEError.invalidKey("JWK member \"key_ops\" lists \(JOSEError.quoted(operation)) twice")
            }
            operations.append(operation)
        }
        return operations
    }

    /// The `alg` member: a JWS algorithm or a JWE key-management algorithm.
    func algorithm() throws -> (signature: JWSAlgorithm?, keyManagement: KeyManagementAlgorithm?)? {
        guard let name = try optionalString("alg") else { return nil }
        if let algorithm = JWSAlgorithm(rawValue: name) { return (algorithm, nil) }
        if let algorithm = KeyManagementAlgorithm(rawValue: name) { return (nil, algorithm) }
        // A `dir` key may name the content encryption it serves (as Nimbus and jwcrypto write them).
        if ContentEncryptionAlgorithm(rawValue: name) != nil { return (nil, .direct) }
        throw JOSEError.invalidKey("JWK alg \(JOSEError.quoted(name)) is not a supported JWS or JWE key-management algorithm")
    }
}
