#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JWK Set (RFC 7517 §5): the keys a verifier may use.
///
/// Loading is tolerant of keys the library cannot use and strict about everything else: a key
/// with an unknown `kty`, curve or `alg`, a `use` other than `sig`, an `alg` of JWE key
/// management, private members where none are allowed, or weak material is skipped (its reason
/// kept in ``skippedKeys``) instead of failing the whole set. A `kid` shared by several keys that
/// could verify is ambiguous, and no key with it is ever selected.
///
/// ```swift
/// let keys = try JWKSet(json: jwksData)
/// print(keys.keys.count, keys.skippedKeys.map(\.reason))
/// ```
public struct JWKSet: Sendable {
    /// A key that was left out of the set, and why.
    public struct SkippedKey: Sendable {
        /// The position of the key in the document's `keys` array.
        public let index: Int
        /// The key's `kid`, when it had a readable one.
        public let keyID: String?
        /// Why the key was skipped.
        public let reason: JOSEError
    }

    /// The usable keys, in document order.
    public let keys: [JWK]
    /// The keys that were left out, with reasons.
    public let skippedKeys: [SkippedKey]
    /// `kid`s shared by several keys that could verify; never selected. (Keys that cannot
    /// verify, skipped or not, may share a `kid` with one that can: RFC 7517 §4.5.)
    public let ambiguousKeyIDs: Set<String>
    /// Each key's `kid` as UTF-8, in ``keys`` order (a byte that is never UTF-8 for a key
    /// without one), compared with token headers without touching the keys' reference counts.
    let pinnedKeyIDs: PinnedUTF8Strings
    /// Every key once per thread stripe, stripe-major (key `i` of stripe `s` at
    /// `s * keys.count + i`; stripe 0 is ``keys`` itself). A verification hands out the calling
    /// thread's handle, which its result keeps: threads verifying with one shared set then do
    /// not all write one reference count per token (a cache line the cores would fight over).
    let handles: [JWK]
    /// Whether the set is one key without a `kid` given by itself (``init(keys:)``), which then
    /// answers any `kid`; never true for a JWK Set document.
    let isOneUnnamedKey: Bool

    /// The placeholder in ``pinnedKeyIDs`` for a key without a `kid`: not UTF-8, so no parsed
    /// JSON string equals it.
    fileprivate static let noKeyID: [UInt8] = [0xFF]

    /// Makes a set from keys already loaded, given one by one.
    ///
    /// A `kid` shared by several keys that could verify is ambiguous and never selected. One key
    /// without a `kid` (`JWKSet(keys: [key])`: a key passed explicitly, as `jose verify --key`
    /// does) verifies tokens whatever `kid` they carry.
    public init(keys: [JWK]) {
        self.init(keys: keys, skippedKeys: [], givenOneByOne: true)
    }

    /// Builds what verification reads per token.
    ///
    /// - Parameter givenOneByOne: whether the keys were passed by themselves rather than read
    ///   from a JWK Set document (only then may a lone key without a `kid` answer any `kid`).
    private init(keys: [JWK], skippedKeys: [SkippedKey], givenOneByOne: Bool) {
        var seen = Set<String>()
        var ambiguous = Set<String>()
        for key in keys where key.allowsVerification {
            if let kid = key.keyID, !seen.insert(kid).inserted { ambiguous.insert(kid) }
        }
        self.keys = keys
        self.skippedKeys = skippedKeys
        self.ambiguousKeyIDs = ambiguous
        self.pinnedKeyIDs = PinnedUTF8Strings(utf8: keys.map { $0.keyID.map { Array($0.utf8) } ?? JWKSet.noKeyID })
        self.handles = keys + (1..<ThreadNumber.stripeCount).flatMap { _ in keys.map { $0.replica() } }
        self.isOneUnnamedKey = givenOneByOne && keys.count == 1 && keys[0].keyID == nil
    }

    /// The same set with storage of its own (its arrays, set and pinned key ids copied), for a
    /// reader that copies the set on every token (each thread stripe of a key-set cache holds
    /// one): copies of a replica touch only the replica's reference counts.
    func replica() -> JWKSet {
        JWKSet(copying: self)
    }

    /// A copy of `other` that shares no reference-counted storage with it but the keys.
    private init(copying other: JWKSet) {
        keys = other.keys.map { $0 }
        skippedKeys = other.skippedKeys.map { $0 }
        ambiguousKeyIDs = Set(other.ambiguousKeyIDs.map { String($0) })
        pinnedKeyIDs = PinnedUTF8Strings(utf8: other.keys.map { $0.keyID.map { Array($0.utf8) } ?? JWKSet.noKeyID })
        handles = other.handles.map { $0 }
        isOneUnnamedKey = other.isOneUnnamedKey
    }

    /// The calling thread's handle on key `index` (see ``handles``).
    func handle(ofKeyAt index: Int) -> JWK {
        handles[ThreadNumber.stripe * keys.count + index]
    }

    /// Parses a JWK Set document (`{"keys":[...]}`).
    ///
    /// - Parameters:
    ///   - json: the document as UTF-8 JSON.
    ///   - policy: limits on key material.
    ///   - allowSecretKeys: keep `oct` keys, for a local set of HMAC keys with `kid`s (as
    ///     PyJWT, jwcrypto, Nimbus and jwx load them). Off by default, and never on for a
    ///     remote set: a published key set must not carry secrets, so such keys are skipped.
    ///   - allowPrivateKeys: keep every key that carries private members, `oct` secrets included
    ///     (a set of your own signing keys). Off by default.
    ///   - maximumKeyCount: documents with more keys than this are refused.
    /// - Throws: ``JOSEError`` `malformed` when the text is not strict JSON or has no `keys`
    ///   array, or holds more than `maximumKeyCount` keys.
    public init(
        json: some DataProtocol, policy: KeyPolicy = .default, allowSecretKeys: Bool = false,
        allowPrivateKeys: Bool = false, maximumKeyCount: Int = 100
    ) throws {
        let document = try JSONDocument(bytes: Array(json), limits: JWK.jsonLimits)
        guard let keysValue = document.root["keys"], let elements = keysValue.elements else {
            throw JOSEError.malformed("a JWK Set must be an object with a \"keys\" array")
        }
        guard keysValue.count <= maximumKeyCount else {
            throw JOSEError.malformed("the JWK Set has \(keysValue.count) keys; at most \(maximumKeyCount) are accepted")
        }
        var keys: [JWK] = []
        var skipped: [SkippedKey] = []
        for (index, element) in elements.enumerated() {
            let kid = element["kid"]?.string
            do {
                // Checked before any material is loaded: a public set never pays for private keys.
                if !allowPrivateKeys, element["kty"]?.string != "oct",
                   JWK.asymmetricPrivateMemberNames.contains(where: { element[$0] != nil }) {
                    throw JOSEError.invalidKey("the key carries private members, which a public key set must not contain")
                }
                let key = try JWK(jsonObject: element, policy: policy)
                if key.keyType == .octetSequence, !(allowSecretKeys || allowPrivateKeys) {
                    throw JOSEError.invalidKey("secret (oct) keys are not accepted in a public key set")
                }
                if let use = key.use, use != "sig" {
                    throw JOSEError.invalidKey("the key is for use \(JOSEError.quoted(use)), not \"sig\"")
                }
                if let algorithm = key.keyManagementAlgorithm {
                    throw JOSEError.invalidKey("the key is for JWE key management (alg \(algorithm)), not for signatures")
                }
                if key.supportedAlgorithms.isEmpty {
                    throw JOSEError.invalidKey("the \(JWK.describe(key.material)) key serves no JWS algorithm, only JWE key agreement")
                }
                keys.append(key)
            } catch let error as JOSEError {
                skipped.append(SkippedKey(index: index, keyID: kid, reason: error))
            }
        }
        self.init(keys: keys, skippedKeys: skipped, givenOneByOne: false)
    }

    /// Parses a JWK Set document from its JSON text.
    ///
    /// - Throws: ``JOSEError`` as ``init(json:policy:allowSecretKeys:allowPrivateKeys:maximumKeyCount:)-(DataProtocol,_,_,_,_)``.
    public init(json: String, policy: KeyPolicy = .default, allowSecretKeys: Bool = false, allowPrivateKeys: Bool = false) throws {
        try self.init(json: Array(json.utf8), policy: policy, allowSecretKeys: allowSecretKeys, allowPrivateKeys: allowPrivateKeys)
    }

    /// The key with this exact `kid`, unless the `kid` is ambiguous.
    public func key(withID keyID: String) -> JWK? {
        guard !ambiguousKeyIDs.contains(keyID) else { return nil }
        return keys.first { $0.keyID == keyID }
    }

    /// The set as a public JWK Set document: private members are never written.
    ///
    /// - Throws: ``JOSEError`` `invalid_key` if the crypto backend cannot export a key.
    public func publicJSONString() throws -> String {
        try "{\"keys\":[" + keys.compactMap { try $0.publicKey?.jsonString() }.joined(separator: ",") + "]}"
    }
}
