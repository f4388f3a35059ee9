import Foundation
import JOSE
import JOSEOAuth

/// Reading and writing a login transaction file (JSON, mode 0600: it holds the PKCE verifier).
///
/// After a successful code exchange the file is replaced by a used marker,
/// `{"used":true,"used_at":<seconds since 1970>}`, which no longer holds the verifier, state or
/// nonce; reading a used file is a usage error that says when it was used.
enum TransactionFile {
    /// Writes `transaction` to `path` with mode 0600, replacing the file atomically (a symlink
    /// at `path` is replaced, never followed).
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when the file cannot be written.
    static func write(_ transaction: LoginTransaction, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(transaction)
        } catch {
            throw CLIFailure.input("cannot encode the login transaction: \(error)")
        }
        try OutputFile.write(String(decoding: data, as: UTF8.self), to: path, what: "transaction file", secret: true)
    }

    /// Reads and validates the transaction in `path`.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when the file cannot be read or is not a valid transaction
    ///   (also when it is not strict JSON: a duplicated member, over the size or nesting limits).
    static func read(_ path: String) throws -> LoginTransaction {
        let bytes = try InputFile.bytes(at: path, what: "transaction file")
        if let marker = usedMarker(bytes) {
            let when = marker["used_at"]?.number.flatMap { ReadableTime(zone: .utc, now: 0).iso8601($0) }
            throw CLIFailure.usage(
                "transaction file '\(path)' was already used: its code was exchanged" + (when.map { " at " + $0 } ?? ""),
                hint: "a login transaction is used once; start a new login with 'jose authorize-url'")
        }
        do {
            return try LoginTransaction(json: bytes)
        } catch let error as JOSEError {
            throw CLIFailure(error, context: "cannot use transaction file '\(path)'")
        }
    }

    /// Replaces the transaction in `path` with the used marker (mode 0600, atomically).
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when the file cannot be written.
    static func markUsed(_ path: String) throws {
        let marker = JSONOutput.object([
            ("used", .bool(true)), ("used_at", .integer(Int64(Date().timeIntervalSince1970.rounded(.down)))),
        ])
        try OutputFile.write(marker.serialized(), to: path, what: "transaction file", secret: true)
    }

    /// The used marker in `bytes`; `nil` for anything else.
    private static func usedMarker(_ bytes: [UInt8]) -> JSONValue? {
        guard let document = try? JSONDocument(bytes: bytes), document.root["used"]?.bool == true else { return nil }
        return document.root
    }
}
