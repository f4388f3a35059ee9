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
    let ecdhRecipientPublicKey: JSONFragment
    let ecdhRecipientPublicKeyHex: String
    let ecdhEphemeralSecretHex: String
    let ecdhEphemeralPublicKeyHex: String
    let ecdhEphemeralPublicKey: JSONFragment
    let ecdhProtectedHeader: JSONFragment
    let ecdhSenderSharedSecretHex: String
    let ecdhReceiverSharedSecretHex: String

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

/// `Vectors/rfc/rfc7520_section_5.json`: the JWE examples of RFC 7520 §5 that have a compact
/// serialization (5.1–5.9).
struct RFC7520JWEExamples: Decodable {
    struct Example: Decodable, CustomTestStringConvertible {
        let section: String
        let alg: String
        let enc: String
        /// `"decrypt"`, or the `JOSEError` code the library refuses the example with.
        let expect: String
        /// The recipient's JWK; `nil` for 5.3, whose key is a password.
        let key: JSONFragment?
        let protectedHeader: JSONFragment
        /// The plaintext as text (its UTF-8 octets are the JWE plaintext).
        let plaintext: String
        let compact: String
        /// 5.3 only: the PBES2 password.
        let password: String?

        var testDescription: String { "\(section) \(alg) \(enc)" }
    }

    let examples: [Example]

    static func load() throws -> RFC7520JWEExamples {
        try VectorFile.load("rfc/rfc7520_section_5.json", as: RFC7520JWEExamples.self)
    }
}

/// `Vectors/rfc/rfc7516_appendix_a.json`: RFC 7516 App. A.1–A.3.
struct RFC7516Examples: Decodable {
    struct Example: Decodable, CustomTestStringConvertible {
        let section: String
        let alg: String
        let enc: String
        /// `"decrypt"`, or the `JOSEError` code the library refuses the example with.
        let expect: String
        let key: JSONFragment
        let protectedHeader: JSONFragment
        let plaintextOctets: [UInt8]
        let compact: String

        var testDescription: String { "\(section) \(alg) \(enc)" }
    }

    let examples: [Example]

    static func load() throws -> RFC7516Examples {
        try VectorFile.load("rfc/rfc7516_appendix_a.json", as: RFC7516Examples.self)
    }
}

/// `Vectors/rfc/rfc7518_appendix_c.json`: the ECDH-ES key agreement and Concat KDF of RFC 7518
/// App. C.
struct RFC7518ConcatKDFExample: Decodable {
    /// Alice's ephemeral key, private part included.
    let ephemeralKey: JSONFragment
    /// Bob's key, private part included.
    let recipientKey: JSONFragment
    let protectedHeader: JSONFragment
    let algorithmID: String
    /// The derived key's length in bits.
    let keyDataLength: Int
    let zOctets: [UInt8]
    let partyUInfoOctets: [UInt8]
    let partyVInfoOctets: [UInt8]
    let otherInfoOctets: [UInt8]
    let round1HashInputOctets: [UInt8]
    let derivedKeyOctets: [UInt8]
    let derivedKey: String

    static func load() throws -> RFC7518ConcatKDFExample {
        try VectorFile.load("rfc/rfc7518_appendix_c.json", as: RFC7518ConcatKDFExample.self)
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
