#if JOSE_SWIFT_CRYPTO
import Crypto

/// The swift-crypto backend's hashing and randomness (`SymmetricKey`'s generator: the system's
/// CSPRNG).
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
}
#endif
