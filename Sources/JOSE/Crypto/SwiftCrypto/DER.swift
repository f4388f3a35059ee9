#if JOSE_SWIFT_CRYPTO
/// A strict reader of DER (X.690) for the few key structures the swift-crypto backend decodes
/// itself: single-byte tags, definite minimal lengths, and nothing past the end of the input.
struct DERReader {
    /// Why a structure could not be read; the importer turns it into an `invalid_key` message.
    struct Failure: Error {
        /// What was wrong.
        let reason: String
    }

    /// The bytes not read yet.
    private var remaining: ArraySlice<UInt8>

    /// A reader over `bytes`.
    init(_ bytes: ArraySlice<UInt8>) {
        remaining = bytes
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { remaining.isEmpty }

    /// The tag of the next element, without reading it.
    var nextTag: UInt8? { remaining.first }

    /// Reads one element and returns its tag and contents.
    mutating func readElement() throws(Failure) -> (tag: UInt8, contents: ArraySlice<UInt8>) {
        guard let tag = remaining.first else { throw Failure(reason: "the DER ends early") }
        guard tag & 0x1F != 0x1F else { throw Failure(reason: "a multi-byte DER tag") }
        var index = remaining.index(after: remaining.startIndex)
        guard index < remaining.endIndex else { throw Failure(reason: "the DER ends early") }
        let first = remaining[index]
        index += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard count >= 1, count <= 4, remaining.endIndex - index >= count else {
                throw Failure(reason: "a DER length is not definite")
            }
            for byte in remaining[index ..< index + count] { length = length << 8 | Int(byte) }
            guard remaining[index] != 0, length >= 0x80 else { throw Failure(reason: "a DER length is not minimal") }
            index += count
        }
        guard remaining.endIndex - index >= length else { throw Failure(reason: "the DER ends early") }
        let contents = remaining[index ..< index + length]
        remaining = remaining[(index + length)...]
        return (tag, contents)
    }

    /// Reads one element that must have `tag` and returns its contents.
    mutating func read(_ tag: UInt8) throws(Failure) -> ArraySlice<UInt8> {
        guard nextTag == tag else { throw Failure(reason: "unexpected DER element") }
        return try readElement().contents
    }

    /// Reads an element with `tag` if it is next.
    mutating func readIfPresent(_ tag: UInt8) throws(Failure) -> ArraySlice<UInt8>? {
        nextTag == tag ? try readElement().contents : nil
    }

    /// Reads a non-negative INTEGER as minimal unsigned big-endian bytes (`[0]` for zero).
    mutating func readUnsignedInteger() throws(Failure) -> [UInt8] {
        let contents = try read(DERTag.integer)
        guard let first = contents.first else { throw Failure(reason: "an empty DER INTEGER") }
        guard first & 0x80 == 0 else { throw Failure(reason: "a negative DER INTEGER") }
        if contents.count > 1, first == 0, contents[contents.startIndex + 1] & 0x80 == 0 {
            throw Failure(reason: "a DER INTEGER is not minimal")
        }
        let value = contents.drop { $0 == 0 }
        return value.isEmpty ? [0] : Array(value)
    }

    /// Reads a small non-negative INTEGER (a structure's version).
    mutating func readSmallInteger() throws(Failure) -> Int {
        let bytes = try readUnsignedInteger()
        guard bytes.count <= 2 else { throw Failure(reason: "a DER version is out of range") }
        return bytes.reduce(0) { $0 << 8 | Int($1) }
    }

    /// Reads a BIT STRING with no unused bits and returns its bytes.
    mutating func readBitString() throws(Failure) -> ArraySlice<UInt8> {
        let contents = try read(DERTag.bitString)
        guard contents.first == 0 else { throw Failure(reason: "a DER BIT STRING has unused bits") }
        return contents.dropFirst()
    }

    /// Fails unless every byte has been read.
    func expectEnd() throws(Failure) {
        guard isAtEnd else { throw Failure(reason: "trailing bytes after the DER structure") }
    }
}

/// The DER tags the key structures use.
enum DERTag {
    static let integer: UInt8 = 0x02
    static let bitString: UInt8 = 0x03
    static let octetString: UInt8 = 0x04
    static let null: UInt8 = 0x05
    static let objectIdentifier: UInt8 = 0x06
    static let sequence: UInt8 = 0x30
    /// `[0]`, constructed (EXPLICIT): SEC1's curve, a certificate's version.
    static let contextConstructed0: UInt8 = 0xA0
    /// `[1]`, constructed (EXPLICIT): SEC1's public key.
    static let contextConstructed1: UInt8 = 0xA1
    /// `[1]`, primitive (IMPLICIT): PKCS#8 v2's public key, a certificate's issuerUniqueID.
    static let contextPrimitive1: UInt8 = 0x81
    /// `[2]`, primitive (IMPLICIT): a certificate's subjectUniqueID.
    static let contextPrimitive2: UInt8 = 0x82
    /// `[3]`, constructed (EXPLICIT): a certificate's extensions.
    static let contextConstructed3: UInt8 = 0xA3
}

/// DER encoding of the few structures the swift-crypto backend writes (SPKI, PKCS#1, PKCS#8,
/// SEC1).
enum DERWriter {
    /// One element: tag, minimal definite length, contents.
    static func element(_ tag: UInt8, _ contents: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        if contents.count < 0x80 {
            length = [UInt8(contents.count)]
        } else {
            var count = contents.count
            while count > 0 { length.insert(UInt8(count & 0xFF), at: 0); count >>= 8 }
            length.insert(0x80 | UInt8(length.count), at: 0)
        }
        return [tag] + length + contents
    }

    /// A SEQUENCE of already encoded elements.
    static func sequence(_ elements: [UInt8]...) -> [UInt8] {
        element(DERTag.sequence, elements.flatMap { $0 })
    }

    /// A non-negative INTEGER from unsigned big-endian bytes.
    static func unsignedInteger(_ bytes: [UInt8]) -> [UInt8] {
        var value = Array(bytes.drop { $0 == 0 })
        if value.isEmpty || value[0] & 0x80 != 0 { value.insert(0, at: 0) }
        return element(DERTag.integer, value)
    }

    /// A BIT STRING with no unused bits.
    static func bitString(_ bytes: [UInt8]) -> [UInt8] {
        element(DERTag.bitString, [0] + bytes)
    }

    /// An OCTET STRING.
    static func octetString(_ bytes: [UInt8]) -> [UInt8] {
        element(DERTag.octetString, bytes)
    }

    /// NULL.
    static let null: [UInt8] = [DERTag.null, 0]
}
#endif
