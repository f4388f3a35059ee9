/// The one key-selection routine: every verifier, and the remote key-set cache deciding whether
/// to refetch, ask it which key a token's header names.
///
/// - A header with a `kid` names the key with exactly that `kid`. A `kid` shared by two keys
///   that could both verify is ambiguous and names none. A set made of one key given by itself
///   without a `kid` (`JWKSet(keys: [key])`: a key passed explicitly, never a JWK Set document)
///   is used whatever `kid` the token carries.
/// - A header without a `kid` names the one key that can verify its `alg`. When several could,
///   none is chosen: trying each would let one forged token cost a signature check per key.
///   (A verifier may opt into trying a few: ``JWSLimits/maximumKeysTriedWithoutKeyID``.)
enum KeySelection: Equatable {
    /// The key at this position in ``JWKSet/keys``.
    case key(Int)
    /// The header's `kid` is in no usable key of the set.
    case unknownKeyID
    /// The header's `kid` is shared by several keys that could verify: never selected.
    case ambiguousKeyID
    /// The header has no `kid`, and no key verifies its `alg`.
    case noFittingKey
    /// The header has no `kid`, and this many keys could verify its `alg`.
    case severalFittingKeys(Int)
}

extension JWKSet {
    /// Which key `header` names (see ``KeySelection``). Allocates nothing and touches no key's
    /// reference count.
    func selection(for header: JWSHeader) -> KeySelection {
        if header.hasKeyID {
            if !ambiguousKeyIDs.isEmpty, ambiguousKeyIDs.contains(where: { header.keyID(is: $0) }) {
                return .ambiguousKeyID
            }
            if let index = keyIndex(namedBy: header) { return .key(index) }
            return isOneUnnamedKey ? .key(0) : .unknownKeyID
        }
        var found: Int?
        var fitting = 0
        for index in keys.indices where keys[index].canVerify(header.algorithm) {
            fitting += 1
            found = index
        }
        switch (fitting, found) {
        case (1, let index?): return .key(index)
        case (0, _): return .noFittingKey
        default: return .severalFittingKeys(fitting)
        }
    }

    /// Whether the set answers for the header's `kid`: everything but an unknown `kid` (an
    /// ambiguous one is answered: refetching would not help).
    func answers(forKeyIDOf header: JWSHeader) -> Bool {
        selection(for: header) != .unknownKeyID
    }

    /// Selects the key for `header` and verifies `signature` over `signingInput` with it.
    ///
    /// - Parameter keysTriedWithoutKeyID: how many fitting keys a header without `kid` may be
    ///   tried against (1: only a single fitting key is used).
    /// - Returns: the key that verified the signature.
    /// - Throws: ``JOSEError`` `key_not_found` when the header names no usable key,
    ///   `algorithm_not_allowed` when the named key does not verify its `alg`, `invalid_signature`.
    func verifySignature(
        header: JWSHeader, signingInput: UnsafeRawBufferPointer, signature: UnsafeRawBufferPointer,
        keysTriedWithoutKeyID: Int
    ) throws -> JWK {
        let algorithm = header.algorithm
        let key: JWK
        switch selection(for: header) {
        case .key(let index):
            key = handle(ofKeyAt: index)
        case .unknownKeyID:
            throw JOSEError(.keyNotFound, "no key in the set has kid \(JOSEError.quoted(header.keyID ?? ""))")
        case .ambiguousKeyID:
            throw JOSEError(.keyNotFound,
                            "kid \(JOSEError.quoted(header.keyID ?? "")) is shared by several keys in the set, so it names none")
        case .noFittingKey:
            throw JOSEError(.keyNotFound, "the token has no kid, and no key in the set verifies \(algorithm)")
        case .severalFittingKeys(let count) where count <= keysTriedWithoutKeyID:
            return try verifyWithEachFittingKey(algorithm, signingInput: signingInput, signature: signature, count: count)
        case .severalFittingKeys(let count):
            throw JOSEError(.keyNotFound,
                            "the token has no kid, and \(count) keys in the set verify \(algorithm): a token must name its key (kid) when several could verify it")
        }
        guard key.allowsVerification else {
            throw JOSEError(.keyNotFound, "key \(key.summary) is not for verification (use/key_ops)")
        }
        guard key.supportedAlgorithms.contains(algorithm) else {
            throw JOSEError(.algorithmNotAllowed, "key \(key.summary) does not verify \(algorithm)")
        }
        guard key.verifies(algorithm, signingInput: signingInput, signature: signature) else {
            throw JOSEError(.invalidSignature, "the \(algorithm) signature does not verify with key \(key.summary)")
        }
        return key
    }

    /// Tries each of the `count` keys that can verify `algorithm` (a token without `kid`, when the
    /// verifier opted into trying a few).
    private func verifyWithEachFittingKey(
        _ algorithm: JWSAlgorithm, signingInput: UnsafeRawBufferPointer, signature: UnsafeRawBufferPointer, count: Int
    ) throws -> JWK {
        for index in keys.indices where keys[index].canVerify(algorithm) {
            let key = handle(ofKeyAt: index)
            if key.verifies(algorithm, signingInput: signingInput, signature: signature) { return key }
        }
        throw JOSEError(.invalidSignature,
                        "the token has no kid, and the \(algorithm) signature does not verify with any of the \(count) keys that fit")
    }

    /// The position of the key whose `kid` the header names exactly, read in place.
    func keyIndex(namedBy header: JWSHeader) -> Int? {
        guard header.keyIDPosition >= 0 else { return nil }
        // `header` keeps its storage alive while the view is read.
        let view = header.json.document.storage.view
        let position = header.keyIDPosition
        return pinnedKeyIDs.firstIndex { view.isString(at: position, equalTo: $0) }
    }
}
