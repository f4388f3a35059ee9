import Foundation
import JOSETestSupport
import JOSE
import Testing

/// What happens when OpenSSL itself fails. A small shared object
/// (Tests/FaultInjection/openssl_mac_faults.c), preloaded into the built `jose`, makes libcrypto's
/// `SHA256_Update`, the step of an HMAC-SHA-256 that absorbs the message, fail on demand and ends
/// the process (status 97) if one goes on with an earlier failure still on the thread's OpenSSL
/// error queue.
@Suite(
    "OpenSSL failures (fault injection)",
    .enabled(if: CryptoBackend.current == .openSSL, "it injects faults into OpenSSL's libcrypto"))
struct OpenSSLFaultTests {
    /// The fault library, compiled once per test process from the C source with the system's C
    /// compiler against the same OpenSSL headers the package builds with.
    static let faultLibrary: Swift.Result<URL, JoseProcess.Failure> = {
        let source = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FaultInjection/openssl_mac_faults.c")
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("jose-openssl-faults-\(UUID().uuidString).so")
        let compile: ChildProcess.Completed
        do {
            compile = try ChildProcess.run("/bin/sh", ["-c", #"cc -shared -fPIC -o "$1" "$2" $(pkg-config --cflags --libs openssl) -ldl"#,
                                                       "sh", output.path, source.path])
        } catch {
            return .failure(JoseProcess.Failure(description: "cannot run cc: \(error)"))
        }
        guard compile.status == 0 else {
            return .failure(JoseProcess.Failure(description: "cc could not build \(source.path): \(String(decoding: compile.stderr, as: UTF8.self))"))
        }
        return .success(output)
    }()

    /// Runs `jose` with the fault library preloaded and `faults` set.
    func runWithFaults(_ faults: [String: String], _ arguments: [String], stdin: String? = nil) async throws -> JoseProcess.Result {
        let library = try Self.faultLibrary.get()
        return try await JoseProcess.run(arguments, stdin: stdin, environment: faults.merging(["LD_PRELOAD": library.path]) { a, _ in a })
    }

    func claimsFile() throws -> (scratch: URL, path: String) {
        let scratch = try JoseProcess.makeScratch()
        let path = scratch.appendingPathComponent("claims.json").path
        // Long enough that the signing input spans a whole SHA-256 block, which the HMAC absorbs
        // with SHA256_Update (the step the fault library fails); a shorter one never reaches it.
        try Data(#"{"sub":"alice","scope":"orders:read orders:write"}"#.utf8).write(to: URL(fileURLWithPath: path))
        return (scratch, path)
    }

    /// Before the fix, a failed HMAC gave a token with an empty signature and exit 0.
    @Test func hmacSigningThatFailsInOpenSSLPrintsNoToken() async throws {
        let (scratch, claims) = try claimsFile()
        defer { JoseProcess.removeScratch(scratch) }
        let arguments = ["sign", "--key", JoseProcess.example("hs256.jwk.json"), "--alg", "HS256", claims]

        let failed = try await runWithFaults(["JOSE_FAULT_SHA256_UPDATE": "1"], arguments)
        #expect(failed.status == 2, "\(failed)")
        #expect(failed.stdout.isEmpty, "\(failed)")
        #expect(failed.stderr.contains("invalid_key: OpenSSL could not compute the HMAC"), "\(failed)")
        #expect(failed.stderr.contains("openssl-faults: injected sha256-update=1"), "\(failed)")

        let signed = try await runWithFaults([:], arguments)
        #expect(signed.status == 0, "\(signed)")
        let parts = signed.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts[2].count == 43, "\(signed)")
    }

    /// A MAC that fails while verifying rejects that token only, and leaves nothing behind for
    /// the next one.
    @Test func aFailedMACRejectsOneTokenAndLeavesTheErrorQueueEmpty() async throws {
        let token = try JoseProcess.exampleText("hs256.jwt")
        let result = try await runWithFaults(
            ["JOSE_FAULT_SHA256_UPDATE": "1"],
            ["verify", "--batch", "--key", JoseProcess.example("hs256.jwk.json")],
            stdin: Array(repeating: token, count: 3).joined(separator: "\n") + "\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.lines.count == 3, "\(result)")
        #expect(result.lines.first?.contains(#""code":"invalid_signature""#) == true, "\(result)")
        #expect(result.lines.dropFirst().allSatisfy { $0.contains(#""valid":true"#) }, "\(result)")
        #expect(result.stderr.contains("openssl-faults: injected sha256-update=1"), "\(result)")
    }
}
