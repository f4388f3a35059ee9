import Foundation
import JOSETestSupport
import Testing

/// `jose verify --dpop … --replay-store`: proofs recorded in a store shared by processes.
@Suite("jose verify --dpop --replay-store")
struct ReplayStoreCommandTests {
    typealias Setup = ResourceServerCommandTests.Setup

    func dpopArguments(_ setup: Setup) async throws -> [String] {
        let bound = try setup.token("bound")
        let proof = try await setup.proof(token: bound)
        return setup.verifyArguments + ["--access-token", "--dpop", proof, "--htm", "GET", "--htu", ResourceServerCommandTests.url]
            + ["--json", bound]
    }

    @Test("--replay-store and --replay-store-file need --dpop, and not both at once")
    func optionsNeedDPoP() async throws {
        let setup = try await Setup()
        defer { JoseProcess.removeScratch(setup.folder) }
        let alone = try await JoseProcess.run(setup.verifyArguments + ["--replay-store", "postgres://a@b/c", try setup.token("bound")])
        #expect(alone.status == 2 && alone.stderr.contains("add --dpop"), "\(alone)")
        let both = try await JoseProcess.run(try await dpopArguments(setup).dropLast()
                                             + ["--replay-store", "postgres://a@b/c", "--replay-store-file", "x", try setup.token("bound")])
        #expect(both.status == 2 && both.stderr.contains("not both"), "\(both)")
    }

    #if PostgreSQL
    // Needs a PostgreSQL server: `apt-get install postgresql`, then `eval "$(bash .ci/start-postgres.sh)"`.
    @Test("two jose processes over one database: a proof the first accepts, the second refuses",
          .enabled(if: RequiredSuite.runs(missing: TestPostgreSQL.missing), Comment(rawValue: TestPostgreSQL.missing ?? "")))
    func twoProcessesShareTheStore() async throws {
        let setup = try await Setup()
        defer { JoseProcess.removeScratch(setup.folder) }
        let url = try TestPostgreSQL.requireURL()
        let urlFile = setup.folder.appendingPathComponent("replay-store.url")
        try Data(url.utf8).write(to: urlFile)
        let arguments = try await dpopArguments(setup)
        // The URL from a file in one process, from the environment in the other: never an argument.
        let first = try await JoseProcess.run(arguments + ["--replay-store-file", urlFile.path])
        #expect(first.status == 0, "\(first)")
        let second = try await JoseProcess.run(arguments, environment: ["JOSE_REPLAY_STORE": url])
        #expect(second.status == 1, "\(second)")
        #expect((try second.jsonObject()["error"] as? [String: Any])?["code"] as? String == "invalid_dpop_proof", "\(second)")
        #expect(second.stdout.contains("already used"), "\(second)")
    }

    @Test("an unreachable store refuses the proof with replay_store_unavailable, exit 3")
    func unreachableStoreFailsClosed() async throws {
        let setup = try await Setup()
        defer { JoseProcess.removeScratch(setup.folder) }
        let result = try await JoseProcess.run(try await dpopArguments(setup),
                                               environment: ["JOSE_REPLAY_STORE": "postgres://nobody@127.0.0.1:1/none?sslmode=disable"])
        #expect(result.status == 3, "\(result)")
        #expect((try result.jsonObject()["error"] as? [String: Any])?["code"] as? String == "replay_store_unavailable", "\(result)")
    }
    #else
    @Test("a jose built without the PostgreSQL trait says so, and how to build one with it")
    func withoutTheTraitTheOptionExplainsItself() async throws {
        let setup = try await Setup()
        defer { JoseProcess.removeScratch(setup.folder) }
        let result = try await JoseProcess.run(try await dpopArguments(setup) + ["--replay-store", "postgres://a@127.0.0.1/c"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("without") && result.stderr.contains("--traits PostgreSQL"), "\(result)")
    }
    #endif
}
