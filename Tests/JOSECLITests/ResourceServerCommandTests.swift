import Foundation
import Testing

/// `jose verify --access-token`, `jose verify --dpop` and `jose dpop`, run as processes.
@Suite("jose verify --access-token / --dpop, jose dpop")
struct ResourceServerCommandTests {
    static let issuer = "https://auth.example.com"
    static let resource = "https://api.example.com"
    static let url = "https://api.example.com/orders"

    /// A scratch folder with a client key (the bundled ES256 key), and access tokens signed by
    /// the bundled RS256 issuer key: `bound.jwt` (cnf.jkt of the client key), `plain.jwt`,
    /// and `id.jwt` (typ JWT).
    struct Setup {
        let folder: URL
        let clientKey: String
        let issuerKey: String

        init() async throws {
            folder = try JoseProcess.makeScratch()
            clientKey = JoseProcess.example("es256.private.jwk.json")
            issuerKey = JoseProcess.example("issuer-rs256.private.jwk.json")
            let thumbprint = try await JoseProcess.run(["thumbprint", clientKey]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let claims = { (extra: String) in
                #"{"iss":"\#(issuer)","exp":4102444800,"aud":"\#(resource)","sub":"alice","client_id":"app","iat":1800000000,"jti":"t1","scope":"orders:read profile"\#(extra)}"#
            }
            for (name, extra, type) in [("bound", #","cnf":{"jkt":"\#(thumbprint)"}"#, "at+jwt"), ("plain", "", "at+jwt"), ("id", "", "JWT")] {
                let result = try await JoseProcess.run(["sign", "--key", issuerKey, "--alg", "RS256", "--typ", type, "-"], stdin: claims(extra))
                guard result.status == 0 else { throw JoseProcess.Failure(description: "sign failed: \(result)") }
                try Data(result.stdout.utf8).write(to: folder.appendingPathComponent(name + ".jwt"))
            }
        }

        func token(_ name: String) throws -> String {
            try String(contentsOf: folder.appendingPathComponent(name + ".jwt"), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }

        var verifyArguments: [String] {
            ["verify", "--key", issuerKey, "--iss", issuer, "--aud", resource, "--now", "1800000030"]
        }

        func proof(method: String = "GET", url: String = ResourceServerCommandTests.url, token: String?, now: String = "1800000020") async throws -> String {
            var arguments = ["dpop", "--key", clientKey, "--htm", method, "--htu", url, "--now", now]
            if let token { arguments += ["--ath-token", token] }
            let result = try await JoseProcess.run(arguments)
            guard result.status == 0 else { throw JoseProcess.Failure(description: "dpop failed: \(result)") }
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    @Test("--access-token: a valid token with its scopes; missing scope and an ID token are rejected")
    func accessTokenRules() async throws {
        let setup = try await Setup()
        defer { JoseProcess.removeScratch(setup.folder) }
        let valid = try await JoseProcess.run(setup.verifyArguments + ["--access-token", "--scope", "orders:read", "--json", try setup.token("plain")])
        #expect(valid.status == 0, "\(valid)")
        #expect((try valid.jsonObject()["claims"] as? [String: Any])?["client_id"] as? String == "app")

        let scope = try await JoseProcess.run(setup.verifyArguments + ["--access-token", "--scope", "orders:write", try setup.token("plain")])
        #expect(scope.status == 1 && scope.stderr.contains("insufficient_scope"), "\(scope)")

        let list = try await JoseProcess.run(setup.verifyArguments + ["--access-token", "--scope", "orders:read profile", try setup.token("plain")])
        #expect(list.status == 0, "a space-separated --scope is split: \(list)")
        let listMissing = try await JoseProcess.run(setup.verifyArguments + ["--access-token", "--scope", "profile orders:write", try setup.token("plain")])
        #expect(listMissing.status == 1 && listMissing.stderr.contains("insufficient_scope"), "\(listMissing)")
        let empty = try await JoseProcess.run(setup.verifyArguments + ["--access-token", "--scope", " ", try setup.token("plain")])
        #expect(empty.status == 2, "\(empty)")

        let idToken = try await JoseProcess.run(setup.verifyArguments + ["--access-token", "--json", try setup.token("id")])
        #expect(idToken.status == 1, "\(idToken)")
        #expect((try idToken.jsonObject()["error"] as? [String: Any])?["code"] as? String == "invalid_type")
    }

    @Test("--access-token needs --iss and one --aud; --scope needs --access-token; --htm/--htu need --dpop")
    func usageErrors() async throws {
        for arguments in [["verify", "--key", JoseProcess.example("es256.private.jwk.json"), "--access-token", "x"],
                          ["verify", "--key", JoseProcess.example("es256.private.jwk.json"), "--scope", "a", "x"],
                          ["verify", "--key", JoseProcess.example("es256.private.jwk.json"), "--htm", "GET", "x"],
                          ["verify", "--key", JoseProcess.example("es256.private.jwk.json"), "--dpop", "p", "--htm", "GET", "--htu", "/relative", "x"],
                          ["verify", "--key", JoseProcess.example("es256.private.jwk.json"), "--iss", "i", "--aud", "a", "--access-token", "--id-token", "x"],
                          ["dpop", "--key", JoseProcess.example("es256.private.jwk.json"), "--htm", "GET", "--htu", "ftp://x/"],
                          ["dpop", "--key", JoseProcess.example("es256.private.jwk.json"), "--htm", "GET", "--htu", "/relative"],
                          ["dpop", "--key", JoseProcess.example("hs256.jwk.json"), "--htm", "GET", "--htu", "https://x/"]] {
            let result = try await JoseProcess.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result)")
        }
    }

    @Test("--dpop: a proof from jose dpop verifies with the bound token; wrong htm/htu, another token or an unbound token fail")
    func dpopProofs() async throws {
        let setup = try await Setup()
        defer { JoseProcess.removeScratch(setup.folder) }
        let bound = try setup.token("bound")
        let proof = try await setup.proof(token: bound)
        let request = ["--dpop", proof, "--htm", "GET", "--htu", Self.url + "?page=2"]
        let valid = try await JoseProcess.run(setup.verifyArguments + ["--access-token", "--json"] + request + [bound])
        #expect(valid.status == 0, "\(valid)")
        let dpop = try #require(try valid.jsonObject()["dpop"] as? [String: Any])
        let thumbprint = try await JoseProcess.run(["thumbprint", setup.clientKey]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(dpop["jkt"] as? String == thumbprint)
        #expect((dpop["header"] as? [String: Any])?["typ"] as? String == "dpop+jwt")

        let cases: [([String], String)] = [
            (["--dpop", proof, "--htm", "POST", "--htu", Self.url, bound], "invalid_dpop_proof"),
            (["--dpop", proof, "--htm", "GET", "--htu", Self.url + "/1", bound], "invalid_dpop_proof"),
            (["--dpop", try await setup.proof(token: try setup.token("plain")), "--htm", "GET", "--htu", Self.url, try setup.token("plain")], "invalid_token_binding"),
            (["--dpop", try await setup.proof(token: nil), "--htm", "GET", "--htu", Self.url, bound], "invalid_dpop_proof"),
            (["--dpop", try await setup.proof(token: bound, now: "1800000900"), "--htm", "GET", "--htu", Self.url, bound], "invalid_dpop_proof"),
        ]
        for (arguments, code) in cases {
            let result = try await JoseProcess.run(setup.verifyArguments + ["--json"] + arguments)
            #expect(result.status == 1, "\(result)")
            #expect((try result.jsonObject()["error"] as? [String: Any])?["code"] as? String == code, "\(result)")
        }
    }

    @Test("jose dpop prints a proof with the asked claims and a public jwk")
    func dpopCommand() async throws {
        let result = try await JoseProcess.run(["dpop", "--key", JoseProcess.example("es256.private.jwk.json"), "--htm", "PUT",
                                                "--htu", "HTTPS://API.example.com:443/a?b=c", "--ath-token", "tok", "--nonce", "n1", "--now", "1800000000"])
        #expect(result.status == 0, "\(result)")
        let decoded = try await JoseProcess.run(["decode", result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)])
        let object = try decoded.jsonObject()
        let header = try #require(object["header"] as? [String: Any])
        let payload = try #require(object["payload"] as? [String: Any])
        #expect(header["typ"] as? String == "dpop+jwt" && header["alg"] as? String == "ES256")
        #expect((header["jwk"] as? [String: Any])?["d"] == nil)
        #expect(payload["htm"] as? String == "PUT" && payload["htu"] as? String == "https://api.example.com/a")
        #expect(payload["iat"] as? Int == 1_800_000_000 && payload["nonce"] as? String == "n1")
        #expect(payload["ath"] as? String == "GnZ0607njffhrEOak8P6jjyUV4TU3sn9jjARc4svHWI")
    }
}
