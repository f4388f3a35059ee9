import JOSETestSupport
import Testing
@testable import JOSE

/// The pure-Swift EC point check (``ECPointPolicy``), its arithmetic (``UnsignedBigInteger``),
/// and that both backends run it on every road an EC public point comes in by.
@Suite("EC point policy", .tags(.addressSanitized))
struct ECPointPolicyTests {
    typealias Integer = UnsignedBigInteger

    /// The base point G of each curve: SEC 2 v2 §2.4–2.6 and FIPS 186-4 §D.1.2, copied apart
    /// from the curve constants under test, so that G on its curve vouches for p, a and b.
    static let generators: [EllipticCurve: (x: String, y: String)] = [
        .p256: ("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
                "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5"),
        .p384: ("aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7",
                "3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f"),
        .p521: ("00c6858e06b70404e9cd9e3ecb662395b4429c648139053fb521f828af606b4d3dbaa14b5e77efe75928fe1dc127a2ffa8de3348b3c1856a429bf97e7e31c2e5bd66",
                "011839296a789a3bc0045c8a5fb42c7d1bd998f54449579b446817afbd17273e662c97ee72995ef42640c550b9013fad0761353c7086a272c24088be94769fd16650"),
        .secp256k1: ("79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798",
                     "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8"),
    ]

    /// The message of every refusal for a point that fails the equation.
    static let equationMessage = "y² ≠ x³ + a·x + b (mod p)"
    /// The message of every refusal for a coordinate that is not below p.
    static let rangeMessage = "is not below the"

    /// Expects `body` to throw `invalid_key` whose message contains `text` (any, when empty).
    private func expectRefused(
        _ text: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("expected invalid_key (\(text)), nothing was thrown", sourceLocation: sourceLocation)
        } catch let error as JOSEError {
            #expect(error.code == .invalidKey, "\(error)", sourceLocation: sourceLocation)
            #expect(text.isEmpty || error.message.contains(text), "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
        #expect(backendErrorQueueIsEmpty(), "error queue left non-empty", sourceLocation: sourceLocation)
    }

    // MARK: Arithmetic

    /// Sums, differences, products and remainders of 64-bit values agree with the machine's.
    @Test func arithmeticAgreesWithMachineIntegers() {
        var random = SplitMix64(state: 0x5EC2_0001)
        let twoTo64 = Integer(hex: "1 00000000 00000000")
        for _ in 0 ..< 2000 {
            let a = random.next() >> (random.next() % 64), b = random.next() >> (random.next() % 64)
            let (high, low) = a.multipliedFullWidth(by: b)
            #expect(Integer(a) * Integer(b) == Integer(high) * twoTo64 + Integer(low), "\(a) * \(b)")
            let (sum, overflow) = a.addingReportingOverflow(b)
            #expect(Integer(a) + Integer(b) == (overflow ? twoTo64 : .zero) + Integer(sum), "\(a) + \(b)")
            #expect(Integer(max(a, b)) - Integer(min(a, b)) == Integer(max(a, b) - min(a, b)))
            if b != 0 { #expect(Integer(a) % Integer(b) == Integer(a % b), "\(a) % \(b)") }
            #expect((Integer(a) < Integer(b)) == (a < b))
        }
        #expect(Integer.zero.isZero && Integer(0) == .zero && Integer(bigEndian: [0, 0, 0]) == .zero)
        #expect(Integer(bigEndian: [1, 2, 3, 4, 5]) == Integer(0x01_0203_0405))
        #expect(Integer(hex: "0102 03040506") == Integer(bigEndian: [0, 0, 1, 2, 3, 4, 5, 6]))
        #expect(Integer(hex: "0001ff").bitWidth == 9 && Integer.zero.bitWidth == 0)
        #expect(Integer(hex: "00ab0000000c").description == "ab0000000c" && Integer.zero.description == "0")
    }

    /// Multi-limb identities: `(a·m + r) mod m = r`, reduction commutes with products, and
    /// `(2^k − 1)²` has the digits it should.
    @Test func arithmeticOnLargeValues() {
        var random = SplitMix64(state: 0x5EC2_0002)
        /// A random value of up to `limbs` 32-bit limbs.
        func value(limbs: Int) -> Integer {
            Integer(bigEndian: (0 ..< 4 * limbs).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        }
        for _ in 0 ..< 200 {
            let m = value(limbs: 1 + Int(random.next() % 17)) + Integer(1)
            let a = value(limbs: Int(random.next() % 18)), b = value(limbs: Int(random.next() % 18))
            let r = value(limbs: 18) % m
            #expect(r < m)
            #expect((a * m + r) % m == r, "a = \(a), m = \(m)")
            #expect((a * b) % m == ((a % m) * (b % m)) % m)
            #expect(a * b == b * a && (a + b) - b == a)
        }
        for k in [31, 32, 33, 256, 521] {
            let twoToK = Integer(hex: "1" + String(repeating: "0", count: k / 4)) * Integer(UInt64(1) << (k % 4))
            let mersenne = twoToK - Integer(1)
            #expect(mersenne.bitWidth == k && twoToK.bitWidth == k + 1)
            #expect(twoToK % mersenne == Integer(1))
            #expect((mersenne * mersenne) % mersenne == .zero)
            #expect(mersenne * mersenne + twoToK + twoToK == twoToK * twoToK + Integer(1))
        }
    }

    // MARK: Curve constants

    /// Each prime has its published form, `a = p − 3` on the NIST curves, and the SEC 2 base
    /// point lies on its curve (a typo in p, a or b would put it off).
    @Test("Curve constants", arguments: EllipticCurve.allCases)
    func curveConstants(_ curve: EllipticCurve) throws {
        let c = ECPointPolicy.parameters(of: curve)
        /// 2^k.
        func power(_ k: Int) -> Integer {
            Integer(hex: "1" + String(repeating: "0", count: k / 4)) * Integer(UInt64(1) << (k % 4))
        }
        switch curve {
        case .p256: #expect(c.prime + power(224) == power(256) + power(192) + power(96) - Integer(1))
        case .p384: #expect(c.prime + power(128) + power(96) == power(384) + power(32) - Integer(1))
        case .p521: #expect(c.prime == power(521) - Integer(1))
        case .secp256k1: #expect(c.prime + power(32) + Integer(977) == power(256))
        }
        #expect(c.prime.bitWidth == curve.coordinateByteCount * 8 - (curve == .p521 ? 7 : 0))
        #expect(c.a == (curve == .secp256k1 ? .zero : c.prime - Integer(3)))
        #expect(c.b < c.prime)
        let g = try #require(Self.generators[curve])
        let x = hexBytes(g.x), y = hexBytes(g.y)
        #expect(x.count == curve.coordinateByteCount && y.count == curve.coordinateByteCount)
        try ECPointPolicy.check(curve: curve, x: x, y: y)
        // −G = (x, p − y) is on the curve too; G's neighbours are not.
        let negatedY = c.prime - Integer(bigEndian: y)
        #expect(ECPointPolicy.isOnCurve(x: Integer(bigEndian: x), y: negatedY, c))
        #expect(!ECPointPolicy.isOnCurve(x: Integer(bigEndian: x), y: Integer(bigEndian: y) + Integer(1), c))
        #expect(!ECPointPolicy.isOnCurve(x: Integer(bigEndian: x) + Integer(1), y: Integer(bigEndian: y), c))
    }

    // MARK: Points that lie on their curve

    /// Every EC key of RFC 7515 App. A, RFC 7517 App. A and the JOSE Cookbook (RFC 7520 §3)
    /// lies on its curve.
    @Test func publishedKeysLieOnTheirCurves() throws {
        let files = [
            "rfc/rfc7515_appendix_a.json", "rfc/rfc7517_appendix_a_b.json",
            "jose-cookbook/jwk/3_1.ec_public_key.json", "jose-cookbook/jwk/3_2.ec_private_key.json",
        ]
        var checked: [EllipticCurve: Int] = [:]
        for file in files {
            for key in Self.ecKeys(in: try VectorFile.load(file, as: JSONFragment.self)) {
                let curve = try #require(EllipticCurve(rawValue: key["crv"]?.string ?? ""), "\(file)")
                let x = try Base64URL.decode(key["x"]?.string ?? ""), y = try Base64URL.decode(key["y"]?.string ?? "")
                do {
                    try ECPointPolicy.check(curve: curve, x: x, y: y)
                } catch {
                    Issue.record("\(file): \(curve.rawValue) key \(key["kid"]?.string ?? "") refused: \(error)")
                }
                checked[curve, default: 0] += 1
            }
        }
        #expect(checked[.p256, default: 0] >= 3 && checked[.p521, default: 0] >= 3, "\(checked)")
    }

    /// Keys the backend generates lie on their curve, and load back through their coordinates.
    @Test("Generated keys", arguments: EllipticCurve.allCases)
    func generatedKeysLieOnTheirCurves(_ curve: EllipticCurve) throws {
        try skipIfBackendLacks(curve.algorithm)
        for _ in 0 ..< 8 {
            let c = try AsymmetricKey.generate(curve: curve).ecComponents()
            #expect(ECPointPolicy.isOnCurve(
                x: Integer(bigEndian: c.x), y: Integer(bigEndian: c.y), ECPointPolicy.parameters(of: curve)))
            try ECPointPolicy.check(curve: curve, x: c.x, y: c.y)
            _ = try AsymmetricKey.ec(curve: curve, x: c.x, y: c.y, d: c.d)
        }
    }

    // MARK: Points that do not

    /// `(x, y + 1)` is refused by the policy, by `AsymmetricKey.ec` (public and private) and by
    /// a JWK, with the same message on both backends.
    @Test("Off-curve point (y + 1)", arguments: EllipticCurve.allCases)
    func offCurvePointIsRefused(_ curve: EllipticCurve) throws {
        let g = try #require(Self.generators[curve])
        let x = hexBytes(g.x), offCurve = Self.plusOne(hexBytes(g.y))
        expectRefused(Self.equationMessage) { try ECPointPolicy.check(curve: curve, x: x, y: offCurve) }
        try skipIfBackendLacks(curve.algorithm)
        let c = try AsymmetricKey.generate(curve: curve).ecComponents()
        let y = Self.plusOne(c.y)
        expectRefused(Self.equationMessage) { _ = try AsymmetricKey.ec(curve: curve, x: c.x, y: y) }
        expectRefused(Self.equationMessage) { _ = try AsymmetricKey.ec(curve: curve, x: c.x, y: y, d: c.d) }
        expectRefused(Self.equationMessage) { _ = try JWK(json: Self.jwk(curve, x: c.x, y: y)) }
        expectRefused(Self.equationMessage) { _ = try JWK(json: Self.jwk(curve, x: c.x, y: y, d: c.d)) }
        // The same point in an SPKI: refused on both backends (OpenSSL's decoder refuses it before
        // the policy sees it, so only swift-crypto's message is the policy's).
        let spki = Self.subjectPublicKeyInfo(curve, point: [0x04] + c.x + y)
        expectRefused(CryptoBackend.current == .swiftCrypto ? Self.equationMessage : "") {
            _ = try AsymmetricKey.importDER(spki)
        }
        // The untouched point loads through the same roads.
        _ = try AsymmetricKey.importDER(Self.subjectPublicKeyInfo(curve, point: [0x04] + c.x + c.y))
        _ = try JWK(json: Self.jwk(curve, x: c.x, y: c.y))
    }

    /// A coordinate equal to or above p is refused, even where it is right modulo p: on P-521
    /// any point's `x + p` and `y + p` fit the 66-byte width; on P-256 and P-384 a point with a
    /// small x is looked for, so that `x + p` fits their width.
    @Test("Coordinates not below p", arguments: EllipticCurve.allCases)
    func coordinatesNotBelowThePrime(_ curve: EllipticCurve) throws {
        let c = ECPointPolicy.parameters(of: curve)
        let width = curve.coordinateByteCount
        let g = try #require(Self.generators[curve])
        let p = try #require(Self.bytes(c.prime, width: width))
        expectRefused(Self.rangeMessage) { try ECPointPolicy.check(curve: curve, x: p, y: hexBytes(g.y)) }
        expectRefused(Self.rangeMessage) { try ECPointPolicy.check(curve: curve, x: hexBytes(g.x), y: p) }
        let ones = [UInt8](repeating: 0xff, count: width)
        expectRefused(Self.rangeMessage) { try ECPointPolicy.check(curve: curve, x: ones, y: ones) }
        expectRefused(Self.rangeMessage) { try ECPointPolicy.check(curve: curve, encodedPoint: [0x02] + p) }

        // A point whose x + p (or y + p) still fits: equal to the point modulo p.
        let (x, y) = curve == .p521 ? (Integer(bigEndian: hexBytes(g.x)), Integer(bigEndian: hexBytes(g.y)))
            : Self.pointWithSmallX(c)
        #expect(ECPointPolicy.isOnCurve(x: x, y: y, c))
        let xBytes = try #require(Self.bytes(x, width: width)), yBytes = try #require(Self.bytes(y, width: width))
        let xPlusP = try #require(Self.bytes(x + c.prime, width: width), "x + p does not fit \(width) bytes")
        expectRefused(Self.rangeMessage) { try ECPointPolicy.check(curve: curve, x: xPlusP, y: yBytes) }
        if let yPlusP = Self.bytes(y + c.prime, width: width) {
            expectRefused(Self.rangeMessage) { try ECPointPolicy.check(curve: curve, x: xBytes, y: yPlusP) }
        }
        try skipIfBackendLacks(curve.algorithm)
        _ = try AsymmetricKey.ec(curve: curve, x: xBytes, y: yBytes)
        expectRefused(Self.rangeMessage) { _ = try AsymmetricKey.ec(curve: curve, x: xPlusP, y: yBytes) }
        expectRefused(Self.rangeMessage) { _ = try JWK(json: Self.jwk(curve, x: xPlusP, y: yBytes)) }
        expectRefused(Self.rangeMessage) { _ = try AsymmetricKey.ec(curve: curve, x: p, y: yBytes) }
        expectRefused("") { _ = try AsymmetricKey.importDER(Self.subjectPublicKeyInfo(curve, point: [0x04] + xPlusP + yBytes)) }
    }

    /// (0, 0) and the SEC 1 point at infinity (`00`) are refused, and so is any other encoding.
    @Test("Point at infinity", arguments: EllipticCurve.allCases)
    func pointAtInfinityIsRefused(_ curve: EllipticCurve) throws {
        let width = curve.coordinateByteCount
        let zero = [UInt8](repeating: 0, count: width)
        expectRefused("(0, 0)") { try ECPointPolicy.check(curve: curve, x: zero, y: zero) }
        expectRefused("(0, 0)") { try ECPointPolicy.check(curve: curve, encodedPoint: [0x04] + zero + zero) }
        expectRefused("point at infinity") { try ECPointPolicy.check(curve: curve, encodedPoint: [0x00]) }
        expectRefused("neither") { try ECPointPolicy.check(curve: curve, encodedPoint: []) }
        expectRefused("neither") { try ECPointPolicy.check(curve: curve, encodedPoint: [0x04] + zero) }
        expectRefused("neither") { try ECPointPolicy.check(curve: curve, encodedPoint: [0x05] + zero + zero) }
        try skipIfBackendLacks(curve.algorithm)
        expectRefused("(0, 0)") { _ = try AsymmetricKey.ec(curve: curve, x: zero, y: zero) }
        expectRefused("(0, 0)") { _ = try JWK(json: Self.jwk(curve, x: zero, y: zero)) }
        let point = CryptoBackend.current == .swiftCrypto ? "point at infinity" : ""
        expectRefused(point) { _ = try AsymmetricKey.importDER(Self.subjectPublicKeyInfo(curve, point: [0x00])) }
    }

    /// A compressed point in an SPKI loads as the same key on both backends (swift-crypto's
    /// decompression is checked after the fact), and one with x not below p is refused.
    @Test("Compressed points", arguments: EllipticCurve.allCases)
    func compressedPoints(_ curve: EllipticCurve) throws {
        try skipIfBackendLacks(curve.algorithm)
        let c = try AsymmetricKey.generate(curve: curve).ecComponents()
        let compressed = [0x02 | (c.y.last! & 1)] + c.x
        let loaded = try AsymmetricKey.importDER(Self.subjectPublicKeyInfo(curve, point: compressed))
        let again = try loaded.ecComponents()
        #expect(again.x == c.x && again.y == c.y)
        let p = try #require(Self.bytes(ECPointPolicy.parameters(of: curve).prime, width: curve.coordinateByteCount))
        let text = CryptoBackend.current == .swiftCrypto ? Self.rangeMessage : ""
        expectRefused(text) { _ = try AsymmetricKey.importDER(Self.subjectPublicKeyInfo(curve, point: [0x02] + p)) }
    }

    // MARK: Helpers

    /// The EC JWKs (objects with `"kty":"EC"`) anywhere in a JSON value.
    static func ecKeys(in value: JSONFragment) -> [JSONFragment] {
        switch value {
        case .object(let members):
            let own = value["kty"]?.string == "EC" && value["x"] != nil ? [value] : []
            return own + members.keys.sorted().flatMap { ecKeys(in: members[$0]!) }
        case .array(let elements):
            return elements.flatMap(ecKeys(in:))
        default:
            return []
        }
    }

    /// Unsigned big-endian bytes plus one (carrying; wider by a byte only if all were 0xff).
    static func plusOne(_ bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        for index in result.indices.reversed() {
            result[index] &+= 1
            if result[index] != 0 { return result }
        }
        return [1] + result
    }

    /// `value` as exactly `width` big-endian bytes, or `nil` when it does not fit.
    static func bytes(_ value: Integer, width: Int) -> [UInt8]? {
        guard value.bitWidth <= width * 8 else { return nil }
        return (0 ..< width).map { index in
            let bit = (width - 1 - index) * 8
            return (0 ..< 8).reduce(UInt8(0)) { byte, offset in byte | (value.bit(bit + offset) ? 1 << offset : 0) }
        }
    }

    /// `base^exponent mod modulus`, by square-and-multiply over the exponent's bits from
    /// `bitWidth − 1` down to `lowestBit` (so `lowestBit: 2` raises to `exponent / 4`).
    static func power(_ base: Integer, _ exponent: Integer, lowestBit: Int = 0, modulo modulus: Integer) -> Integer {
        var result = Integer(1)
        for index in stride(from: exponent.bitWidth - 1, through: lowestBit, by: -1) {
            result = result * result % modulus
            if exponent.bit(index) { result = result * base % modulus }
        }
        return result
    }

    /// The point with the smallest positive x on the curve. Every prime here is 3 mod 4, so a
    /// square root of r is `r^((p + 1) / 4)` when r is a square.
    static func pointWithSmallX(_ c: ECPointPolicy.Curve) -> (x: Integer, y: Integer) {
        var x = Integer(1)
        while true {
            let right = ((x * x + c.a) * x + c.b) % c.prime
            let y = power(right, c.prime + Integer(1), lowestBit: 2, modulo: c.prime)
            if y * y % c.prime == right { return (x, y) }
            x = x + Integer(1)
        }
    }

    /// A JWK for the coordinates (and scalar).
    static func jwk(_ curve: EllipticCurve, x: [UInt8], y: [UInt8], d: [UInt8]? = nil) -> String {
        let scalar = d.map { #","d":"\#(Base64URL.encode($0))""# } ?? ""
        return #"{"kty":"EC","crv":"\#(curve.rawValue)","x":"\#(Base64URL.encode(x))","y":"\#(Base64URL.encode(y))"\#(scalar)}"#
    }

    /// A SubjectPublicKeyInfo (RFC 5480) holding `point` as it is, whatever its form.
    static func subjectPublicKeyInfo(_ curve: EllipticCurve, point: [UInt8]) -> [UInt8] {
        let ecPublicKey: [UInt8] = [0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]  // 1.2.840.10045.2.1
        let named: [UInt8] = switch curve {
        case .p256: [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]  // 1.2.840.10045.3.1.7
        case .p384: [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x22]  // 1.3.132.0.34
        case .p521: [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x23]  // 1.3.132.0.35
        case .secp256k1: [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x0A]  // 1.3.132.0.10
        }
        /// A DER element: tag, definite length, contents.
        func element(_ tag: UInt8, _ contents: [UInt8]) -> [UInt8] {
            let count = contents.count
            let length: [UInt8] = count < 0x80 ? [UInt8(count)] : count < 0x100 ? [0x81, UInt8(count)]
                : [0x82, UInt8(count >> 8), UInt8(count & 0xff)]
            return [tag] + length + contents
        }
        return element(0x30, element(0x30, ecPublicKey + named) + element(0x03, [0x00] + point))
    }
}
