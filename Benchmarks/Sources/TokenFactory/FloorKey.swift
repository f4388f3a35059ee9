import COpenSSLFloor

/// Errors raised while preparing benchmark inputs; any of them aborts the run.
public struct BenchSetupError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    /// Makes an error with a message.
    public init(_ description: String) { self.description = description }
}

/// Owns a generated private key (or HMAC secret) from the C floor.
///
/// Immutable after creation, so sharing it between threads is safe.
public final class FloorKey: @unchecked Sendable {
    /// The algorithm this key signs for.
    public let algorithm: BenchAlgorithm
    /// The owned C key.
    let pointer: OpaquePointer

    /// Generates a fresh key for `algorithm`.
    /// - Throws: ``BenchSetupError`` when OpenSSL cannot generate it.
    public init(algorithm: BenchAlgorithm) throws {
        guard let pointer = jose_floor_key_generate(algorithm.floorAlgorithm) else {
            throw BenchSetupError("key generation failed for \(algorithm)")
        }
        self.algorithm = algorithm
        self.pointer = pointer
    }

    deinit { jose_floor_key_free(pointer) }

    /// Signs a JWS signing input and returns the raw JWS signature bytes.
    /// - Throws: ``BenchSetupError`` when signing fails.
    public func sign(_ input: [UInt8]) throws -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: 512)
        var length = 0
        let ok = input.withUnsafeBufferPointer { inputBuffer in
            signature.withUnsafeMutableBufferPointer { out in
                jose_floor_sign(pointer, inputBuffer.baseAddress, inputBuffer.count,
                                out.baseAddress, out.count, &length)
            }
        }
        guard ok == 1 else { throw BenchSetupError("signing failed for \(algorithm)") }
        return Array(signature[..<length])
    }

    /// Exports one public component (see `jose_floor_component`) as big-endian bytes.
    /// - Throws: ``BenchSetupError`` when the key has no such component.
    public func export(_ component: jose_floor_component) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 1024)
        var length = 0
        let ok = out.withUnsafeMutableBufferPointer { buffer in
            jose_floor_key_export(pointer, component, buffer.baseAddress, buffer.count, &length)
        }
        guard ok == 1 else { throw BenchSetupError("key export failed for \(algorithm)") }
        return Array(out[..<length])
    }
}

/// The version text of the OpenSSL the floor is linked against.
public var linkedOpenSSLVersion: String { String(cString: jose_floor_openssl_version()) }

extension FloorKey {
    /// Lends the C key to `body` (for building floor verifiers in other modules).
    public func withFloorKey<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(pointer) }
    }
}
