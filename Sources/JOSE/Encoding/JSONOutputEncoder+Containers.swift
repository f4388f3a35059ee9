extension JSONOutputEncoder {
    /// The `Encoder` a value writes itself into: one ``Node``.
    struct NodeEncoder: Encoder {
        /// Where the value's JSON goes.
        let node: Node
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            node.makeObject(at: codingPath)
            return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            node.makeArray(at: codingPath)
            return UnkeyedContainer(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleValueContainer(node: node, codingPath: codingPath)
        }
    }

    /// Writes one value into a node that must still be unset.
    struct SingleValueContainer: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        private func set(_ value: JSONOutput) throws {
            guard case .unset = node.content else {
                throw JOSEError.invalidInput("\(describe(codingPath)) is encoded twice")
            }
            node.content = .single(value)
        }

        mutating func encodeNil() throws { try set(.null) }
        mutating func encode(_ value: Bool) throws { try set(.bool(value)) }
        mutating func encode(_ value: String) throws { try set(.string(value)) }
        mutating func encode(_ value: Double) throws { try set(number(value, at: codingPath)) }
        mutating func encode(_ value: Float) throws { try set(floatNumber(value, at: codingPath)) }
        mutating func encode(_ value: Int) throws { try set(integer(value)) }
        mutating func encode(_ value: Int8) throws { try set(integer(value)) }
        mutating func encode(_ value: Int16) throws { try set(integer(value)) }
        mutating func encode(_ value: Int32) throws { try set(integer(value)) }
        mutating func encode(_ value: Int64) throws { try set(integer(value)) }
        mutating func encode(_ value: UInt) throws { try set(integer(value)) }
        mutating func encode(_ value: UInt8) throws { try set(integer(value)) }
        mutating func encode(_ value: UInt16) throws { try set(integer(value)) }
        mutating func encode(_ value: UInt32) throws { try set(integer(value)) }
        mutating func encode(_ value: UInt64) throws { try set(integer(value)) }
        mutating func encode(_ value: some Encodable) throws { try set(output(of: value, at: codingPath)) }
    }

    /// Writes the members of an object node.
    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        /// Adds member `key` with `value`.
        private func add(_ value: JSONOutput, for key: Key) throws {
            let member = Node()
            member.content = .single(value)
            try node.add(member: key.stringValue, member, at: codingPath)
        }

        mutating func encodeNil(forKey key: Key) throws { try add(.null, for: key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { try add(.bool(value), for: key) }
        mutating func encode(_ value: String, forKey key: Key) throws { try add(.string(value), for: key) }
        mutating func encode(_ value: Double, forKey key: Key) throws {
            try add(number(value, at: codingPath + [key]), for: key)
        }
        mutating func encode(_ value: Float, forKey key: Key) throws {
            try add(floatNumber(value, at: codingPath + [key]), for: key)
        }
        mutating func encode(_ value: Int, forKey key: Key) throws { try add(integer(value), for: key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try add(integer(value), for: key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try add(integer(value), for: key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try add(integer(value), for: key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try add(integer(value), for: key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try add(integer(value), for: key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try add(integer(value), for: key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try add(integer(value), for: key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try add(integer(value), for: key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { try add(integer(value), for: key) }
        mutating func encode(_ value: some Encodable, forKey key: Key) throws {
            try add(output(of: value, at: codingPath + [key]), for: key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            NodeEncoder(node: node.member(key.stringValue, at: codingPath), codingPath: codingPath + [key])
                .container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            NodeEncoder(node: node.member(key.stringValue, at: codingPath), codingPath: codingPath + [key])
                .unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            NodeEncoder(node: node.member("super", at: codingPath), codingPath: codingPath + [NameKey("super")])
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            NodeEncoder(node: node.member(key.stringValue, at: codingPath), codingPath: codingPath + [key])
        }
    }

    /// Appends the elements of an array node.
    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int { node.count }

        /// The path of the next element.
        private var nextPath: [any CodingKey] { codingPath + [NameKey(index: node.count)] }

        /// Appends `value`.
        private func append(_ value: JSONOutput) {
            let element = Node()
            element.content = .single(value)
            node.append(element)
        }

        /// Appends an unset element and returns it, for a nested container.
        private func appendNode() -> Node {
            let element = Node()
            node.append(element)
            return element
        }

        mutating func encodeNil() throws { append(.null) }
        mutating func encode(_ value: Bool) throws { append(.bool(value)) }
        mutating func encode(_ value: String) throws { append(.string(value)) }
        mutating func encode(_ value: Double) throws { append(try number(value, at: nextPath)) }
        mutating func encode(_ value: Float) throws { append(try floatNumber(value, at: nextPath)) }
        mutating func encode(_ value: Int) throws { append(integer(value)) }
        mutating func encode(_ value: Int8) throws { append(integer(value)) }
        mutating func encode(_ value: Int16) throws { append(integer(value)) }
        mutating func encode(_ value: Int32) throws { append(integer(value)) }
        mutating func encode(_ value: Int64) throws { append(integer(value)) }
        mutating func encode(_ value: UInt) throws { append(integer(value)) }
        mutating func encode(_ value: UInt8) throws { append(integer(value)) }
        mutating func encode(_ value: UInt16) throws { append(integer(value)) }
        mutating func encode(_ value: UInt32) throws { append(integer(value)) }
        mutating func encode(_ value: UInt64) throws { append(integer(value)) }
        mutating func encode(_ value: some Encodable) throws { append(try output(of: value, at: nextPath)) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let path = nextPath
            return NodeEncoder(node: appendNode(), codingPath: path).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let path = nextPath
            return NodeEncoder(node: appendNode(), codingPath: path).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            let path = nextPath
            return NodeEncoder(node: appendNode(), codingPath: path)
        }
    }

    /// A `Float`, written as its shortest decimal text (so `0.1` stays `0.1`, not the `Double`
    /// nearest the `Float`).
    ///
    /// - Throws: `invalid_input` for NaN or an infinity.
    static func floatNumber(_ value: Float, at path: [any CodingKey]) throws -> JSONOutput {
        guard value.isFinite, let document = try? JSONDocument(text: value.description) else {
            throw JOSEError.invalidInput("\(describe(path)) is \(value), which JSON cannot hold")
        }
        return .raw(document.root)
    }
}
