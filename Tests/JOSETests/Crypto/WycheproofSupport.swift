import Foundation

/// Loading of the Wycheproof vectors in `Vectors/wycheproof/`.
enum Wycheproof {
    /// The package root, found by walking up from this file to the directory holding
    /// `Package.swift`.
    static let packageRoot: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }()

    /// Decodes the vector file `name` from `Vectors/wycheproof/`.
    static func load<Group: Decodable>(_ name: String, as: Group.Type) throws -> File<Group> {
        let url = packageRoot.appendingPathComponent("Vectors/wycheproof/\(name)")
        return try JSONDecoder().decode(File<Group>.self, from: Data(contentsOf: url))
    }

    /// The top level of a vector file.
    struct File<Group: Decodable>: Decodable {
        /// The number of tests the file declares.
        let numberOfTests: Int
        /// The test groups.
        let testGroups: [Group]
    }

    /// One signature verification case.
    struct SignatureTest: Decodable {
        /// The case id, unique in its file.
        let tcId: Int
        /// A description.
        let comment: String
        /// Flags naming the kind of case.
        let flags: [String]
        /// The message, hex.
        let msg: String
        /// The signature, hex.
        let sig: String
        /// `valid`, `invalid` or `acceptable`.
        let result: String
    }

    /// A group of ECDSA P1363 cases.
    struct ECDSAGroup: Decodable {
        /// The raw public key.
        struct PublicKey: Decodable {
            /// The curve name, e.g. `secp256r1`.
            let curve: String
            /// x, two's-complement big-endian hex.
            let wx: String
            /// y, two's-complement big-endian hex.
            let wy: String
        }
        /// The public key.
        let publicKey: PublicKey
        /// The cases.
        let tests: [SignatureTest]
    }

    /// A group of EdDSA cases.
    struct EdDSAGroup: Decodable {
        /// The raw public key.
        struct PublicKey: Decodable {
            /// The curve name, `edwards25519` or `edwards448`.
            let curve: String
            /// The encoded public key, hex.
            let pk: String
        }
        /// The public key.
        let publicKey: PublicKey
        /// The cases.
        let tests: [SignatureTest]
    }

    /// A group of RSA PKCS#1 v1.5 or PSS cases.
    struct RSAGroup: Decodable {
        /// The raw public key.
        struct PublicKey: Decodable {
            /// n, two's-complement big-endian hex.
            let modulus: String
            /// e, big-endian hex.
            let publicExponent: String
        }
        /// The public key.
        let publicKey: PublicKey
        /// The modulus size in bits.
        let keySize: Int
        /// The PSS salt length, for PSS groups.
        let sLen: Int?
        /// The cases.
        let tests: [SignatureTest]
    }

    /// A group of MAC cases.
    struct MACGroup: Decodable {
        /// One MAC case.
        struct Test: Decodable {
            /// The case id.
            let tcId: Int
            /// The key, hex.
            let key: String
            /// The message, hex.
            let msg: String
            /// The (possibly truncated) tag, hex.
            let tag: String
            /// `valid` or `invalid`.
            let result: String
        }
        /// The key size in bits.
        let keySize: Int
        /// The tag size in bits.
        let tagSize: Int
        /// The cases.
        let tests: [Test]
    }
}

/// Decodes hex (both cases) into bytes; invalid hex yields an empty array and fails the test
/// through a later mismatch.
func hexBytes(_ hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(hex.utf8.count / 2)
    var high: UInt8? = nil
    for character in hex.utf8 {
        let nibble: UInt8
        switch character {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): nibble = character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): nibble = character - UInt8(ascii: "A") + 10
        default: return []
        }
        if let h = high { bytes.append(h << 4 | nibble); high = nil } else { high = nibble }
    }
    return high == nil ? bytes : []
}

/// Strips leading zero bytes and left-pads to `width` (for Wycheproof's two's-complement
/// coordinates); returns the stripped value unpadded when it is longer than `width`.
func fixedWidth(_ bytes: [UInt8], _ width: Int) -> [UInt8] {
    let stripped = Array(bytes.drop { $0 == 0 })
    guard stripped.count < width else { return stripped }
    return [UInt8](repeating: 0, count: width - stripped.count) + stripped
}
