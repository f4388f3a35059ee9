import Testing
@testable import JOSE

/// Builds tokens byte by byte for tests, including ones no honest signer would make.
enum TokenForge {
    /// Keys generated once per test process.
    static let rsa = try! JWK.generate(for: .rs256)
    static let ec256 = try! JWK.generate(for: .es256)
    static let ec384 = try! JWK.generate(for: .es384)
    static let ed25519 = try! JWK.generate(for: .eddsa)
    static let hmac = try! JWK.symmetric(Array("a 32-byte secret for HS256 tests".utf8))
    /// An attacker's key, never in a verifier's key set.
    static let attackerEC = try! JWK.generate(for: .es256)

    /// base64url of UTF-8 text.
    static func b64(_ text: String) -> String { Base64URL.encode(Array(text.utf8)) }

    /// Signs `header.payload` (given as exact JSON text) with `key` under `alg`.
    static func token(
        header: String, payload: String = #"{"sub":"alice"}"#, key: JWK, alg: JWSAlgorithm
    ) -> String {
        let input = b64(header) + "." + b64(payload)
        return input + "." + Base64URL.encode(signature(Array(input.utf8), key: key, alg: alg))
    }

    /// A raw signature of `input`.
    static func signature(_ input: [UInt8], key: JWK, alg: JWSAlgorithm) -> [UInt8] {
        input.withUnsafeBytes { bytes in
            switch key.material {
            case .symmetric(let secret):
                return try! secret.authenticationCode(alg.hash ?? .sha256, message: bytes)
            case .asymmetric(let evp):
                return (try? evp.signature(alg, message: bytes)) ?? []
            }
        }
    }

    /// An HMAC "signature" over `header.payload` keyed with arbitrary bytes.
    static func hmacToken(header: String, payload: String = #"{"sub":"alice"}"#, secret: [UInt8]) -> String {
        let input = b64(header) + "." + b64(payload)
        let key = try! HMACKey(secret: secret)
        let tag = Array(input.utf8).withUnsafeBytes { try! key.authenticationCode(.sha256, message: $0) }
        return input + "." + Base64URL.encode(tag)
    }

    /// Replaces the signature part of `token`.
    static func withSignature(_ token: String, _ signature: [UInt8]) -> String {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        return parts[0] + "." + parts[1] + "." + Base64URL.encode(signature)
    }

    /// The decoded signature of `token`.
    static func signatureBytes(_ token: String) -> [UInt8] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        return (try? Base64URL.decode(parts[2])) ?? []
    }
}

/// The error code `body` throws, or `nil` when it does not throw a ``JOSEError``.
func errorCode<T>(_ body: () throws -> T) -> JOSEError.Code? {
    do {
        _ = try body()
        return nil
    } catch let error as JOSEError {
        // Every failing call leaves this thread's OpenSSL error queue empty.
        #expect(backendErrorQueueIsEmpty(), "OpenSSL error queue not empty after \(error)")
        return error.code
    } catch {
        return nil
    }
}
