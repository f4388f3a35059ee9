/// The `application/x-www-form-urlencoded` format OAuth uses for authorization request queries,
/// redirect parameters and token request bodies (RFC 6749 Appendix B).
///
/// Encoding keeps `A–Z a–z 0–9 - . _ ~` and percent-encodes every other UTF-8 byte, a space as
/// `%20` (which form decoders read as a space, as they do `+`, and which URL query parsers that
/// do not know the form rules read correctly too). Decoding is strict: a `%` must start two
/// hexadecimal digits, the result must be valid UTF-8, and every pair must have a `=`; `+` is a
/// space.
///
/// ```swift
/// FormURLEncoding.encode([("grant_type", "authorization_code"), ("code", "a b")])
/// // grant_type=authorization_code&code=a%20b
/// ```
package enum FormURLEncoding {
    /// The most parameters ``decode(_:)`` accepts.
    package static let maximumParameterCount = 100

    /// Encodes name–value pairs, in the order given.
    ///
    /// - Parameter parameters: The pairs to encode.
    /// - Returns: `name=value` pairs joined with `&`.
    package static func encode(_ parameters: [(name: String, value: String)]) -> String {
        parameters.map { encode(component: $0.name) + "=" + encode(component: $0.value) }.joined(separator: "&")
    }

    /// Encodes one name or value.
    ///
    /// - Parameter text: The text to encode.
    /// - Returns: The text with every byte outside `A–Z a–z 0–9 - . _ ~` percent-encoded
    ///   (uppercase hexadecimal).
    package static func encode(component text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.append(byte)
            default:
                output.append(UInt8(ascii: "%"))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes `name=value` pairs joined with `&`, in order, keeping duplicates (the caller
    /// decides whether a repeated name is an error). An empty text has no pairs.
    ///
    /// - Parameter text: The encoded text, for example a query without its `?`.
    /// - Returns: The decoded pairs.
    /// - Throws: ``JOSEError`` with code ``JOSEError/Code/malformed`` for an empty pair, a pair
    ///   without `=`, an empty name, a bad percent escape, bytes that are not UTF-8, or more than
    ///   ``maximumParameterCount`` pairs.
    package static func decode(_ text: some StringProtocol) throws -> [(name: String, value: String)] {
        guard !text.isEmpty else { return [] }
        let pairs = text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false)
        guard pairs.count <= maximumParameterCount else {
            throw JOSEError.malformed("more than \(maximumParameterCount) form parameters")
        }
        return try pairs.map { pair in
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else {
                throw JOSEError.malformed("form parameter \(JOSEError.quoted(String(decoding: pair, as: UTF8.self))) has no \"=\"")
            }
            let name = try decode(component: pair[pair.startIndex..<equals])
            guard !name.isEmpty else { throw JOSEError.malformed("a form parameter has an empty name") }
            return (name, try decode(component: pair[pair.index(after: equals)...]))
        }
    }

    /// Decodes one percent-encoded name or value (`+` is a space).
    private static func decode(component bytes: some Collection<UInt8>) throws -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            bytes.formIndex(after: &index)
            switch byte {
            case UInt8(ascii: "+"):
                output.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard index != bytes.endIndex, let high = hexValue(bytes[index]) else {
                    throw JOSEError.malformed("a form parameter has a bad percent escape")
                }
                bytes.formIndex(after: &index)
                guard index != bytes.endIndex, let low = hexValue(bytes[index]) else {
                    throw JOSEError.malformed("a form parameter has a bad percent escape")
                }
                bytes.formIndex(after: &index)
                output.append(high << 4 | low)
            default:
                output.append(byte)
            }
        }
        guard let text = String(validatingUTF8Bytes: output) else {
            throw JOSEError.malformed("a form parameter is not valid UTF-8")
        }
        return text
    }

    /// The value of one hexadecimal digit (either case), or `nil`; also what `DPoPTargetURI`
    /// reads percent-encoded paths with.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
