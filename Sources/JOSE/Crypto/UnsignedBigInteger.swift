/// An unsigned integer of any size, with only the arithmetic that ``ECPointPolicy`` needs:
/// comparison, addition, subtraction, multiplication and reduction modulo another integer.
///
/// It is for public values only (curve constants, the coordinates of a public key): every
/// operation takes time that depends on the values of its operands, which is harmless for data
/// an attacker already knows and wrong for anything secret. Never give it a private scalar.
///
/// The value is held as 32-bit limbs, least significant first, so that the product of two limbs
/// plus two carries fits a `UInt64`. Multiplication is schoolbook (O(n·m) limb products) and
/// reduction is binary shift-and-subtract (O(bits·n)); a P-521 point check does three of each on
/// numbers of at most 34 limbs, a few microseconds' work.
struct UnsignedBigInteger: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The limbs, least significant first; empty for zero and never with a zero limb at the top,
    /// so that equal values have equal limbs.
    private(set) var limbs: [UInt32]

    /// Wraps limbs (least significant first), dropping zero limbs from the top.
    private init(normalizing limbs: [UInt32]) {
        var limbs = limbs
        while limbs.last == 0 { limbs.removeLast() }
        self.limbs = limbs
    }

    /// Zero.
    static let zero = UnsignedBigInteger(normalizing: [])

    /// The integer that unsigned big-endian bytes encode: leading zeros are allowed, and no bytes
    /// at all is zero.
    init<Bytes: BidirectionalCollection>(bigEndian bytes: Bytes) where Bytes.Element == UInt8 {
        var limbs: [UInt32] = []
        limbs.reserveCapacity((bytes.count + 3) / 4)
        var limb: UInt32 = 0
        var shift: UInt32 = 0
        for byte in bytes.reversed() {
            limb |= UInt32(byte) << shift
            shift += 8
            if shift == 32 {
                limbs.append(limb)
                limb = 0
                shift = 0
            }
        }
        if shift != 0 { limbs.append(limb) }
        self.init(normalizing: limbs)
    }

    /// The integer a hexadecimal numeral spells, spaces between digit groups allowed (the way
    /// SEC 2 and FIPS 186-4 print their constants).
    ///
    /// It is meant for constants in the source: anything but hex digits and spaces is a
    /// programming error and traps.
    init(hex: String) {
        var digits: [UInt8] = hex.unicodeScalars.filter { $0 != " " }.map { scalar in
            guard let digit = UInt8(String(scalar), radix: 16) else {
                preconditionFailure("UnsignedBigInteger(hex:): \(scalar) is not a hexadecimal digit")
            }
            return digit
        }
        if digits.count % 2 == 1 { digits.insert(0, at: 0) }
        let bytes = stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
        self.init(bigEndian: bytes)
    }

    /// A value that fits 64 bits.
    init(_ value: UInt64) {
        self.init(normalizing: [UInt32(truncatingIfNeeded: value), UInt32(truncatingIfNeeded: value >> 32)])
    }

    /// Whether the value is zero.
    var isZero: Bool { limbs.isEmpty }

    /// The number of bits up to and including the highest set one (0 for zero).
    var bitWidth: Int {
        guard let top = limbs.last else { return 0 }
        return limbs.count * 32 - top.leadingZeroBitCount
    }

    /// Bit `index` of the value, counting from the least significant (0); bits above
    /// ``bitWidth`` are 0.
    func bit(_ index: Int) -> Bool {
        let limb = index / 32
        return limb < limbs.count && limbs[limb] >> UInt32(index % 32) & 1 == 1
    }

    /// The value in lowercase hexadecimal, without leading zeros ("0" for zero).
    var description: String {
        guard let top = limbs.last else { return "0" }
        return limbs.dropLast().reversed().reduce(String(top, radix: 16)) { text, limb in
            let digits = String(limb, radix: 16)
            return text + String(repeating: "0", count: 8 - digits.count) + digits
        }
    }

    /// Whether `lhs` is smaller than `rhs`.
    static func < (lhs: UnsignedBigInteger, rhs: UnsignedBigInteger) -> Bool {
        compare(lhs.limbs, rhs.limbs) < 0
    }

    /// The sum.
    static func + (lhs: UnsignedBigInteger, rhs: UnsignedBigInteger) -> UnsignedBigInteger {
        let (long, short) = lhs.limbs.count >= rhs.limbs.count ? (lhs.limbs, rhs.limbs) : (rhs.limbs, lhs.limbs)
        var sum = [UInt32](repeating: 0, count: long.count + 1)
        var carry: UInt64 = 0
        for index in long.indices {
            let total = UInt64(long[index]) + UInt64(index < short.count ? short[index] : 0) + carry
            sum[index] = UInt32(truncatingIfNeeded: total)
            carry = total >> 32
        }
        sum[long.count] = UInt32(carry)
        return UnsignedBigInteger(normalizing: sum)
    }

    /// The difference; `lhs` must not be smaller than `rhs` (there are no negative values), or
    /// this traps.
    static func - (lhs: UnsignedBigInteger, rhs: UnsignedBigInteger) -> UnsignedBigInteger {
        precondition(lhs >= rhs, "UnsignedBigInteger: \(lhs) - \(rhs) is negative")
        var difference = lhs.limbs
        subtract(rhs.limbs, from: &difference)
        return UnsignedBigInteger(normalizing: difference)
    }

    /// The product, by schoolbook multiplication.
    static func * (lhs: UnsignedBigInteger, rhs: UnsignedBigInteger) -> UnsignedBigInteger {
        guard !lhs.isZero, !rhs.isZero else { return .zero }
        var product = [UInt32](repeating: 0, count: lhs.limbs.count + rhs.limbs.count)
        for (i, left) in lhs.limbs.enumerated() {
            var carry: UInt64 = 0
            for (j, right) in rhs.limbs.enumerated() {
                // At most (2^32 - 1)^2 + 2·(2^32 - 1) = 2^64 - 1: no overflow.
                let total = UInt64(left) * UInt64(right) + UInt64(product[i + j]) + carry
                product[i + j] = UInt32(truncatingIfNeeded: total)
                carry = total >> 32
            }
            product[i + rhs.limbs.count] = UInt32(carry)  // still zero: earlier rows end below it
        }
        return UnsignedBigInteger(normalizing: product)
    }

    /// The remainder of `value` divided by `modulus`, which must not be zero (or this traps).
    ///
    /// Binary long division that keeps only the remainder: the dividend's bits are shifted in
    /// from the top, and the modulus is subtracted whenever the remainder reaches it. The
    /// remainder stays below the modulus, so after a doubling it is below twice the modulus and
    /// one limb more than the modulus has always holds it.
    static func % (value: UnsignedBigInteger, modulus: UnsignedBigInteger) -> UnsignedBigInteger {
        precondition(!modulus.isZero, "UnsignedBigInteger: reduction modulo zero")
        guard value >= modulus else { return value }
        var remainder = [UInt32](repeating: 0, count: modulus.limbs.count + 1)
        for index in stride(from: value.bitWidth - 1, through: 0, by: -1) {
            var carry: UInt32 = value.bit(index) ? 1 : 0
            for limb in remainder.indices {
                let shifted = remainder[limb]
                remainder[limb] = shifted << 1 | carry
                carry = shifted >> 31
            }
            if compare(remainder, modulus.limbs) >= 0 {
                subtract(modulus.limbs, from: &remainder)
            }
        }
        return UnsignedBigInteger(normalizing: remainder)
    }

    /// Compares two limb arrays (least significant first) as numbers; missing limbs at the top
    /// count as zero. Returns a negative number, zero or a positive number.
    private static func compare(_ lhs: [UInt32], _ rhs: [UInt32]) -> Int {
        for index in stride(from: max(lhs.count, rhs.count) - 1, through: 0, by: -1) {
            let left = index < lhs.count ? lhs[index] : 0
            let right = index < rhs.count ? rhs[index] : 0
            if left != right { return left < right ? -1 : 1 }
        }
        return 0
    }

    /// Subtracts `subtrahend` from `minuend` in place; the minuend must be at least as large
    /// (callers check), so no borrow is left over.
    private static func subtract(_ subtrahend: [UInt32], from minuend: inout [UInt32]) {
        var borrow: UInt64 = 0
        for index in minuend.indices {
            let right = UInt64(index < subtrahend.count ? subtrahend[index] : 0) + borrow
            let left = UInt64(minuend[index])
            minuend[index] = UInt32(truncatingIfNeeded: left &- right)
            borrow = left < right ? 1 : 0
            if borrow == 0, index >= subtrahend.count { break }
        }
    }
}
