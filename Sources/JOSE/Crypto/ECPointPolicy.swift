/// The rule an EC public point must meet before it is accepted: both coordinates lie in the
/// curve's field (`0 ≤ x, y < p`) and satisfy the curve's equation
/// `y² ≡ x³ + a·x + b (mod p)`.
///
/// A point off its curve is the way in of the invalid-curve attacks (CVE-2016-9121 and its
/// class): arithmetic with it happens on another, weaker curve. OpenSSL checks points when it
/// builds a key, but CryptoKit does not document that it does, so the check is made here, in
/// Swift, by both backends, on the coordinates of a JWK (`x`, `y`) and on the SEC 1 point of an
/// SPKI or SEC 1 key, and every refusal carries the same message on both. The affine
/// coordinates (0, 0), which some encoders write for the point at infinity, are never a public
/// key and are refused with their own message (no curve here has `b = 0`, so they are off it too).
///
/// The arithmetic (``UnsignedBigInteger``) is not constant-time: it only ever sees public data.
enum ECPointPolicy {
    /// The parameters of a short-Weierstrass curve `y² = x³ + a·x + b` over the prime field of
    /// `p` elements.
    struct Curve: Sendable {
        /// The field prime `p`.
        let prime: UnsignedBigInteger
        /// The coefficient `a`, below `p`.
        let a: UnsignedBigInteger
        /// The coefficient `b`, below `p`.
        let b: UnsignedBigInteger
    }

    /// P-256 (secp256r1): FIPS 186-4 §D.1.2.3, SEC 2 v2 §2.4.2.
    /// `p = 2^256 − 2^224 + 2^192 + 2^96 − 1`, `a = p − 3`.
    static let p256 = Curve(
        prime: UnsignedBigInteger(hex: "ffffffff 00000001 00000000 00000000 00000000 ffffffff ffffffff ffffffff"),
        a: UnsignedBigInteger(hex: "ffffffff 00000001 00000000 00000000 00000000 ffffffff ffffffff fffffffc"),
        b: UnsignedBigInteger(hex: "5ac635d8 aa3a93e7 b3ebbd55 769886bc 651d06b0 cc53b0f6 3bce3c3e 27d2604b"))

    /// P-384 (secp384r1): FIPS 186-4 §D.1.2.4, SEC 2 v2 §2.5.1.
    /// `p = 2^384 − 2^128 − 2^96 + 2^32 − 1`, `a = p − 3`.
    static let p384 = Curve(
        prime: UnsignedBigInteger(
            hex: "ffffffff ffffffff ffffffff ffffffff ffffffff ffffffff ffffffff fffffffe ffffffff 00000000 00000000 ffffffff"),
        a: UnsignedBigInteger(
            hex: "ffffffff ffffffff ffffffff ffffffff ffffffff ffffffff ffffffff fffffffe ffffffff 00000000 00000000 fffffffc"),
        b: UnsignedBigInteger(
            hex: "b3312fa7 e23ee7e4 988e056b e3f82d19 181d9c6e fe814112 0314088f 5013875a c656398d 8a2ed19d 2a85c8ed d3ec2aef"))

    /// P-521 (secp521r1): FIPS 186-4 §D.1.2.5, SEC 2 v2 §2.6.1. `p = 2^521 − 1`, `a = p − 3`.
    static let p521 = Curve(
        prime: UnsignedBigInteger(hex: "1ff" + String(repeating: "ffffffff", count: 16)),
        a: UnsignedBigInteger(hex: "1ff" + String(repeating: "ffffffff", count: 15) + "fffffffc"),
        b: UnsignedBigInteger(
            hex: "0051 953eb961 8e1c9a1f 929a21a0 b68540ee a2da725b 99b315f3 b8b48991 8ef109e1 56193951 ec7e937b"
                + " 1652c0bd 3bb1bf07 3573df88 3d2c34f1 ef451fd4 6b503f00"))

    /// secp256k1: SEC 2 v2 §2.4.1. `p = 2^256 − 2^32 − 977`, `a = 0`, `b = 7`.
    static let secp256k1 = Curve(
        prime: UnsignedBigInteger(hex: "ffffffff ffffffff ffffffff ffffffff ffffffff ffffffff fffffffe fffffc2f"),
        a: .zero,
        b: UnsignedBigInteger(7))

    /// The parameters of `curve`.
    static func parameters(of curve: EllipticCurve) -> Curve {
        switch curve {
        case .p256: p256
        case .p384: p384
        case .p521: p521
        case .secp256k1: secp256k1
        }
    }

    /// Checks affine coordinates given as unsigned big-endian bytes (leading zeros allowed; the
    /// JWK width is ``ECComponents/check(curve:x:y:d:)``'s business).
    ///
    /// - Throws: ``JOSEError/Code/invalidKey`` for (0, 0), a coordinate not below `p`, or a point
    ///   that does not satisfy the curve's equation.
    static func check<Bytes: BidirectionalCollection>(curve: EllipticCurve, x: Bytes, y: Bytes) throws
    where Bytes.Element == UInt8 {
        let name = curve.rawValue
        let x = UnsignedBigInteger(bigEndian: x), y = UnsignedBigInteger(bigEndian: y)
        if x.isZero, y.isZero {
            throw JOSEError(
                .invalidKey,
                "EC public point is not on the curve: (0, 0) is not a point of \(name) (some encoders write the point "
                    + "at infinity so, and it is never a public key); use the key's real public point")
        }
        let curve = parameters(of: curve)
        for (coordinate, value) in [("x", x), ("y", y)] where value >= curve.prime {
            throw JOSEError(
                .invalidKey,
                "EC public point is not on the curve: \(coordinate) is not below the \(name) field prime p; "
                    + "each coordinate must be its value modulo p, in exactly the curve's width")
        }
        guard isOnCurve(x: x, y: y, curve) else {
            throw JOSEError(
                .invalidKey,
                "EC public point is not on the curve: y² ≠ x³ + a·x + b (mod p) on \(name); check that the key's "
                    + "curve (crv) is the one it was made on and that x and y are its public point, unaltered")
        }
    }

    /// Checks a SEC 1 encoded point (SEC 1 v2 §2.3.3), as an SPKI or a SEC 1 private key holds
    /// it: an uncompressed point (`04 ‖ x ‖ y`) is checked in full; a compressed one
    /// (`02`/`03 ‖ x`) only for `x < p`, since its `y` is not written: the backend works it out,
    /// and the caller then checks the whole point with ``check(curve:x:y:)``.
    ///
    /// - Throws: ``JOSEError/Code/invalidKey`` for the point at infinity (`00`), an encoding of
    ///   another form or length, or a point the coordinate check refuses.
    static func check(curve: EllipticCurve, encodedPoint point: [UInt8]) throws {
        let width = curve.coordinateByteCount
        switch (point.first, point.count) {
        case (0x04?, 1 + 2 * width):
            try check(curve: curve, x: point[1 ... width], y: point[(1 + width)...])
        case (0x02?, 1 + width), (0x03?, 1 + width):
            guard UnsignedBigInteger(bigEndian: point[1...]) < parameters(of: curve).prime else {
                throw JOSEError(
                    .invalidKey,
                    "EC public point is not on the curve: x is not below the \(curve.rawValue) field prime p; "
                        + "each coordinate must be its value modulo p, in exactly the curve's width")
            }
        case (0x00?, 1):
            throw JOSEError(
                .invalidKey,
                "EC public point is not on the curve: it is the point at infinity (the SEC 1 encoding 00), which is "
                    + "never a public key; use the key's real public point")
        default:
            throw JOSEError(
                .invalidKey,
                "EC public point is not on the curve: its encoding is neither uncompressed (04 ‖ x ‖ y) nor "
                    + "compressed (02 or 03 ‖ x) with \(width)-byte coordinates, as SEC 1 §2.3.3 writes \(curve.rawValue) points")
        }
    }

    /// Whether `(x, y)`, both below `p`, satisfies `y² ≡ x³ + a·x + b (mod p)`.
    ///
    /// The right side is evaluated as `(x² mod p + a)·x + b`: at most `2p² + p` before its one
    /// reduction, so three reductions in all.
    static func isOnCurve(x: UnsignedBigInteger, y: UnsignedBigInteger, _ curve: Curve) -> Bool {
        let p = curve.prime
        let left = y * y % p
        let right = ((x * x % p + curve.a) * x + curve.b) % p
        return left == right
    }
}
