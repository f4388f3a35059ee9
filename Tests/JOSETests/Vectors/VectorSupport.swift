import Testing
import Foundation
@testable import JOSE

/// Namespace of the vector suites, so that `swift test --filter Vectors` selects them.
enum Vectors {}

/// Loading of the vector files under `Vectors/` (RFC examples, the JOSE Cookbook).
enum VectorFile {
    /// Decodes `Vectors/<path>` as `type`.
    static func load<T: Decodable>(_ path: String, as type: T.Type) throws -> T {
        let url = Wycheproof.packageRoot.appendingPathComponent("Vectors/\(path)")
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }
}

/// Any JSON value from a vector file, kept so that it can be handed back to the library as JSON
/// text (a JWK, a JWK Set) exactly as the file states it, member order aside.
indirect enum JSONFragment: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONFragment])
    case object([String: JSONFragment])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONFragment].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONFragment].self))
        }
    }

    /// Compact JSON text (members sorted by name).
    var json: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value):
            return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let value): return JSONFragment.quoted(value)
        case .array(let values): return "[" + values.map(\.json).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { JSONFragment.quoted($0) + ":" + members[$0]!.json }
                .joined(separator: ",") + "}"
        }
    }

    /// The member `name` of an object.
    subscript(name: String) -> JSONFragment? {
        if case .object(let members) = self { return members[name] }
        return nil
    }

    /// The value of a string.
    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements of an array.
    var elements: [JSONFragment] {
        if case .array(let values) = self { return values }
        return []
    }

    /// A copy of an object with member `name` set (or removed, for `nil`).
    func setting(_ name: String, _ value: JSONFragment?) -> JSONFragment {
        guard case .object(var members) = self else { return self }
        members[name] = value
        return .object(members)
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// Vector-test helpers over library internals.
enum VectorSupport {
    /// A validated protected header `{"alg":"<alg>"}`, as a token verify would produce it.
    static func header(_ alg: JWSAlgorithm) throws -> JWSHeader {
        try JWSHeader(json: JSONDocument(bytes: Array(#"{"alg":"\#(alg.rawValue)"}"#.utf8)).root, understood: [])
    }

    /// Runs `JWKSet.verifySignature` (key selection, alg/key binding, signature check) for one key.
    @discardableResult
    static func verifySignature(_ key: JWK, _ alg: JWSAlgorithm, message: [UInt8], signature: [UInt8]) throws -> JWK {
        let header = try header(alg)
        return try message.withUnsafeBytes { m in
            try signature.withUnsafeBytes { s in
                try JWKSet(keys: [key]).verifySignature(header: header, signingInput: m, signature: s, keysTriedWithoutKeyID: 1)
            }
        }
    }

    /// Signs exact signing-input octets with a private JWK, through the same primitives
    /// `JWSSigner` uses (for headers `JWSSigner` would not write byte for byte).
    static func sign(_ key: JWK, _ alg: JWSAlgorithm, signingInput: [UInt8]) throws -> [UInt8] {
        try signingInput.withUnsafeBytes { input in
            switch key.material {
            case .symmetric(let secret):
                return try! secret.authenticationCode(alg.hash ?? .sha256, message: input)
            case .asymmetric(let evpKey):
                return try evpKey.signature(alg, message: input)
            }
        }
    }

    /// The error code a throwing expression fails with, or `nil` when it does not throw.
    static func errorCode(_ body: () throws -> Void) -> JOSEError.Code? {
        do {
            try body()
            return nil
        } catch let error as JOSEError {
            // Every failing call leaves this thread's OpenSSL error queue empty.
            #expect(backendErrorQueueIsEmpty(), "OpenSSL error queue not empty after \(error)")
            return error.code
        } catch {
            return JOSEError.Code(rawValue: "non-JOSE error: \(error)")
        }
    }
}

/// Ed25519 signatures held to a vector the way the platform allows.
///
/// Ed25519 as RFC 8032 defines it is deterministic, and OpenSSL and swift-crypto on BoringSSL
/// (Linux) reproduce a vector's signature byte for byte. On Apple platforms the backend is
/// swift-crypto over CryptoKit, whose Ed25519 signatures are randomized: a fresh signature
/// verifies but is not the vector's. There the signing input is compared and the signature
/// verified instead; everywhere else the bytes are compared as well.
extension VectorSupport {
    /// Whether this build's Ed25519 signatures are RFC 8032's deterministic ones (everywhere
    /// but Apple platforms, where CryptoKit signs).
    static var ed25519SignaturesAreDeterministic: Bool {
        #if canImport(Darwin)
        false
        #else
        true
        #endif
    }

    /// Expects `signature`, made by this build over `signingInput`, to stand for the vector
    /// signature `expected` over the same input: it verifies with `publicKey` under `algorithm`
    /// (and so does `expected`), and where signatures are deterministic it is `expected`.
    static func expectEd25519Signature(
        _ signature: [UInt8], matches expected: [UInt8], signingInput: [UInt8], publicKey: JWK,
        algorithm: JWSAlgorithm = .eddsa, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (name, candidate) in [("the signature made", signature), ("the vector's signature", expected)] {
            #expect(
                errorCode { try verifySignature(publicKey, algorithm, message: signingInput, signature: candidate) } == nil,
                "\(name) does not verify", sourceLocation: sourceLocation)
        }
        if ed25519SignaturesAreDeterministic {
            #expect(signature == expected, "Ed25519 is deterministic here: the vector's signature must be reproduced",
                    sourceLocation: sourceLocation)
        }
    }

    /// Expects the compact JWS `token`, signed by this build, to stand for the vector `expected`:
    /// the same protected header and payload (the signing input), and a signature that
    /// ``expectEd25519Signature(_:matches:signingInput:publicKey:algorithm:sourceLocation:)``
    /// accepts for the vector's.
    static func expectEd25519Token(
        _ token: String, matches expected: String, publicKey: JWK, algorithm: JWSAlgorithm = .eddsa,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let made = token.split(separator: ".", omittingEmptySubsequences: false)
        let wanted = expected.split(separator: ".", omittingEmptySubsequences: false)
        try #require(made.count == 3 && wanted.count == 3, "not compact JWS", sourceLocation: sourceLocation)
        #expect(made[0 ..< 2] == wanted[0 ..< 2], "the signing input is not the vector's", sourceLocation: sourceLocation)
        try expectEd25519Signature(
            Base64URL.decode(String(made[2])), matches: Base64URL.decode(String(wanted[2])),
            signingInput: Array(wanted[0 ..< 2].joined(separator: ".").utf8), publicKey: publicKey,
            algorithm: algorithm, sourceLocation: sourceLocation)
    }
}
