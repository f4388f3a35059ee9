import Foundation
import JOSE

/// A JWK Set file being edited by `jose jwk set`: its top-level members and its keys, each
/// kept as written (member order and numbers), so an edit changes only what it is asked to.
struct KeySetFile {
    /// The top-level members other than `keys`, in order.
    var otherMembers: [(String, JSONOutput)]
    /// The keys, as written.
    var keys: [JSONOutput]

    /// Reads `path`.
    ///
    /// - Parameter missingIsEmpty: a missing file is an empty set (for `add`).
    /// - Throws: ``CLIFailure`` (exit 2) when the file cannot be read or is not a JWK Set.
    static func read(_ path: String, missingIsEmpty: Bool) throws -> KeySetFile {
        if missingIsEmpty, !FileManager.default.fileExists(atPath: path) {
            return KeySetFile(otherMembers: [], keys: [])
        }
        let bytes = try InputFile.bytes(at: path, what: "JWK Set")
        let context = "cannot use JWK Set '\(path)'"
        let document = try withContext(context) { try JSONDocument(bytes: bytes) }
        guard case .object(let members) = document.root.output,
              let keysMember = members.first(where: { $0.0 == "keys" }), case .array(let keys) = keysMember.1 else {
            throw CLIFailure.input("\(context): it is not a JWK Set (an object with a \"keys\" array)")
        }
        return KeySetFile(otherMembers: members.filter { $0.0 != "keys" }, keys: keys)
    }

    /// The `kid` of every key that has a string one.
    var keyIDs: Set<String> {
        Set(keys.compactMap { key in
            guard case .object(let members) = key, case .string(let kid)? = members.first(where: { $0.0 == "kid" })?.1 else {
                return nil
            }
            return kid
        })
    }

    /// Whether any key carries private members (`d` or an `oct` `k`).
    var hasPrivateKeys: Bool {
        keys.contains { key in
            guard case .object(let members) = key else { return false }
            return members.contains { $0.0 == "d" || $0.0 == "k" }
        }
    }

    /// Removes every key whose `kid` is `keyID`.
    mutating func removeKeys(withID keyID: String) {
        keys.removeAll { key in
            guard case .object(let members) = key, case .string(let kid)? = members.first(where: { $0.0 == "kid" })?.1 else {
                return false
            }
            return kid == keyID
        }
    }

    /// Writes the set to `path`, pretty-printed, replacing the file atomically.
    ///
    /// - Parameter secret: restrict the file to its owner (mode 0600).
    /// - Throws: ``CLIFailure`` (exit 2) when the file cannot be written.
    func write(to path: String, secret: Bool) throws {
        let document = JSONOutput.object([("keys", .array(keys))] + otherMembers)
        try OutputFile.write(document.serialized(pretty: true), to: path, what: "JWK Set", secret: secret)
    }
}
