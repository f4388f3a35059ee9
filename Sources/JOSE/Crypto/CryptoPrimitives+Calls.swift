/// One-shot SHA-2 hashing with the compiled backend.
enum Digest {
    /// Returns the `hash` digest of `data`; empty only if the backend fails, which callers
    /// comparing digests treat as a mismatch.
    @inline(__always)
    static func hash(_ hash: HashAlgorithm, _ data: UnsafeRawBufferPointer) -> [UInt8] {
        CryptoPrimitives.hash(hash, data)
    }

    /// Returns the `hash` digest of the bytes of `data`.
    static func hash(_ hash: HashAlgorithm, _ data: [UInt8]) -> [UInt8] {
        data.withUnsafeBytes { CryptoPrimitives.hash(hash, $0) }
    }
}

/// Cryptographically secure random bytes from the compiled backend.
package enum SecureRandom {
    /// Returns `count` random bytes.
    ///
    /// - Throws: ``JOSEError/Code/invalidInput`` for a count outside `0 ... Int32.max`, or when
    ///   the generator fails.
    package static func bytes(count: Int) throws -> [UInt8] {
        guard count >= 0, count <= Int(Int32.max) else {
            throw JOSEError(.invalidInput, "random byte count \(count) is out of range")
        }
        if count == 0 { return [] }
        return try CryptoPrimitives.randomBytes(count: count)
    }
}

/// Compares two byte buffers in time that depends only on their lengths, never on their
/// contents: eight bytes at a time, then one at a time, every difference ORed into one word
/// that is tested once, at the end (no branch on the bytes). Buffers of different lengths are
/// unequal. The same code for every backend (it is not a call into one).
@inline(never)
func constantTimeEquals(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
    guard lhs.count == rhs.count else { return false }
    guard lhs.count > 0, let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
    var difference: UInt64 = 0
    var index = 0
    while index + 8 <= lhs.count {
        difference |= left.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            ^ right.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        index += 8
    }
    while index < lhs.count {
        difference |= UInt64(left.load(fromByteOffset: index, as: UInt8.self) ^ right.load(fromByteOffset: index, as: UInt8.self))
        index += 1
    }
    return difference == 0
}

/// Compares two byte arrays in time that depends only on their lengths, never on their
/// contents. Arrays of different lengths are unequal.
package func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in constantTimeEquals(left, right) } }
}

extension KeyAgreementCurve {
    /// The curve of a key that can serve ECDH-ES; `nil` for every other kind.
    init?(_ kind: AsymmetricKeyKind) {
        switch kind {
        case .ec(.p256): self = .p256
        case .ec(.p384): self = .p384
        case .ec(.p521): self = .p521
        case .okp(.x25519): self = .x25519
        default: return nil
        }
    }
}

extension AsymmetricKey {
    /// A new key pair on an ECDH-ES curve: an EC key on a NIST curve, or an X25519 key.
    static func generate(agreementCurve curve: KeyAgreementCurve) throws -> AsymmetricKey {
        switch curve {
        case .p256: try generate(curve: .p256)
        case .p384: try generate(curve: .p384)
        case .p521: try generate(curve: .p521)
        case .x25519: try generate(okp: .x25519)
        }
    }
}
