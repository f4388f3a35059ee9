import JOSE

extension FuzzTarget {
    /// `Base64URL.decode` is strict (no padding, canonical trailing bits), so whatever it accepts
    /// must encode back to the same text, and any bytes must survive encode then decode.
    static let base64url = FuzzTarget(name: "base64url") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        if let decoded = allowingJOSEError("Base64URL.decode", { try Base64URL.decode(text) }) {
            let again = Base64URL.encode(decoded)
            if again != text { fuzzFailure("decode accepted \(text.debugDescription), which encodes back as \(again)") }
        }
        let encoded = Base64URL.encode(bytes)
        guard let back = allowingJOSEError("decode(encode)", { try Base64URL.decode(encoded) }), back == bytes else {
            fuzzFailure("decode(encode(bytes)) differs for \(bytes.count) bytes")
        }
    }

    /// The strict JSON reader: accepted documents re-serialize to JSON it accepts again, and
    /// writing that second parse gives the same bytes (the writer is a fixed point).
    static let json = FuzzTarget(name: "json") { bytes in
        guard let document = allowingJOSEError("JSONDocument", { try JSONDocument(bytes: bytes) }) else { return }
        let written = document.root.output.serializedBytes()
        guard let reparsed = allowingJOSEError("reparse", { try JSONDocument(bytes: written) }) else {
            fuzzFailure("the reader rejects its own writer's output: \(String(decoding: written, as: UTF8.self))")
        }
        let rewritten = reparsed.root.output.serializedBytes()
        if rewritten != written {
            fuzzFailure("writer not stable: \(String(decoding: written, as: UTF8.self)) vs \(String(decoding: rewritten, as: UTF8.self))")
        }
        // The root's plain-and-compact flag, which `jose verify --batch` trusts to copy the text.
        if document.root.isPlainCompactText != isPlainCompact(bytes) {
            fuzzFailure("plain-and-compact flag \(document.root.isPlainCompactText) for \(String(decoding: bytes, as: UTF8.self))")
        }
        // Walk every value through the accessors the claims and header code use.
        visit(document.root, depth: 0)
    }

    /// Whether an accepted JSON text has no whitespace outside strings, and no escape and no byte
    /// above 0x7F in a string (the reference for ``JSONValue/isPlainCompactText``).
    private static func isPlainCompact(_ bytes: [UInt8]) -> Bool {
        var inString = false
        for byte in bytes {
            if byte >= 0x80 || byte == UInt8(ascii: "\\") { return false }
            if byte == UInt8(ascii: "\"") { inString.toggle() } else if !inString, byte <= 0x20 { return false }
        }
        return true
    }

    /// Reads every value once through the typed accessors.
    private static func visit(_ value: JSONValue, depth: Int) {
        _ = (value.string, value.number, value.integer, value.bool, value.isNull, value.rawBytes.count)
        if let members = value.members {
            for member in members {
                if value[member.key] == nil { fuzzFailure("member \(member.key.debugDescription) not found by name") }
                visit(member.value, depth: depth + 1)
            }
        }
        if let elements = value.elements {
            for (position, element) in elements.enumerated() {
                if value[position] == nil { fuzzFailure("element \(position) not found by position") }
                visit(element, depth: depth + 1)
            }
        }
    }

    /// `UnverifiedJWS(unverified:)`: an accepted token is three canonical base64url parts, so
    /// re-encoding the parts gives back the token.
    static let jwsParts = FuzzTarget(name: "jws-parts") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        guard let jws = allowingJOSEError("UnverifiedJWS", { try UnverifiedJWS(unverified: text) }) else { return }
        let again = [jws.header, jws.payload, jws.signature].map { Base64URL.encode($0) }.joined(separator: ".")
        if again != text { fuzzFailure("parts of \(text.debugDescription) re-encode as \(again)") }
    }
}

extension FuzzTarget {
    /// `JWEDecrypter` over the fuzz keys: only a ``JOSEError`` may come out, and a token that
    /// decrypts decrypts again to the same plaintext once encrypted anew to the same key.
    static let jweDecrypt = FuzzTarget(name: "jwe-decrypt") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        guard let decrypted = allowingJOSEError("decrypt", { try Fixtures.jweDecrypter.decrypt(text) }) else { return }
        _ = (decrypted.header.keyID, decrypted.header.type, decrypted.header.contentType, decrypted.header.string("x"))
        let header = decrypted.header
        let again = allowingJOSEError("encrypt again") {
            try Fixtures.jweDecrypter.decrypt(JWEEncrypter(
                key: decrypted.key.publicKey ?? decrypted.key, keyManagementAlgorithm: header.keyManagementAlgorithm,
                contentEncryptionAlgorithm: header.contentEncryptionAlgorithm
            ).encrypt(decrypted.plaintext))
        }
        if again?.plaintext != decrypted.plaintext {
            fuzzFailure("a decrypted plaintext did not survive encrypting it again to the same key")
        }
    }
}
