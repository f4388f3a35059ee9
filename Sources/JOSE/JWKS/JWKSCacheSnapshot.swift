#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension JWKSCache {
    /// A cache's key set and freshness, saved so that a process starting cold can start warm.
    ///
    /// A restored snapshot is stale data, never a fresh fetch (see ``JWKSCache/restore(_:)``):
    /// it spares the first verifications a wait while the cache fetches the set again.
    ///
    /// The JSON form is an object with exactly four members, `"version": 1`, `"url"` (the
    /// key-set URL), `"fresh_until"` (seconds since 1970) and `"keys"` (the public keys, as in a
    /// JWK Set), at most 1 MiB. Reading it is as strict as reading a fetched set: strict JSON,
    /// no other member, the URL of the cache it is loaded into, and every key checked again
    /// with that cache's ``Configuration/keyPolicy`` and ``Configuration/maximumKeyCount``
    /// (private members and `oct` keys skipped). It holds public keys only.
    ///
    /// ```swift
    /// // on shutdown
    /// if let saved = try cache.snapshot()?.json() { try Data(saved).write(to: snapshotFile) }
    /// // on start
    /// let bytes = try Data(contentsOf: snapshotFile)
    /// try cache.restore(JWKSCache.Snapshot(json: bytes, for: cache))
    /// ```
    public struct Snapshot: Sendable {
        /// The key-set URL the set was fetched from.
        public let url: URL
        /// The key set.
        public let keySet: JWKSet
        /// When (on the cache's clock) the set stopped, or will stop, being fresh.
        public let freshUntil: Date

        /// The largest JSON form read, in bytes.
        public static let maximumJSONBytes = 1 << 20
        /// The version of the JSON form written and read.
        static let version: Int64 = 1

        /// A snapshot of `keySet` as fetched from `url`.
        init(url: URL, keySet: JWKSet, freshUntil: Double) {
            self.url = url
            self.keySet = keySet
            self.freshUntil = Date(timeIntervalSince1970: freshUntil)
        }

        /// Reads a snapshot's JSON form for `cache`.
        ///
        /// - Parameters:
        ///   - json: What ``json()`` wrote.
        ///   - cache: The cache it is for: its URL must be the snapshot's, and its key policy
        ///     and key-count limit are applied to the keys.
        /// - Throws: `JOSEError` with code ``JOSEError/Code/invalidInput`` when the text is over
        ///   ``maximumJSONBytes``, not strict JSON, not exactly the four members, of another
        ///   version or URL, or its keys are not a usable JWK Set.
        public init(json: some DataProtocol, for cache: JWKSCache) throws {
            let bytes = Array(json)
            guard bytes.count <= Self.maximumJSONBytes else {
                throw Self.unusable("it has \(bytes.count) bytes; at most \(Self.maximumJSONBytes) are read")
            }
            let root: JSONValue
            do {
                root = try JSONDocument(bytes: bytes, limits: JSONLimits(maxBytes: Self.maximumJSONBytes, maxDepth: 8)).root
            } catch let error as JOSEError {
                throw Self.unusable(error.message)
            }
            guard let members = root.members else { throw Self.unusable("it is not a JSON object") }
            let expected: Set<String> = ["version", "url", "fresh_until", "keys"]
            for (name, _) in members where !expected.contains(name) {
                throw Self.unusable("it has the unknown member \(JOSEError.quoted(name))")
            }
            guard root["version"]?.isIntegerLiteral == true, root["version"]?.integer == Self.version else {
                throw Self.unusable("\"version\" must be \(Self.version)")
            }
            guard let urlText = root["url"]?.string else { throw Self.unusable("\"url\" must be a string") }
            guard urlText == cache.url.absoluteString else {
                throw Self.unusable("it is of \(JOSEError.quoted(urlText)), not of this cache's \(TransportPolicy.describe(cache.url))")
            }
            guard let freshUntil = root["fresh_until"]?.number, freshUntil.isFinite else {
                throw Self.unusable("\"fresh_until\" must be a finite number")
            }
            guard root["keys"]?.kind == .array else { throw Self.unusable("\"keys\" must be an array") }
            let keySet: JWKSet
            do {
                keySet = try JWKSet(json: bytes, policy: cache.configuration.keyPolicy,
                                    maximumKeyCount: cache.configuration.maximumKeyCount)
            } catch let error as JOSEError {
                throw Self.unusable("its keys are not a usable JWK Set: \(error.message)")
            }
            self.init(url: cache.url, keySet: keySet, freshUntil: freshUntil)
        }

        /// The snapshot's JSON form (see ``Snapshot``), public keys only.
        ///
        /// - Returns: Compact UTF-8 JSON, read back by ``init(json:for:)``.
        /// - Throws: `JOSEError` when a key cannot be written as a public JWK.
        public func json() throws -> [UInt8] {
            let keys = try JSONDocument(text: keySet.publicJSONString()).root["keys"].map(JSONOutput.raw) ?? .array([])
            return JSONOutput.object([
                ("version", .integer(Self.version)),
                ("url", .string(url.absoluteString)),
                ("fresh_until", .number(freshUntil.timeIntervalSince1970)),
                ("keys", keys),
            ]).serializedBytes()
        }

        /// The error for a snapshot that cannot be used, saying why.
        private static func unusable(_ reason: String) -> JOSEError {
            JOSEError.invalidInput("the key-set snapshot is unusable: \(reason); delete it and let the cache fetch the set")
        }
    }
}
