import Foundation
import Testing
import JOSE
import JOSEOAuth
import JOSETestSupport

/// The file session store: its modes, its atomic replacement, its refusal of symlinks and of
/// files others may read, and its lock across open files.
@Suite struct FileSessionStoreTests {
    /// A fresh directory of mode 0700 with a store for `session.json` inside (made by the store).
    private func makeStore() throws -> (directory: String, store: FileSessionStore) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jose-session-\(UUID().uuidString)").path
        return (directory, try FileSessionStore(path: directory + "/sessions/session.json"))
    }

    /// A session as a decoder would read it from a file.
    private func session(accessToken: String = "at-1", refreshToken: String? = "rt-1") throws -> StoredSession {
        var members: [String: Any] = [
            "version": 1, "issuer": "https://op.example", "client_id": "app", "access_token": accessToken,
            "token_type": "Bearer", "access_token_expires_at": 1_900_000_000, "received_at": 1_899_996_400,
            "attributes": ["note": "kept"],
        ]
        if let refreshToken { members["refresh_token"] = refreshToken }
        return try JSONDecoder().decode(StoredSession.self, from: JSONSerialization.data(withJSONObject: members))
    }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    @Test func aSavedSessionReadsBackWholeInAFileOfMode0600InADirectoryOf0700() async throws {
        let (root, store) = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let session = try session()

        try await store.save(session)

        #expect(try await store.load() == session)
        #expect(try mode(store.path) == 0o600)
        #expect(try mode(root + "/sessions") == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/sessions") == ["session.json"])
    }

    @Test func aMissingFileIsNoSessionAndRemoveDeletes() async throws {
        let (root, store) = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(try await store.load() == nil)
        try await store.save(try session())
        try await store.remove()
        #expect(try await store.load() == nil)
        try await store.remove()
    }

    @Test func aSaveReplacesTheFileByRenameNeverWritingIntoIt() async throws {
        let (root, store) = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await store.save(try session(accessToken: "old"))
        let witness = root + "/witness"
        try FileManager.default.linkItem(atPath: store.path, toPath: witness)   // the old file's inode

        try await store.save(try session(accessToken: "new"))

        #expect(try await store.load()?.accessToken == "new")
        let old = try JSONDecoder().decode(StoredSession.self, from: Data(contentsOf: URL(fileURLWithPath: witness)))
        #expect(old.accessToken == "old")
    }

    @Test func aSymlinkedFileIsRefusedAndNeverWrittenThrough() async throws {
        let (root, store) = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await store.save(try session())
        let target = root + "/elsewhere.json"
        try FileManager.default.moveItem(atPath: store.path, toPath: target)
        try FileManager.default.createSymbolicLink(atPath: store.path, withDestinationPath: target)

        await #expect(throws: JOSEError.self) { try await store.load() }
        try await store.save(try session(accessToken: "new"))

        let targetSession = try JSONDecoder().decode(StoredSession.self, from: Data(contentsOf: URL(fileURLWithPath: target)))
        #expect(targetSession.accessToken == "at-1")
        let kind = try FileManager.default.attributesOfItem(atPath: store.path)[.type] as? FileAttributeType
        #expect(kind == .typeRegular)
        #expect(try await store.load()?.accessToken == "new")
    }

    @Test func aSymlinkedDirectoryIsRefused() async throws {
        let (root, _) = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/real", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/real")
        let store = try FileSessionStore(path: root + "/link/session.json")

        let error = await #expect(throws: JOSEError.self) { try await store.save(try session()) }

        #expect(error?.code == .sessionStoreFailed)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/real").isEmpty)
    }

    @Test func aFileOthersMayReadIsRefused() async throws {
        let (root, store) = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await store.save(try session())
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store.path)

        let error = await #expect(throws: JOSEError.self) { try await store.load() }

        #expect(error?.code == .sessionStoreFailed)
        #expect(error?.message.contains("chmod 600") == true)
    }

    @Test func aDirectoryOthersMayEnterIsRefused() async throws {
        let (root, store) = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await store.save(try session())
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root + "/sessions")

        let error = await #expect(throws: JOSEError.self) { try await store.save(try session()) }

        #expect(error?.code == .sessionStoreFailed)
    }

    @Test func aFileWithDuplicateMembersIsRefused() async throws {
        let (root, store) = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await store.save(try session())
        var text = try String(contentsOfFile: store.path, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"access_token\" : \"at-1\"", with: "\"access_token\" : \"at-1\", \"access_token\" : \"x\"")
        try Data(text.utf8).write(to: URL(fileURLWithPath: store.path))

        let error = await #expect(throws: JOSEError.self) { try await store.load() }

        #expect(error?.code == .sessionStoreFailed)
    }

    @Test func theLockExcludesAnotherHolderOfTheSameFile() async throws {
        let (root, store) = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var other = try FileSessionStore(path: store.path)
        other.lockTimeout = .zero

        let error = try await store.withExclusiveAccess {
            await #expect(throws: JOSEError.self) { try await other.withExclusiveAccess { } }
        }

        #expect(error?.code == .sessionStoreFailed)
        try await other.withExclusiveAccess { }
    }
}
