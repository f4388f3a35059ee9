#if JOSE_SWIFT_CRYPTO
/// Key material decoded from SPKI, PKCS#1, PKCS#8, SEC1 or a certificate, before any backend
/// key is built from it.
enum DecodedKey {
    /// RSA components (public, or private with `d` and the CRT values).
    case rsa(RSAComponents)
    /// An EC point as encoded (uncompressed or compressed) and, for a private key, the scalar.
    case ec(EllipticCurve, point: [UInt8]?, d: [UInt8]?)
    /// An octet key pair: the raw public key and, for a private key, the private key.
    case okp(OKPCurve, x: [UInt8]?, d: [UInt8]?)
}

/// The object identifiers of the key types and curves JOSE uses (contents only, no tag or
/// length).
enum KeyAlgorithmIdentifier {
    /// rsaEncryption, 1.2.840.113549.1.1.1.
    static let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    /// id-ecPublicKey, 1.2.840.10045.2.1.
    static let ecPublicKey: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    /// id-Ed25519, 1.3.101.112.
    static let ed25519: [UInt8] = [0x2B, 0x65, 0x70]
    /// id-Ed448, 1.3.101.113.
    static let ed448: [UInt8] = [0x2B, 0x65, 0x71]
    /// id-X25519, 1.3.101.110 (RFC 8410).
    static let x25519: [UInt8] = [0x2B, 0x65, 0x6E]

    /// The named-curve identifier of `curve`.
    static func namedCurve(_ curve: EllipticCurve) -> [UInt8] {
        switch curve {
        case .p256: [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]  // prime256v1, 1.2.840.10045.3.1.7
        case .p384: [0x2B, 0x81, 0x04, 0x00, 0x22]  // secp384r1, 1.3.132.0.34
        case .p521: [0x2B, 0x81, 0x04, 0x00, 0x23]  // secp521r1, 1.3.132.0.35
        case .secp256k1: [0x2B, 0x81, 0x04, 0x00, 0x0A]  // secp256k1, 1.3.132.0.10
        }
    }

    /// The curve a named-curve identifier stands for.
    static func curve(named identifier: ArraySlice<UInt8>) -> EllipticCurve? {
        EllipticCurve.allCases.first { namedCurve($0)[...] == identifier }
    }

    /// The algorithm identifier of an octet-key-pair curve (RFC 8410).
    static func okp(_ curve: OKPCurve) -> [UInt8] {
        switch curve {
        case .ed25519: ed25519
        case .ed448: ed448
        case .x25519: x25519
        }
    }

    /// The octet-key-pair curve an algorithm identifier stands for.
    static func okpCurve(_ identifier: ArraySlice<UInt8>) -> OKPCurve? {
        OKPCurve.allCases.first { okp($0)[...] == identifier }
    }
}

/// The DER key structures an encoded key can be.
enum KeyStructure: Equatable {
    /// SubjectPublicKeyInfo (`PUBLIC KEY`).
    case subjectPublicKeyInfo
    /// PKCS#1 RSAPublicKey (`RSA PUBLIC KEY`).
    case rsaPublicKey
    /// PKCS#1 RSAPrivateKey (`RSA PRIVATE KEY`).
    case rsaPrivateKey
    /// PKCS#8 PrivateKeyInfo (`PRIVATE KEY`).
    case privateKeyInfo
    /// SEC1 ECPrivateKey (`EC PRIVATE KEY`).
    case ecPrivateKey

    /// The one structure a PEM label (RFC 7468, and OpenSSL's traditional labels) allows.
    init?(pemLabel: String) {
        switch pemLabel {
        case "PUBLIC KEY": self = .subjectPublicKeyInfo
        case "RSA PUBLIC KEY": self = .rsaPublicKey
        case "RSA PRIVATE KEY": self = .rsaPrivateKey
        case "PRIVATE KEY": self = .privateKeyInfo
        case "EC PRIVATE KEY": self = .ecPrivateKey
        default: return nil
        }
    }
}

/// Decoding of the key structures ``SwiftCryptoKey`` imports.
enum KeyDecoder {
    /// The key in a DER SubjectPublicKeyInfo, PKCS#1 RSAPublicKey or RSAPrivateKey, PKCS#8
    /// PrivateKeyInfo or SEC1 ECPrivateKey: the `expected` one (from a PEM label), or for bare
    /// DER whichever the shape shows.
    static func decodeDER(
        _ bytes: ArraySlice<UInt8>, expecting expected: KeyStructure? = nil
    ) throws(DERReader.Failure) -> DecodedKey {
        var outer = DERReader(bytes)
        var body = DERReader(try outer.read(DERTag.sequence))
        try outer.expectEnd()
        let structure = try shape(of: body)
        if let expected, expected != structure {
            throw DERReader.Failure(reason: "the PEM label names another structure than the one inside")
        }
        switch structure {
        case .subjectPublicKeyInfo: return try subjectPublicKeyInfo(&body)
        case .rsaPublicKey: return .rsa(try rsaPublicKey(&body))
        case .rsaPrivateKey: return .rsa(try rsaPrivateKey(&body))
        case .privateKeyInfo: return try privateKeyInfo(&body)
        case .ecPrivateKey: return try ecPrivateKey(&body, curve: nil)
        }
    }

    /// Which structure a SEQUENCE's contents have, told by their first elements.
    private static func shape(of body: DERReader) throws(DERReader.Failure) -> KeyStructure {
        if body.nextTag == DERTag.sequence { return .subjectPublicKeyInfo }
        var probe = body
        _ = try probe.readUnsignedInteger()
        switch probe.nextTag {
        case DERTag.sequence?:
            return .privateKeyInfo
        case DERTag.octetString?:
            return .ecPrivateKey
        case DERTag.integer?:
            _ = try probe.readUnsignedInteger()
            return probe.isAtEnd ? .rsaPublicKey : .rsaPrivateKey
        default:
            throw DERReader.Failure(reason: "not a key structure")
        }
    }

    /// The subject public key of a DER X.509 certificate (nothing else in it is checked).
    static func decodeCertificate(_ bytes: ArraySlice<UInt8>) throws(DERReader.Failure) -> DecodedKey {
        var outer = DERReader(bytes)
        var certificate = DERReader(try outer.read(DERTag.sequence))
        try outer.expectEnd()
        var tbs = DERReader(try certificate.read(DERTag.sequence))
        _ = try certificate.read(DERTag.sequence)  // signatureAlgorithm
        _ = try certificate.readBitString()  // signatureValue
        try certificate.expectEnd()
        _ = try tbs.readIfPresent(DERTag.contextConstructed0)  // version
        _ = try tbs.read(DERTag.integer)  // serialNumber
        _ = try tbs.read(DERTag.sequence)  // signature
        _ = try tbs.read(DERTag.sequence)  // issuer
        _ = try tbs.read(DERTag.sequence)  // validity
        _ = try tbs.read(DERTag.sequence)  // subject
        var spki = DERReader(try tbs.read(DERTag.sequence))
        _ = try tbs.readIfPresent(DERTag.contextPrimitive1)  // issuerUniqueID
        _ = try tbs.readIfPresent(DERTag.contextPrimitive2)  // subjectUniqueID
        _ = try tbs.readIfPresent(DERTag.contextConstructed3)  // extensions
        try tbs.expectEnd()
        return try subjectPublicKeyInfo(&spki)
    }

    /// The contents of a SubjectPublicKeyInfo (RFC 5280 §4.1).
    private static func subjectPublicKeyInfo(_ reader: inout DERReader) throws(DERReader.Failure) -> DecodedKey {
        var algorithm = DERReader(try reader.read(DERTag.sequence))
        let key = Array(try reader.readBitString())
        try reader.expectEnd()
        let identifier = try algorithm.read(DERTag.objectIdentifier)
        if identifier == KeyAlgorithmIdentifier.rsaEncryption[...] {
            try readNullParameters(&algorithm)
            var inner = DERReader(try DERReader(key[...]).readSingle(DERTag.sequence))
            return .rsa(try rsaPublicKey(&inner))
        }
        if identifier == KeyAlgorithmIdentifier.ecPublicKey[...] {
            let curve = try namedCurve(&algorithm)
            return .ec(curve, point: key, d: nil)
        }
        if let curve = KeyAlgorithmIdentifier.okpCurve(identifier) {
            try algorithm.expectEnd()
            return .okp(curve, x: key, d: nil)
        }
        throw DERReader.Failure(reason: "unsupported key type: only RSA, EC, Ed25519/Ed448 and X25519 keys are accepted")
    }

    /// The contents of a PKCS#8 PrivateKeyInfo / OneAsymmetricKey (RFC 5208, RFC 5958).
    private static func privateKeyInfo(_ reader: inout DERReader) throws(DERReader.Failure) -> DecodedKey {
        let version = try reader.readSmallInteger()
        guard version <= 1 else { throw DERReader.Failure(reason: "an unknown PKCS#8 version") }
        var algorithm = DERReader(try reader.read(DERTag.sequence))
        let privateKey = try reader.read(DERTag.octetString)
        _ = try reader.readIfPresent(DERTag.contextConstructed0)  // attributes
        let publicKey = try reader.readIfPresent(DERTag.contextPrimitive1)
        try reader.expectEnd()
        let identifier = try algorithm.read(DERTag.objectIdentifier)
        if identifier == KeyAlgorithmIdentifier.rsaEncryption[...] {
            try readNullParameters(&algorithm)
            var inner = DERReader(try DERReader(privateKey).readSingle(DERTag.sequence))
            return .rsa(try rsaPrivateKey(&inner))
        }
        if identifier == KeyAlgorithmIdentifier.ecPublicKey[...] {
            let curve = try namedCurve(&algorithm)
            var inner = DERReader(try DERReader(privateKey).readSingle(DERTag.sequence))
            return try ecPrivateKey(&inner, curve: curve)
        }
        if let curve = KeyAlgorithmIdentifier.okpCurve(identifier) {
            try algorithm.expectEnd()
            let seed = try DERReader(privateKey).readSingle(DERTag.octetString)
            let x = try publicKey.map { (bits) throws(DERReader.Failure) -> [UInt8] in
                guard bits.first == 0 else { throw DERReader.Failure(reason: "a DER BIT STRING has unused bits") }
                return Array(bits.dropFirst())
            }
            return .okp(curve, x: x, d: Array(seed))
        }
        throw DERReader.Failure(reason: "unsupported key type: only RSA, EC, Ed25519/Ed448 and X25519 keys are accepted")
    }

    /// The contents of a PKCS#1 RSAPublicKey (RFC 8017 §A.1.1).
    private static func rsaPublicKey(_ reader: inout DERReader) throws(DERReader.Failure) -> RSAComponents {
        let n = try reader.readUnsignedInteger()
        let e = try reader.readUnsignedInteger()
        try reader.expectEnd()
        return RSAComponents(modulus: n, exponent: e)
    }

    /// The contents of a PKCS#1 RSAPrivateKey (RFC 8017 §A.1.2), two-prime only.
    private static func rsaPrivateKey(_ reader: inout DERReader) throws(DERReader.Failure) -> RSAComponents {
        guard try reader.readSmallInteger() == 0 else {
            throw DERReader.Failure(reason: "a multi-prime RSA key")
        }
        let n = try reader.readUnsignedInteger()
        let e = try reader.readUnsignedInteger()
        let d = try reader.readUnsignedInteger()
        let primes = RSAPrimes(
            p: try reader.readUnsignedInteger(), q: try reader.readUnsignedInteger(),
            dp: try reader.readUnsignedInteger(), dq: try reader.readUnsignedInteger(),
            qi: try reader.readUnsignedInteger())
        try reader.expectEnd()
        return RSAComponents(modulus: n, exponent: e, privateExponent: d, primes: primes)
    }

    /// The contents of a SEC1 ECPrivateKey (RFC 5915 §3); `curve` is the one named outside it
    /// (PKCS#8), which the inner parameters must agree with.
    private static func ecPrivateKey(
        _ reader: inout DERReader, curve outerCurve: EllipticCurve?
    ) throws(DERReader.Failure) -> DecodedKey {
        guard try reader.readSmallInteger() == 1 else { throw DERReader.Failure(reason: "an unknown SEC1 version") }
        let scalar = try reader.read(DERTag.octetString)
        var curve = outerCurve
        if let parameters = try reader.readIfPresent(DERTag.contextConstructed0) {
            var inner = DERReader(parameters)
            let named = try namedCurve(&inner)
            guard curve == nil || curve == named else { throw DERReader.Failure(reason: "two different curves") }
            curve = named
        }
        var point: [UInt8]? = nil
        if let publicKey = try reader.readIfPresent(DERTag.contextConstructed1) {
            var inner = DERReader(publicKey)
            point = Array(try inner.readBitString())
            try inner.expectEnd()
        }
        try reader.expectEnd()
        guard let curve else { throw DERReader.Failure(reason: "an EC private key without its curve") }
        let width = curve.coordinateByteCount
        let value = scalar.drop { $0 == 0 }
        guard value.count <= width else { throw DERReader.Failure(reason: "an EC private scalar too long for its curve") }
        return .ec(curve, point: point, d: [UInt8](repeating: 0, count: width - value.count) + value)
    }

    /// Reads a named-curve parameter (an OID) and nothing after it.
    private static func namedCurve(_ reader: inout DERReader) throws(DERReader.Failure) -> EllipticCurve {
        let identifier = try reader.read(DERTag.objectIdentifier)
        try reader.expectEnd()
        guard let curve = KeyAlgorithmIdentifier.curve(named: identifier) else {
            throw DERReader.Failure(reason: "EC key is not on P-256, P-384, P-521 or secp256k1 (named curves only)")
        }
        return curve
    }

    /// Reads RSA's parameters: NULL or absent.
    private static func readNullParameters(_ reader: inout DERReader) throws(DERReader.Failure) {
        if let parameters = try reader.readIfPresent(DERTag.null), !parameters.isEmpty {
            throw DERReader.Failure(reason: "RSA parameters are not NULL")
        }
        try reader.expectEnd()
    }
}

extension DERReader {
    /// Reads the one element with `tag` that makes up all of the input.
    func readSingle(_ tag: UInt8) throws(Failure) -> ArraySlice<UInt8> {
        var reader = self
        let contents = try reader.read(tag)
        try reader.expectEnd()
        return contents
    }
}

/// Encoding of the structures ``SwiftCryptoKey`` exports, in the forms OpenSSL writes.
enum KeyEncoder {
    /// The DER SubjectPublicKeyInfo of a key's public part.
    static func subjectPublicKeyInfo(_ components: KeyComponents) -> [UInt8] {
        switch components {
        case .rsa(let rsa):
            return DERWriter.sequence(
                DERWriter.sequence(DERWriter.element(DERTag.objectIdentifier, KeyAlgorithmIdentifier.rsaEncryption), DERWriter.null),
                DERWriter.bitString(rsaPublicKey(rsa)))
        case .ec(let curve, let ec):
            return DERWriter.sequence(
                DERWriter.sequence(
                    DERWriter.element(DERTag.objectIdentifier, KeyAlgorithmIdentifier.ecPublicKey),
                    DERWriter.element(DERTag.objectIdentifier, KeyAlgorithmIdentifier.namedCurve(curve))),
                DERWriter.bitString([0x04] + ec.x + ec.y))
        case .okp(let curve, let okp):
            return DERWriter.sequence(
                DERWriter.sequence(DERWriter.element(DERTag.objectIdentifier, KeyAlgorithmIdentifier.okp(curve))),
                DERWriter.bitString(okp.x))
        }
    }

    /// The DER PKCS#8 PrivateKeyInfo of a private key; `nil` for a public one.
    static func privateKeyInfo(_ components: KeyComponents) -> [UInt8]? {
        switch components {
        case .rsa(let rsa):
            guard let pkcs1 = rsaPrivateKey(rsa) else { return nil }
            return DERWriter.sequence(
                DERWriter.unsignedInteger([0]),
                DERWriter.sequence(DERWriter.element(DERTag.objectIdentifier, KeyAlgorithmIdentifier.rsaEncryption), DERWriter.null),
                DERWriter.octetString(pkcs1))
        case .ec(let curve, let ec):
            guard let d = ec.d else { return nil }
            let sec1 = DERWriter.sequence(
                DERWriter.unsignedInteger([1]), DERWriter.octetString(d),
                DERWriter.element(DERTag.contextConstructed1, DERWriter.bitString([0x04] + ec.x + ec.y)))
            return DERWriter.sequence(
                DERWriter.unsignedInteger([0]),
                DERWriter.sequence(
                    DERWriter.element(DERTag.objectIdentifier, KeyAlgorithmIdentifier.ecPublicKey),
                    DERWriter.element(DERTag.objectIdentifier, KeyAlgorithmIdentifier.namedCurve(curve))),
                DERWriter.octetString(sec1))
        case .okp(let curve, let okp):
            guard let d = okp.d else { return nil }
            return DERWriter.sequence(
                DERWriter.unsignedInteger([0]),
                DERWriter.sequence(DERWriter.element(DERTag.objectIdentifier, KeyAlgorithmIdentifier.okp(curve))),
                DERWriter.octetString(DERWriter.octetString(d)))
        }
    }

    /// The DER PKCS#1 RSAPrivateKey; `nil` without the private exponent and the primes.
    static func rsaPrivateKey(_ rsa: RSAComponents) -> [UInt8]? {
        guard let d = rsa.privateExponent, let primes = rsa.primes else { return nil }
        return DERWriter.sequence(
            DERWriter.unsignedInteger([0]), DERWriter.unsignedInteger(rsa.modulus),
            DERWriter.unsignedInteger(rsa.exponent), DERWriter.unsignedInteger(d),
            DERWriter.unsignedInteger(primes.p), DERWriter.unsignedInteger(primes.q),
            DERWriter.unsignedInteger(primes.dp), DERWriter.unsignedInteger(primes.dq),
            DERWriter.unsignedInteger(primes.qi))
    }

    /// The DER PKCS#1 RSAPublicKey.
    static func rsaPublicKey(_ rsa: RSAComponents) -> [UInt8] {
        DERWriter.sequence(DERWriter.unsignedInteger(rsa.modulus), DERWriter.unsignedInteger(rsa.exponent))
    }
}

/// PEM (RFC 7468) framing: the first block of a text, and writing one.
enum PEM {
    /// The label and DER bytes of the first `-----BEGIN …-----` block of `text`; `nil` when
    /// there is none, its base64 is not strict, or it carries RFC 1421 headers (legacy
    /// encryption).
    static func firstBlock(of text: String) -> (label: String, der: [UInt8])? {
        // "\r\n" is one Character, and a newline like "\n".
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard let begin = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN ") && $0.hasSuffix("-----") }) else {
            return nil
        }
        let label = String(lines[begin].dropFirst("-----BEGIN ".count).dropLast("-----".count))
        guard let end = lines[(begin + 1)...].firstIndex(of: "-----END \(label)-----"[...]) else { return nil }
        var body = ""
        for line in lines[(begin + 1) ..< end] {
            guard !line.contains(":") else { return nil }
            body += line.filter { $0 != " " && $0 != "\t" }
        }
        guard let der = standardBase64Decode(body) else { return nil }
        return (label, der)
    }

    /// `der` as a PEM block with `label`, 64 characters a line.
    static func encode(_ der: [UInt8], label: String) -> String {
        let base64 = Array(standardBase64Encode(der))
        var text = "-----BEGIN \(label)-----\n"
        var start = 0
        while start < base64.count {
            let end = min(start + 64, base64.count)
            text += String(base64[start ..< end]) + "\n"
            start = end
        }
        return text + "-----END \(label)-----\n"
    }

    /// Standard base64 with padding, decoded through the strict base64url decoder.
    private static func standardBase64Decode(_ text: String) -> [UInt8]? {
        let unpadded = text.hasSuffix("==") ? text.dropLast(2) : text.hasSuffix("=") ? text.dropLast(1) : text[...]
        guard (unpadded.count + (text.count - unpadded.count)) % 4 == 0,
              !unpadded.contains("-"), !unpadded.contains("_"), !unpadded.contains("=")
        else { return nil }
        let urlSafe = String(unpadded.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
        return try? Base64URL.decode(urlSafe)
    }

    /// Standard base64 with padding.
    private static func standardBase64Encode(_ bytes: [UInt8]) -> String {
        let urlSafe = Base64URL.encode(bytes).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 }
        return String(urlSafe) + String(repeating: "=", count: (4 - urlSafe.count % 4) % 4)
    }
}
#endif
