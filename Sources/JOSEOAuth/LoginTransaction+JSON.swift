#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE

extension LoginTransaction {
    /// Reads a transaction stored with ``json()``, strictly: the library's JSON parser first, so
    /// that a duplicated member, trailing garbage or a text over the size limits is refused
    /// (Foundation's `JSONDecoder` alone would take one of the duplicates), then every member
    /// validated as ``init(from:)`` validates it.
    ///
    /// ```swift
    /// let saved = try prepared.transaction.json()      // a secret: keep it until the callback
    /// let transaction = try LoginTransaction(json: saved)
    /// ```
    ///
    /// - Parameter json: The stored JSON text.
    /// - Throws: `JOSEError` `malformed` when the text is not strict JSON (a duplicated member
    ///   among them); `invalid_input` when a member is missing, of the wrong type, or refused.
    public init(json: some DataProtocol) throws {
        let bytes = Array(json)
        _ = try JSONDocument(bytes: bytes)
        do {
            self = try JSONDecoder().decode(LoginTransaction.self, from: Data(bytes))
        } catch let error as JOSEError {
            throw error
        } catch {
            throw JOSEError.invalidInput("the JSON is not a login transaction: a member is missing or of the wrong type (\(error))")
        }
    }

    /// The transaction as JSON, for ``init(json:)`` to read back.
    ///
    /// - Returns: The JSON text's UTF-8 bytes, members in a stable order.
    /// - Throws: `JOSEError` `invalid_input` should the encoder fail.
    public func json() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return try Array(encoder.encode(self))
        } catch {
            throw JOSEError.invalidInput("cannot encode the login transaction: \(error)")
        }
    }
}
