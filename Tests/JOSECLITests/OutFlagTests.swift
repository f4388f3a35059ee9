import Foundation
import Testing

/// `--out FILE` on `keygen`, `sign` and `jwk pub`: the file written (mode 0600 for private
/// keys), nothing on stdout.
@Suite("jose --out")
struct OutFlagTests {
    @Test("--out writes keys with mode 0600 and tokens to a file, nothing on stdout")
    func outFiles() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let keyFile = scratch.appendingPathComponent("k.jwk.json").path
        let keygen = try await JoseProcess.run(["keygen", "--alg", "ES256", "--kid", "k1", "--out", keyFile])
        #expect(keygen.status == 0, "\(keygen)")
        #expect(keygen.stdout.isEmpty)
        #expect(try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int == 0o600)
        let tokenFile = scratch.appendingPathComponent("t.jwt").path
        let signed = try await JoseProcess.run(["sign", "--key", keyFile, "--alg", "ES256", "--sub", "x", "--out", tokenFile])
        #expect(signed.status == 0, "\(signed)")
        #expect(signed.stdout.isEmpty)
        let publicFile = scratch.appendingPathComponent("p.jwk.json").path
        #expect(try await JoseProcess.run(["jwk", "pub", keyFile, "--out", publicFile]).status == 0)
        let verified = try await JoseProcess.run(["verify", "--key", publicFile, "-"],
                                                 stdin: try String(contentsOfFile: tokenFile, encoding: .utf8))
        #expect(verified.status == 0, "\(verified)")
        let unwritable = try await JoseProcess.run(["keygen", "--alg", "ES256", "--out", "/nonexistent-dir/k.json"])
        #expect(unwritable.status == 2)
        #expect(unwritable.stdout.isEmpty)
    }
}
