import Foundation
import JOSE

/// Turns verified tokens and errors into the CLI's JSON output, keeping each token's member
/// order and exact numbers (the library's strict reader and ``JSONOutput`` writer).
enum JSONRendering {
    /// The JSON value of a JSON text the library produced (a verified header or claims);
    /// `null` should the text not parse, which the library's own output never does.
    static func value(ofJSONText text: String) -> JSONOutput {
        guard let document = try? JSONDocument(text: text) else { return .null }
        return .raw(document.root)
    }

    /// The JSON value of `bytes` when they are one strict JSON text, else `nil`.
    static func value(ofJSONBytes bytes: [UInt8]) -> JSONOutput? {
        guard let document = try? JSONDocument(bytes: bytes) else { return nil }
        return .raw(document.root)
    }

    /// `instant` as a NumericDate: whole seconds since 1970 (rounded down), the rule the
    /// library's own JSON writer follows for a `Date`; the plain number when it is no `Int64`
    /// (the writer refuses such a date, but a stored session's expiry is only shown).
    static func numericDate(_ instant: Date) -> JSONOutput {
        let seconds = instant.timeIntervalSince1970.rounded(.down)
        return Int64(exactly: seconds).map { .integer($0) } ?? .number(seconds)
    }

    /// `{"code":"...","message":"..."}` for a library error.
    static func error(_ error: JOSEError) -> JSONOutput {
        .object([("code", .string(error.code.rawValue)), ("message", .string(error.message))])
    }
}
