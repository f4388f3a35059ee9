import Foundation
import Testing

/// Decodable shapes of the files in `Vectors/rfc/`.

/// `Vectors/rfc/rfc7515_appendix_a.json`.
struct RFC7515Examples: Decodable {
    /// One of A.1–A.4.
    struct Example: Decodable, CustomTestStringConvertible {
        let section: String
        let alg: String
        let deterministic: Bool
        let key: JSONFragment
        let protectedHeaderOctets: [UInt8]
        let payloadOctets: [UInt8]
        let signingInputOctets: [UInt8]
        let signatureOctets: [UInt8]
        let compact: String

        var testDescription: String { "\(section) \(alg)" }
    }

    /// A.5, the unsecured JWS.
    struct Unsecured: Decodable {
        let payloadOctets: [UInt8]
        let compact: String
    }

    let examples: [Example]
    let unsecured: Unsecured

    static func load() throws -> RFC7515Examples {
        try VectorFile.load("rfc/rfc7515_appendix_a.json", as: RFC7515Examples.self)
    }
}

/// `Vectors/rfc/rfc8037_appendix_a.json`.
struct RFC8037Examples: Decodable {
    let privateKey: JSONFragment
    let privateKeyHex: String
    let publicKeyHex: String
    let publicKey: JSONFragment
    let thumbprintCanonicalJSON: String
    let thumbprintSHA256Hex: String
    let thumbprint: String
    let protectedHeader: String
    let payload: String
    let signingInput: String
    let signatureHex: String
    let signature: String
    let compact: String
    let validationCompact: String

    static func load() throws -> RFC8037Examples {
        try VectorFile.load("rfc/rfc8037_appendix_a.json", as: RFC8037Examples.self)
    }
}

/// `Vectors/rfc/rfc7638_section_3_1.json`.
struct RFC7638Example: Decodable {
    let key: JSONFragment
    let canonicalJSON: String
    let sha256Octets: [UInt8]
    let thumbprint: String

    static func load() throws -> RFC7638Example {
        try VectorFile.load("rfc/rfc7638_section_3_1.json", as: RFC7638Example.self)
    }
}

/// `Vectors/rfc/rfc7517_appendix_a_b.json`.
struct RFC7517Examples: Decodable {
    let publicKeys: JSONFragment
    let privateKeys: JSONFragment
    let symmetricKeys: JSONFragment
    let x5cKey: JSONFragment

    static func load() throws -> RFC7517Examples {
        try VectorFile.load("rfc/rfc7517_appendix_a_b.json", as: RFC7517Examples.self)
    }
}

/// A flat JSON object of strings, for small edits of exported JWKs.
struct JSONFragmentObject {
    var members: [String: String]

    init(_ json: String) throws {
        members = try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
    }

    subscript(name: String) -> String? {
        get { members[name] }
        set { members[name] = newValue }
    }

    var json: String { JSONFragment.object(members.mapValues(JSONFragment.string)).json }
}
