import Foundation
import JOSETestSupport
import Testing

/// `jose jwk`: pub, from-pem, to-pem, set add/remove/list, inspect (file and URL).
@Suite("jose jwk toolbox")
struct KeyToolboxTests {
    /// Runs the `openssl` command line tool (an independent implementation) in `directory`.
    static func openssl(_ arguments: [String], in directory: URL) throws {
        guard try ChildProcess.run("/usr/bin/env", ["openssl"] + arguments, directory: directory.path).status == 0 else { throw JoseProcess.Failure(description: "openssl \(arguments) failed") }
    }

    @Test("pub prints the public half (kid and alg kept, no d); an oct secret is refused")
    func publicHalf() async throws {
        let result = try await JoseProcess.run(["jwk", "pub", JoseProcess.example("es256.private.jwk.json")])
        #expect(result.status == 0, "\(result)")
        let key = try result.jsonObject()
        #expect(key["kid"] as? String == "example-es256")
        #expect(key["d"] == nil)
        #expect(key["x"] != nil)
        let secret = try await JoseProcess.run(["jwk", "pub", JoseProcess.example("hs256.jwk.json")])
        #expect(secret.status == 2)
        #expect(secret.stdout.isEmpty)
    }

    @Test("to-pem / from-pem round trip: PKCS#8 private (mode 0600 with --out), SPKI public, same thumbprint")
    func pemRoundTrip() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let pem = scratch.appendingPathComponent("key.pem").path
        let written = try await JoseProcess.run(["jwk", "to-pem", JoseProcess.example("es256.private.jwk.json"), "--out", pem])
        #expect(written.status == 0, "\(written)")
        #expect(written.stdout.isEmpty)
        let text = try String(contentsOfFile: pem, encoding: .utf8)
        #expect(text.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let mode = try FileManager.default.attributesOfItem(atPath: pem)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // OpenSSL itself reads what we wrote.
        try Self.openssl(["pkey", "-in", pem, "-pubout", "-out", "openssl-public.pem"], in: scratch)
        let publicPEM = try await JoseProcess.run(["jwk", "to-pem", "--public", JoseProcess.example("es256.private.jwk.json")])
        #expect(publicPEM.stdout == (try String(contentsOf: scratch.appendingPathComponent("openssl-public.pem"), encoding: .utf8)))
        let back = try await JoseProcess.run(["jwk", "from-pem", pem, "--kid", "again", "--alg", "ES256"])
        #expect(back.status == 0, "\(back)")
        let object = try back.jsonObject()
        #expect(object["kid"] as? String == "again")
        #expect(object["d"] != nil)
        let original = try await JoseProcess.run(["thumbprint", JoseProcess.example("es256.private.jwk.json")])
        let roundTripped = try await JoseProcess.run(["thumbprint", "-"], stdin: back.stdout)
        #expect(original.stdout == roundTripped.stdout)
        let publicOnly = try await JoseProcess.run(["jwk", "from-pem", "--public", pem])
        #expect(try publicOnly.jsonObject()["d"] == nil)
        let secret = try await JoseProcess.run(["jwk", "to-pem", JoseProcess.example("hs256.jwk.json")])
        #expect(secret.status == 2)
    }

    @Test("from-pem reads an X.509 certificate, PEM and DER, made by openssl; garbage is exit 2")
    func certificate() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        try Self.openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "k.pem"], in: scratch)
        try Self.openssl(["req", "-x509", "-key", "k.pem", "-subj", "/CN=jose-test", "-days", "2", "-out", "c.pem"], in: scratch)
        try Self.openssl(["x509", "-in", "c.pem", "-outform", "DER", "-out", "c.der"], in: scratch)
        let fromKey = try await JoseProcess.run(["jwk", "from-pem", "--public", scratch.appendingPathComponent("k.pem").path])
        for name in ["c.pem", "c.der"] {
            let result = try await JoseProcess.run(["jwk", "from-pem", scratch.appendingPathComponent(name).path])
            #expect(result.status == 0, "\(name) \(result)")
            #expect(try result.jsonObject()["n"] as? String == (try fromKey.jsonObject()["n"] as? String))
            #expect(try result.jsonObject()["d"] == nil)
        }
        // Wherever a key file is read, a PEM certificate gives its key.
        let viaCertificate = try await JoseProcess.run(["thumbprint", scratch.appendingPathComponent("c.pem").path])
        let viaKey = try await JoseProcess.run(["thumbprint", scratch.appendingPathComponent("k.pem").path])
        #expect(viaCertificate.status == 0 && viaCertificate.stdout == viaKey.stdout, "\(viaCertificate)")
        let token = try await JoseProcess.run(["sign", "--key", scratch.appendingPathComponent("k.pem").path, "--alg", "PS256", "--sub", "x"])
        let verified = try await JoseProcess.run(["verify", "--key", scratch.appendingPathComponent("c.pem").path, "-"], stdin: token.stdout)
        #expect(verified.status == 0, "\(verified)")
        let garbage = scratch.appendingPathComponent("g.pem")
        try Data("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8).write(to: garbage)
        let bad = try await JoseProcess.run(["jwk", "from-pem", garbage.path])
        #expect(bad.status == 2, "\(bad)")
        #expect(bad.stderr.contains("invalid_key"))
    }

    @Test("set add (public half, kid or thumbprint), list, remove; duplicates refused; other keys kept as written")
    func keySetEditing() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let file = scratch.appendingPathComponent("jwks.json").path
        let added = try await JoseProcess.run(["jwk", "set", "add", file, JoseProcess.example("es256.private.jwk.json")])
        #expect(added.status == 0, "\(added)")
        let pem = scratch.appendingPathComponent("k.pem").path
        _ = try await JoseProcess.run(["jwk", "to-pem", JoseProcess.example("issuer-rs256.private.jwk.json"), "--out", pem])
        let withoutKid = try await JoseProcess.run(["jwk", "set", "add", file, pem])
        #expect(withoutKid.status == 0, "\(withoutKid)")
        let thumbprint = try await JoseProcess.run(["thumbprint", pem])
        let duplicate = try await JoseProcess.run(["jwk", "set", "add", file, JoseProcess.example("es256.private.jwk.json")])
        #expect(duplicate.status == 2)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!text.contains("\"d\""))
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o644)
        let list = try await JoseProcess.run(["jwk", "set", "list", file])
        #expect(list.status == 0)
        #expect(list.lines.first == "keys: 2 usable, 0 skipped")
        #expect(list.stdout.contains(#"- kid "example-es256" kty=EC crv=P-256 alg=ES256 private=no verifies=ES256 thumbprint="#))
        #expect(list.stdout.contains("kid \"\(thumbprint.stdout.trimmingCharacters(in: .newlines))\" kty=RSA"))
        // The set verifies what the private key signs.
        let token = try await JoseProcess.run(["sign", "--key", JoseProcess.example("es256.private.jwk.json"), "--alg", "ES256", "--sub", "x"])
        #expect(try await JoseProcess.run(["verify", "--jwks", file, "-"], stdin: token.stdout).status == 0)
        let removed = try await JoseProcess.run(["jwk", "set", "remove", file, "--kid", "example-es256"])
        #expect(removed.status == 0, "\(removed)")
        #expect(try await JoseProcess.run(["jwk", "set", "list", file]).lines.first == "keys: 1 usable, 0 skipped")
        let missing = try await JoseProcess.run(["jwk", "set", "remove", file, "--kid", "example-es256"])
        #expect(missing.status == 2)
        let secret = try await JoseProcess.run(["jwk", "set", "add", file, JoseProcess.example("hs256.jwk.json")])
        #expect(secret.status == 2)
        let privateAdd = try await JoseProcess.run(["jwk", "set", "add", "--private", file, JoseProcess.example("hs256.jwk.json"), "--kid", "hs"])
        #expect(privateAdd.status == 0, "\(privateAdd)")
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600)
    }

    @Test("inspect a file: keys, thumbprints, and skipped keys with their reasons")
    func inspectFile() async throws {
        let bundled = try await JoseProcess.run(["jwk", "inspect", JoseProcess.example("jwks.json")])
        #expect(bundled.status == 0, "\(bundled)")
        #expect(bundled.stdout.contains(#"- kid "example-rs256" kty=RSA alg=RS256"#))
        #expect(bundled.stdout.contains("thumbprint="))
        let mixed = #"{"keys":[{"kty":"EC","kid":"bad\u001b","crv":"P-256","x":"AA","y":"AA"},{"kty":"oct","k":"c2hvcnQ"}]}"#
        let result = try await JoseProcess.run(["jwk", "inspect", "-"], stdin: mixed)
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.first == "keys: 0 usable, 2 skipped")
        #expect(result.stdout.contains(#"skipped key #0 kid "bad\u001b": invalid_key"#), "\(result)")
        #expect(result.stdout.contains("skipped key #1: invalid_key"))
        #expect(!result.stdout.contains("\u{1B}"))
        let notASet = try await JoseProcess.run(["jwk", "inspect", JoseProcess.example("claims.json")])
        #expect(notASet.status == 2)
    }

    @Test("inspect a single JWK (public or private, file or stdin) shows it as one key")
    func inspectSingleJWK() async throws {
        let file = JoseProcess.example("es256.private.jwk.json")
        let result = try await JoseProcess.run(["jwk", "inspect", file])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.first == "key: a single JWK (not a set)")
        #expect(result.stdout.contains("kty=EC crv=P-256"), "\(result)")
        #expect(result.stdout.contains("private=yes"), "\(result)")
        let publicKey = try await JoseProcess.run(["jwk", "pub", file])
        let fromStdin = try await JoseProcess.run(["jwk", "inspect", "-"], stdin: publicKey.stdout)
        #expect(fromStdin.status == 0, "\(fromStdin)")
        #expect(fromStdin.stdout.contains("private=no"), "\(fromStdin)")
        let broken = try await JoseProcess.run(["jwk", "inspect", "-"], stdin: #"{"kty":"EC","crv":"P-256","x":"AA"}"#)
        #expect(broken.status == 2, "\(broken)")
        #expect(broken.stderr.hasPrefix("jose: error: "), "\(broken)")
    }

    @Test("inspect a URL: status, Cache-Control, ETag and the cache's computed freshness; failures exit 3")
    func inspectURL() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let jwks = try String(contentsOfFile: JoseProcess.example("jwks.json"), encoding: .utf8)
        try await server.setRoute("/jwks.json", headers: ["Cache-Control": "public, max-age=3600"], body: jwks, etag: "\"v1\"")
        try await server.setRoute("/short", headers: ["Cache-Control": "max-age=5"], body: jwks)
        try await server.setRoute("/none", body: jwks)
        try await server.setRoute("/gone", status: 404, body: "no")
        try await server.setRoute("/html", body: "<html>")
        let result = try await JoseProcess.run(["jwk", "inspect", server.url("/jwks.json").absoluteString])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("status: 200"))
        #expect(result.stdout.contains(#"cache-control: "public, max-age=3600""#))
        #expect(result.stdout.contains(#"etag: "\"v1\"""#))
        #expect(result.stdout.contains("freshness: 3600 s"))
        #expect(result.stdout.contains(#"- kid "example-rs256""#))
        let short = try await JoseProcess.run(["jwk", "inspect", server.url("/short").absoluteString])
        #expect(short.stdout.contains("freshness: 60 s"), "\(short)")
        let none = try await JoseProcess.run(["jwk", "inspect", server.url("/none").absoluteString])
        #expect(none.stdout.contains("cache-control: (none)"))
        #expect(none.stdout.contains("freshness: 600 s"), "\(none)")
        for path in ["/gone", "/html"] {
            let failed = try await JoseProcess.run(["jwk", "inspect", server.url(path).absoluteString])
            #expect(failed.status == 3, "\(path) \(failed)")
            #expect(failed.stderr.contains("jwks_unavailable"))
        }
        let unreachable = try await JoseProcess.run(["jwk", "inspect", "--timeout", "2", "http://127.0.0.1:9/jwks.json"])
        #expect(unreachable.status == 3)
        #expect(unreachable.stderr.contains("transport_failed"), "\(unreachable)")
    }

    @Test func theThumbprintOfAJWKNeedsNoSupportForItsCurve() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let point = #""x":"eb5mfvncu6xVoGKVzocLBwKb_NstzijZWfKBWxb4F5g","y":"SDradyajxGVdpPv8DhEIqP0XtEimhVQZnEfQj_sQ1Lg""#
        // secp256k1 (which the swift-crypto build cannot make) and a curve neither backend makes;
        // the thumbprints are Python's base64url(sha256(canonical JSON)).
        for (curve, expected) in [("secp256k1", "2JF8vg9etJzjFwZwmkvhBLLZ0bfMVVOPivYR5lFtcec"),
                                  ("brainpoolP256r1", "yaY2m7liZXrlZRGSWXJqbWYTBSS1McO5_4VMSLcTlHw")] {
            let file = scratch.appendingPathComponent(curve + ".jwk.json")
            try #"{"kty":"EC","crv":"\#(curve)",\#(point)}"#.write(to: file, atomically: true, encoding: .utf8)
            let result = try await JoseProcess.run(["thumbprint", file.path])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == expected + "\n", "\(result)")
        }
    }
}
