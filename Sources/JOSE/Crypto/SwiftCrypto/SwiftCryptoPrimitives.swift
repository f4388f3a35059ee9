#if JOSE_SWIFT_CRYPTO
import Crypto

/// The swift-crypto backend's hashing, randomness (`SymmetricKey`'s generator: the system's
/// CSPRNG) and constant-time comparison.
enum SwiftCryptoPrimitives: BackendPrimitives {
    /// Returns the `hash` digest of `data`.
    static func hash(_ hash: HashAlgorithm, _ data: UnsafeRawBufferPointer) -> [UInt8] {
        switch hash {
        case .sha256: Array(SHA256.hash(data: data))
        case .sha384: Array(SHA384.hash(data: data))
        case .sha512: Array(SHA512.hash(data: data))
        }
    }

    /// Returns `count` (1 ... `Int32.max`) random bytes, drawn at most 4096 at a time (so a bit
    /// count never overflows a 32-bit `Int`).
    static func randomBytes(count: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            let chunk = min(4096, count - bytes.count)
            SymmetricKey(size: SymmetricKeySize(bitCount: chunk * 8)).withUnsafeBytes { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    /// Compares two byte buffers in time that depends only on their lengths: every byte pair is
    /// combined, and only the accumulated difference is tested. Buffers of different lengths
    /// are unequal.
    @inline(never)
    static func constantTimeEquals(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in 0 ..< lhs.count {
            difference |= lhs[index] ^ rhs[index]
        }
        return difference == 0
    }
}
#endif
