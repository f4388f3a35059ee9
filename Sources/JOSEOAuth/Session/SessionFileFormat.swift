#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE

/// The JSON form of a ``StoredSession`` in a file or a Keychain item: written with sorted keys,
/// read strictly (one JSON object, no duplicate member, within the library's JSON limits) before
/// it is decoded.
package enum SessionFileFormat {
    /// The session as JSON.
    ///
    /// - Throws: `JOSEError` `session_store_failed` when it cannot be encoded.
    package static func encode(_ session: StoredSession) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(session)) + [UInt8(ascii: "\n")]
        } catch {
            throw JOSEError(.sessionStoreFailed, "cannot encode the session: \(error)")
        }
    }

    /// The session in `bytes`, read from `path` (named in errors).
    ///
    /// - Throws: `JOSEError` `session_store_failed` when the bytes are not one strict JSON object
    ///   holding a session.
    package static func decode(_ bytes: [UInt8], path: String) throws -> StoredSession {
        do {
            guard try JSONDocument(bytes: bytes).root.kind == .object else {
                throw JOSEError.malformed("it is not a JSON object")
            }
        } catch let error as JOSEError {
            throw JOSEError(.sessionStoreFailed, "'\(path)' does not hold a session: \(error.message)")
        }
        do {
            return try JSONDecoder().decode(StoredSession.self, from: Data(bytes))
        } catch {
            throw JOSEError(.sessionStoreFailed, "'\(path)' does not hold a session: \(error)")
        }
    }
}
