import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// HMAC over every message length up to a few blocks, against Python's `hmac` module (an
/// implementation independent of ours).
///
/// The backend pads the last block itself, so every tail length (empty, one byte short of the
/// length field, exactly at it, a whole block) and one or two final blocks must give the
/// standard MAC: lengths 0 to 300 cover every tail of SHA-256's 64-byte blocks and of SHA-384's
/// and SHA-512's 128-byte ones, with a short key and one longer than a block (hashed first).
@Suite("HMAC at every message length", .tags(.addressSanitized))
struct HMACMessageLengthTests {
    /// The message lengths checked.
    static let lengths = 0...300

    /// A key, or a message, of `count` bytes that differ from one position to the next.
    static func bytes(_ count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed) }
    }

    @Test("each length's MAC is Python's, and verifies; one flipped bit does not", arguments: [
        (HashAlgorithm.sha256, "sha256"), (.sha384, "sha384"), (.sha512, "sha512"),
    ], [32, 200])
    func everyLength(_ algorithm: (hash: HashAlgorithm, pythonName: String), keyLength: Int) throws {
        let (hash, pythonName) = algorithm
        let secret = Self.bytes(keyLength, seed: 7)
        let script = """
            import hashlib, hmac, sys
            key = bytes((i * 31 + 7) % 256 for i in range(\(keyLength)))
            for n in range(\(Self.lengths.lowerBound), \(Self.lengths.upperBound + 1)):
                message = bytes((i * 31 + 3) % 256 for i in range(n))
                print(hmac.new(key, message, hashlib.\(pythonName)).hexdigest())
            """
        let completed = try PythonPeers.run(["-c", script])
        #expect(completed.status == 0, "python3 failed: \(String(decoding: completed.stderr, as: UTF8.self))")
        let expected = String(decoding: completed.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        try #require(expected.count == Self.lengths.count)

        let key = try HMACKey(secret: secret)
        for (length, pythonMAC) in zip(Self.lengths, expected) {
            let message = Self.bytes(length, seed: 3)
            let mac = try message.withUnsafeBytes { try key.authenticationCode(hash, message: $0) }
            #expect(mac.map { String(format: "%02x", $0) }.joined() == pythonMAC, "\(hash), \(length) bytes")
            var flipped = mac
            flipped[flipped.count - 1] ^= 1
            message.withUnsafeBytes { message in
                #expect(mac.withUnsafeBytes { key.isValidAuthenticationCode($0, hash: hash, message: message) })
                #expect(!flipped.withUnsafeBytes { key.isValidAuthenticationCode($0, hash: hash, message: message) })
            }
        }
    }
}
