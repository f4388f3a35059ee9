#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns an `Encodable` value into a ``JSONOutput``, strictly: object members keep the order the
/// value encodes them in, a member encoded twice is refused rather than silently replaced,
/// integers stay exact (`UInt64` included), NaN and infinities are refused, and `Date` becomes
/// a NumericDate (RFC 7519 §2: whole seconds since 1970, rounded down). `URL` is written as its
/// absolute string and `Decimal` as its exact decimal text, as Foundation's `JSONEncoder` does;
/// a ``JSONOutput`` is inserted as it is.
///
/// Foundation's `JSONEncoder` is not used: it sorts members or leaves their order unspecified,
/// writes dates as seconds since 2001 by default, escapes `/`, and its output would be parsed
/// again to sign it.
enum JSONOutputEncoder {
    /// The JSON of `value`.
    ///
    /// - Throws: ``JOSEError`` `invalid_input` naming the path of the value that cannot be
    ///   written (a member encoded twice, a non-finite number, a date outside 1970–9999), or
    ///   wrapping an error the value's own `encode(to:)` threw.
    static func encode(_ value: some Encodable) throws -> JSONOutput {
        do {
            return try output(of: value, at: [])
        } catch let error as JOSEError {
            throw error
        } catch {
            throw JOSEError.invalidInput("the value could not be encoded: \(error)")
        }
    }

    /// The JSON of `value`, found at `path`.
    static func output(of value: some Encodable, at path: [any CodingKey]) throws -> JSONOutput {
        switch value {
        case let json as JSONOutput:
            return json
        case let date as Date:
            return try numericDate(date, at: path)
        case let url as URL:
            return .string(url.absoluteString)
        case let decimal as Decimal:
            guard decimal.isFinite, let document = try? JSONDocument(text: decimal.description) else {
                throw JOSEError.invalidInput("\(describe(path)) is the Decimal \(decimal), which JSON cannot hold")
            }
            return .raw(document.root)
        default:
            let node = Node()
            try value.encode(to: NodeEncoder(node: node, codingPath: path))
            return try node.output(at: path)
        }
    }

    /// `date` as a NumericDate: whole seconds since 1970, rounded down.
    ///
    /// - Throws: `invalid_input` for a date before 1970 or after the year 9999.
    static func numericDate(_ date: Date, at path: [any CodingKey]) throws -> JSONOutput {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, seconds >= 0, seconds < 253_402_300_800 else {
            throw JOSEError.invalidInput("\(describe(path)) is a date outside 1970 to 9999, which is no NumericDate")
        }
        return .integer(Int64(seconds.rounded(.down)))
    }

    /// An integer, exactly: as ``JSONOutput/integer(_:)`` when it fits `Int64`, else as its
    /// decimal text.
    static func integer(_ value: some BinaryInteger) -> JSONOutput {
        if let small = Int64(exactly: value) { return .integer(small) }
        // Digits alone always parse as one JSON number.
        return (try? JSONDocument(text: String(value))).map { .raw($0.root) } ?? .null
    }

    /// A finite floating-point number.
    ///
    /// - Throws: `invalid_input` for NaN or an infinity, which JSON cannot hold.
    static func number(_ value: Double, at path: [any CodingKey]) throws -> JSONOutput {
        guard value.isFinite else {
            throw JOSEError.invalidInput("\(describe(path)) is \(value), which JSON cannot hold")
        }
        return .number(value)
    }

    /// A coding path as messages name it: `the value`, or `"a"."b"[2]`.
    static func describe(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "the value" }
        return path.map { key in key.intValue.map { "[\($0)]" } ?? JOSEError.quoted(key.stringValue) }.joined(separator: ".")
    }
}

extension JSONOutputEncoder {
    /// One value being encoded: unset until something is written, then a single value, an
    /// object or an array. A reference, so that containers handed out earlier keep writing into it.
    final class Node {
        /// What the node holds.
        enum Content {
            /// Nothing written yet.
            case unset
            /// One value.
            case single(JSONOutput)
            /// An object's members, in the order encoded.
            case object([(name: String, node: Node)])
            /// An array's elements, in order.
            case array([Node])
        }

        /// What the node holds.
        var content = Content.unset
        /// The first misuse found where no error could be thrown (a container requested over a
        /// value of another kind), thrown when the output is read.
        var conflict: JOSEError?

        /// Makes the node an object if it is unset; records a conflict when it holds something else.
        func makeObject(at path: [any CodingKey]) {
            switch content {
            case .unset: content = .object([])
            case .object: break
            default: record(JOSEError.invalidInput("\(describe(path)) is encoded both as an object and as another kind"))
            }
        }

        /// Makes the node an array if it is unset; records a conflict when it holds something else.
        func makeArray(at path: [any CodingKey]) {
            switch content {
            case .unset: content = .array([])
            case .array: break
            default: record(JOSEError.invalidInput("\(describe(path)) is encoded both as an array and as another kind"))
            }
        }

        /// Keeps the first conflict.
        func record(_ error: JOSEError) {
            if conflict == nil { conflict = error }
        }

        /// Adds member `name`, whose value `node` holds.
        ///
        /// - Throws: `invalid_input` when the object already has a member `name`.
        func add(member name: String, _ node: Node, at path: [any CodingKey]) throws {
            guard case .object(var members) = content else { return }
            guard !members.contains(where: { $0.name == name }) else {
                throw JOSEError.invalidInput("\(describe(path)) encodes the member \(JOSEError.quoted(name)) twice")
            }
            content = .unset  // (not holding a second reference while appending)
            members.append((name, node))
            content = .object(members)
        }

        /// The member `name` if it exists (for a nested container requested twice), else a new one.
        func member(_ name: String, at path: [any CodingKey]) -> Node {
            if case .object(let members) = content, let existing = members.first(where: { $0.name == name }) {
                return existing.node
            }
            let node = Node()
            do { try add(member: name, node, at: path) } catch { record(error as? JOSEError ?? JOSEError.invalidInput("\(error)")) }
            return node
        }

        /// Appends an element, whose value `node` holds.
        func append(_ node: Node) {
            guard case .array(var elements) = content else { return }
            content = .unset
            elements.append(node)
            content = .array(elements)
        }

        /// The number of elements or members written so far.
        var count: Int {
            switch content {
            case .unset, .single: 0
            case .object(let members): members.count
            case .array(let elements): elements.count
            }
        }

        /// The finished JSON. A value that wrote nothing is an empty object, as it is for
        /// Foundation's encoder.
        ///
        /// - Throws: the first conflict recorded in this node or below it.
        func output(at path: [any CodingKey]) throws -> JSONOutput {
            if let conflict { throw conflict }
            switch content {
            case .unset:
                return .object([])
            case .single(let value):
                return value
            case .object(let members):
                return .object(try members.map { member in
                    (member.name, try member.node.output(at: path + [NameKey(member.name)]))
                })
            case .array(let elements):
                return .array(try elements.enumerated().map { index, element in
                    try element.output(at: path + [NameKey(index: index)])
                })
            }
        }
    }

    /// A coding key made from a member name or an array index.
    struct NameKey: CodingKey {
        let stringValue: String
        let intValue: Int?

        init(_ name: String) {
            stringValue = name
            intValue = nil
        }

        init(index: Int) {
            stringValue = "Index \(index)"
            intValue = index
        }

        init?(stringValue: String) { self.init(stringValue) }

        init?(intValue: Int) { self.init(index: intValue) }
    }
}
