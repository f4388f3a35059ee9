extension JSONOutput {
    /// The JSON of an `Encodable` value, written strictly: object members in the order the
    /// value encodes them, a member encoded twice refused (never silently replaced), integers
    /// exact (`UInt64` included), NaN and infinities refused, `Date` as a NumericDate (whole
    /// seconds since 1970, rounded down, RFC 7519 §2), `URL` as its absolute string, `Decimal`
    /// as its exact decimal text.
    ///
    /// ```swift
    /// struct Order: Encodable { let id: Int; let placed: Date }
    /// let json = try JSONOutput(encoding: Order(id: 7, placed: Date(timeIntervalSince1970: 1_767_229_200.9)))
    /// json.serialized()   // {"id":7,"placed":1767229200}
    /// ```
    ///
    /// - Parameter value: the value to write.
    /// - Throws: ``JOSEError`` `invalid_input` naming the path of what cannot be written, or
    ///   wrapping an error the value's own `encode(to:)` threw.
    package init(encoding value: some Encodable) throws {
        self = try JSONOutputEncoder.encode(value)
    }
}

extension JSONOutput: Encodable {
    /// Writes the value into any encoder. Through ``init(encoding:)`` (and so when signing) it
    /// is inserted exactly as it is; another encoder, such as Foundation's `JSONEncoder`, gets
    /// each number of a ``raw(_:)`` value as an integer when it is one, else as a `Double`.
    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .integer(let number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case .number(let number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let members):
            var container = encoder.container(keyedBy: JSONOutputEncoder.NameKey.self)
            for (name, value) in members { try container.encode(value, forKey: JSONOutputEncoder.NameKey(name)) }
        case .raw(let parsed):
            guard parsed.kind == .number else {
                try parsed.output.encode(to: encoder)
                return
            }
            var container = encoder.singleValueContainer()
            let text = String(decoding: parsed.rawBytes, as: UTF8.self)
            if let whole = Int64(text) {
                try container.encode(whole)
            } else if let whole = UInt64(text) {
                try container.encode(whole)
            } else {
                try container.encode(parsed.number ?? 0)
            }
        }
    }
}
