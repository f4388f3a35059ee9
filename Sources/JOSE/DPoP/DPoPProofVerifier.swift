#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Checks DPoP proofs (RFC 9449 §4.3) for the requests a server receives.
///
/// A proof is accepted only when every rule holds: it is one compact JWS within
/// ``maximumProofBytes``; its header `typ` is `dpop+jwt`; its `alg` is an asymmetric algorithm on
/// the allow-list; its header `jwk` is a public RSA (at most ``maximumRSAModulusBits``), EC or
/// OKP key (never `oct`, never with private members); the signature verifies with that key;
/// `htm` equals the request's method; `htu` equals the request's URI once both are normalised
/// (``DPoPTargetURI``); `iat` is no more than ``maximumAge`` old and not in the future (each with
/// ``leeway``); `ath` is the hash of the access token sent with it; `nonce` is the server's when
/// it requires one; the key's RFC 7638 thumbprint equals the access token's `cnf.jkt`; and its
/// `jti` was not seen before (``ReplayCache``, where the key's thumbprint is the owner: one key's
/// flood of proofs fills only its own quota).
///
/// - Important: this is the one place in the library where a key carried in a token's header
///   verifies it. RFC 9449 defines a proof that way: the proof shows possession of the key
///   named in its own `jwk`, and the binding to an access token (`cnf.jkt`) is what makes that
///   key mean anything. Every other verifier ignores header `jwk`, `jku`, `x5u` and `x5c`.
///
/// ```swift
/// let verifier = try DPoPProofVerifier()
/// let proof = try await verifier.verify(dpopHeader, for: DPoPRequest(
///     method: "GET", url: "https://api.example.com/orders", accessToken: token,
///     boundKeyThumbprint: try accessToken.claims.confirmationKeyThumbprint()))
/// ```
///
/// A verifier keeps the keys of recent proofs, loaded and with their thumbprints, by the exact
/// text of their header `jwk` (up to 1024): a client signs every proof with the same key, so it
/// is loaded into the crypto backend once, and a proof check costs about what a token check does. Every
/// rule above still runs for every proof.
///
/// Failures are ``JOSEError``s: `invalid_dpop_proof` for anything wrong with the proof (the
/// message names the rule, with the inner code), `use_dpop_nonce` when the nonce is missing or
/// not the server's, `invalid_token_binding` when the key is not the one the token is bound to,
/// `invalid_request` when the request's URL is not a usable http(s) URL (the client chose its
/// path), `invalid_input` when the clock does not read a time, and `replay_store_unavailable`
/// when a shared replay cache cannot be asked (the proof is refused: fail closed).
public struct DPoPProofVerifier: Sendable {
    /// Every asymmetric JWS algorithm the library verifies: RS*, PS*, ES*, ES256K and EdDSA.
    public static let asymmetricAlgorithms: Set<JWSAlgorithm> = Set(JWSAlgorithm.all.filter { $0.family != .hmac })

    /// The longest `jti` accepted, in bytes (RFC 9449 asks for at least 96 random bits).
    public static let maximumProofIDBytes = 256

    /// The largest RSA proof key accepted, in bits: a client needs no more, and larger keys
    /// only make each check slower.
    public static let maximumRSAModulusBits = 4096

    /// The algorithms a proof may use.
    public let algorithms: Set<JWSAlgorithm>
    /// How old a proof may be, by its `iat`.
    public let maximumAge: Duration
    /// Allowed clock skew, both ways, around the `iat` window.
    public let leeway: Duration
    /// The longest proof accepted, in bytes of compact text.
    public let maximumProofBytes: Int
    /// Where the identifiers of accepted proofs are remembered.
    public let replayCache: any ReplayCache
    /// Where the current time comes from.
    public let clock: JOSEClock
    /// Limits on the proof's key (RSA size).
    public let keyPolicy: KeyPolicy
    /// The allow-list and size limits, as every verifier applies them.
    private let signatures: SignatureRules
    /// Proof keys loaded recently, with their thumbprints (1024 at most).
    private let proofKeys = ProofKeyCache(capacity: 1024)
    private let maximumAgeSeconds: Double
    private let leewaySeconds: Double

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - algorithms: the allow-list, asymmetric algorithms only; every one by default.
    ///   - maximumAge: how old a proof may be, from 1 second to 1 hour; 60 seconds by default.
    ///   - leeway: allowed clock skew, from 0 to 5 minutes; 5 seconds by default.
    ///   - replayCache: where accepted proofs are remembered; a new ``InMemoryReplayCache``
    ///     (reading `clock`) by default.
    ///   - clock: the time source.
    ///   - keyPolicy: limits on the proof's key.
    ///   - maximumProofBytes: the longest proof accepted, from 256 bytes to 64 KiB; 8 KiB by
    ///     default (a proof with an RSA-4096 key is about 1.5 KiB).
    /// - Throws: ``JOSEError`` `invalid_input` when a value is out of its range, or the
    ///   allow-list is empty or names an HMAC algorithm.
    public init(
        algorithms: Set<JWSAlgorithm> = DPoPProofVerifier.asymmetricAlgorithms,
        maximumAge: Duration = .seconds(60),
        leeway: Duration = .seconds(5),
        replayCache: (any ReplayCache)? = nil,
        clock: JOSEClock = .system,
        keyPolicy: KeyPolicy = .default,
        maximumProofBytes: Int = 8192
    ) throws {
        guard !algorithms.isEmpty else { throw JOSEError.invalidInput("the DPoP algorithm allow-list is empty") }
        if let symmetric = algorithms.first(where: { $0.family == .hmac }) {
            throw JOSEError.invalidInput("DPoP proofs are signed with asymmetric keys; \(symmetric) is a MAC (RFC 9449 §4.2)")
        }
        let age = maximumAge.inSeconds
        guard age.isFinite, (1...3600).contains(age) else {
            throw JOSEError.invalidInput("maximumAge must be from 1 second to 1 hour; got \(JWTClaimRules.seconds(age)) s")
        }
        let skew = leeway.inSeconds
        guard skew.isFinite, (0...300).contains(skew) else {
            throw JOSEError.invalidInput("leeway must be from 0 to 300 seconds; got \(JWTClaimRules.seconds(skew)) s")
        }
        guard (256...65536).contains(maximumProofBytes) else {
            throw JOSEError.invalidInput("maximumProofBytes must be from 256 to 65536; got \(maximumProofBytes)")
        }
        self.algorithms = algorithms
        self.maximumAge = maximumAge
        self.leeway = leeway
        self.maximumProofBytes = maximumProofBytes
        self.replayCache = try replayCache ?? InMemoryReplayCache(clock: clock)
        self.clock = clock
        self.keyPolicy = keyPolicy
        self.maximumAgeSeconds = age
        self.leewaySeconds = skew
        self.signatures = SignatureRules(
            algorithms: algorithms,
            limits: JWSLimits(maximumTokenBytes: maximumProofBytes, maximumHeaderBytes: maximumProofBytes, maximumNestingDepth: 8),
            understoodCriticalParameters: [])
    }

    /// Verifies the proof sent with `request`, and records its `jti` so it is never accepted again.
    ///
    /// - Parameters:
    ///   - proof: the value of the request's one `DPoP` header.
    ///   - request: the request as the server received it.
    /// - Returns: the verified proof, with its key and that key's thumbprint.
    /// - Throws: ``JOSEError``: `invalid_dpop_proof`, `use_dpop_nonce`, `invalid_token_binding`,
    ///   `invalid_request` for an unusable request URL, `invalid_input` for an unusable clock, or
    ///   `replay_store_unavailable` when the replay cache cannot be asked.
    public func verify(_ proof: String, for request: DPoPRequest) async throws -> VerifiedDPoPProof {
        let checked = try check(proof, for: request)
        // Last, so that proofs failing any other rule never take room in the cache.
        let proofKey = checked.proof.keyThumbprint
        switch try await replayCache.answer(checked.proofID, owner: proofKey, expiresAt: checked.expiresAt) {
        case .firstUse:
            return checked.proof
        case .seenBefore:
            throw JOSEError(.invalidDPoPProof, "the DPoP proof was already used (its jti was seen before)")
        case .ownerOverQuota:
            throw JOSEError(.invalidDPoPProof,
                            "the DPoP proof key has too many unexpired proofs recorded (the replay cache's per-key quota); make fewer proofs or wait for them to expire")
        }
    }

    /// A proof that passed every rule but the replay check.
    private struct CheckedProof {
        let proof: VerifiedDPoPProof
        let proofID: String
        let expiresAt: Double
    }

    /// Every rule but the replay check, with errors in the verifier's codes.
    private func check(_ proof: String, for request: DPoPRequest) throws -> CheckedProof {
        let now = clock.secondsSince1970
        guard now.isFinite else { throw JOSEError.invalidInput("the clock reads \(now), not a time") }
        let targetURI: String
        do {
            targetURI = try DPoPTargetURI.normalized(request.url)
        } catch let error as JOSEError {
            // The client chose the request's path: a bad one is its mistake (400), not the server's.
            throw JOSEError(.invalidRequest, "the request URL is not usable for DPoP: \(error.message)")
        }
        guard proof.utf8.count <= maximumProofBytes else {
            throw JOSEError(.invalidDPoPProof, "the DPoP proof is longer than \(maximumProofBytes) bytes")
        }
        do {
            return try ContiguousToken.withUTF8(of: proof, passing: self) { verifier, proof in
                try verifier.check(proof, request: request, targetURI: targetURI, now: now)
            }
        } catch let error as JOSEError {
            switch error.code {
            case .invalidDPoPProof, .useDPoPNonce, .invalidTokenBinding, .invalidInput, .invalidRequest: throw error
            default: throw JOSEError(.invalidDPoPProof, "the DPoP proof is not acceptable: \(error.description)")
            }
        }
    }

    /// Checks the proof's text in place; errors carry the library's ordinary codes.
    ///
    /// The cheap rules run first (header, claims, request binding), so that a proof failing
    /// them costs neither a key load nor a signature check; then the key, the binding to the
    /// token and the signature. The replay check comes after all of these, in ``verify(_:for:)``.
    private func check(_ token: UnsafeRawBufferPointer, request: DPoPRequest, targetURI: String, now: Double) throws -> CheckedProof {
        let jwt = try CompactJWT(token, rules: signatures)
        let header = jwt.jws.header
        try JWTClaimRules.checkType(header.json["typ"], expected: "dpop+jwt")
        let algorithm = header.algorithm
        guard algorithms.contains(algorithm) else {
            throw JOSEError(.algorithmNotAllowed, "alg \(algorithm) is not in the DPoP allow-list")
        }
        let jwk = try DPoPProofVerifier.publicJWK(header)
        let claims = jwt.claims
        let proofID = try DPoPProofVerifier.string(claims, "jti")
        guard (1...DPoPProofVerifier.maximumProofIDBytes).contains(proofID.utf8.count) else {
            throw JOSEError(.invalidClaim, "jti must be 1 to \(DPoPProofVerifier.maximumProofIDBytes) bytes long")
        }
        // Before any replay store sees it: PostgreSQL's `text` cannot hold U+0000, and no store
        // should have to keep control characters.
        guard !proofID.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            throw JOSEError(.invalidClaim,
                            "jti holds a control character (U+0000-U+001F or U+007F-U+009F); make it of visible characters, such as base64url of random bytes")
        }
        let method = try DPoPProofVerifier.string(claims, "htm")
        guard method == request.method else {
            throw JOSEError(.invalidClaim, "htm is \(JOSEError.quoted(method)), but the request's method is \(JOSEError.quoted(request.method))")
        }
        let htu = try DPoPProofVerifier.string(claims, "htu")
        guard (try? DPoPTargetURI.normalized(htu)) == targetURI else {
            throw JOSEError(.invalidClaim, "htu \(JOSEError.quoted(htu)) is not the request's URI \(JOSEError.quoted(targetURI))")
        }
        let issuedAt = try checkIssuedAt(claims, now: now)
        if let accessToken = request.accessToken {
            try DPoPProofVerifier.checkAccessTokenHash(claims, accessToken: accessToken)
        }
        if let expectedNonce = request.expectedNonce {
            try DPoPProofVerifier.checkNonce(claims, expected: expectedNonce)
        }
        let (key, thumbprint) = try proofKey(jwk)
        guard key.canVerify(algorithm) else {
            throw JOSEError(.algorithmNotAllowed, "the proof key \(key.summary) cannot verify \(algorithm)")
        }
        if let bound = request.boundKeyThumbprint, !constantTimeEquals(Array(bound.utf8), Array(thumbprint.utf8)) {
            throw JOSEError(.invalidTokenBinding, "the access token is bound to another key (cnf.jkt differs from the DPoP proof key's thumbprint)")
        }
        let signingInput = UnsafeRawBufferPointer(rebasing: token[0..<jwt.jws.signingInputCount])
        guard jwt.jws.withSignature({ key.verifies(algorithm, signingInput: signingInput, signature: $0) }) else {
            throw JOSEError(.invalidSignature, "the signature does not verify with the proof's own jwk")
        }
        let verified = VerifiedDPoPProof(
            token: VerifiedJWT(header: header, claims: claims, key: key), keyThumbprint: thumbprint,
            proofID: proofID, issuedAt: Date(timeIntervalSince1970: issuedAt))
        return CheckedProof(
            proof: verified, proofID: proofID,
            expiresAt: issuedAt + maximumAgeSeconds + leewaySeconds)
    }

    /// The header's `jwk`, checked without loading it: a JSON object, not `oct`, without
    /// private members, and for RSA a modulus of at most ``maximumRSAModulusBits``.
    private static func publicJWK(_ header: JWSHeader) throws -> JSONValue {
        guard let jwk = header.json["jwk"] else { throw JOSEError.invalidKey("the header has no \"jwk\"") }
        guard jwk.kind == .object else { throw JOSEError.invalidKey("the header \"jwk\" is not a JSON object") }
        if jwk["kty"]?.string == "oct" {
            throw JOSEError.invalidKey("the header \"jwk\" is a symmetric (oct) key; a proof needs a public key")
        }
        for member in JWK.asymmetricPrivateMemberNames + ["k"] where jwk[member] != nil {
            throw JOSEError.invalidKey("the header \"jwk\" carries the private member \"\(member)\"; it must be a public key")
        }
        // base64url of the modulus: 4 characters per 3 bytes, unpadded.
        if let modulus = jwk["n"]?.string, modulus.utf8.count > (maximumRSAModulusBits / 8 * 4 + 2) / 3 {
            throw JOSEError.invalidKey("the header \"jwk\" is an RSA key over \(maximumRSAModulusBits) bits")
        }
        return jwk
    }

    /// The public key in the header's `jwk` (checked by ``publicJWK(_:)``) and its
    /// thumbprint, loaded once per distinct `jwk` text (``ProofKeyCache``).
    private func proofKey(_ jwk: JSONValue) throws -> (JWK, String) {
        let entry = try proofKeys.entry(for: Array(jwk.rawBytes)) {
            let key = try JWK(jsonObject: jwk, policy: keyPolicy)
            guard !key.isPrivate, key.keyType != .octetSequence else {
                throw JOSEError.invalidKey("the header \"jwk\" is not a public key")
            }
            if case .asymmetric(let material) = key.material, case .rsa(let bits) = material.kind,
               bits > DPoPProofVerifier.maximumRSAModulusBits {
                throw JOSEError.invalidKey("the header \"jwk\" is an RSA-\(bits) key; at most \(DPoPProofVerifier.maximumRSAModulusBits) bits")
            }
            return ProofKeyCache.Entry(key: key, thumbprint: try key.thumbprint())
        }
        return (entry.key, entry.thumbprint)
    }

    /// `iat`, required, within [now − maximum age − leeway, now + leeway].
    private func checkIssuedAt(_ claims: JWTClaims, now: Double) throws -> Double {
        guard let value = claims.json["iat"] else { throw JOSEError(.missingClaim, "the proof has no \"iat\" claim") }
        guard let issuedAt = value.number, issuedAt.isFinite else {
            throw JOSEError(.invalidClaim, "the \"iat\" claim is not a number (NumericDate)")
        }
        if issuedAt > now + leewaySeconds {
            throw JOSEError(.issuedInFuture, "the proof was made \(JWTClaimRules.seconds(issuedAt - now)) s in the future (leeway \(JWTClaimRules.seconds(leewaySeconds)) s)")
        }
        if issuedAt < now - maximumAgeSeconds - leewaySeconds {
            throw JOSEError(.tokenTooOld, "the proof was made \(JWTClaimRules.seconds(now - issuedAt)) s ago; at most \(JWTClaimRules.seconds(maximumAgeSeconds)) s is allowed")
        }
        return issuedAt
    }

    /// `ath`, required with an access token: base64url(SHA-256(token)), compared in constant time.
    private static func checkAccessTokenHash(_ claims: JWTClaims, accessToken: String) throws {
        let ath = try string(claims, "ath", missing: "the proof has no \"ath\" claim, required with an access token")
        let expected = Base64URL.encode(Digest.hash(.sha256, Array(accessToken.utf8)))
        guard constantTimeEquals(Array(ath.utf8), Array(expected.utf8)) else {
            throw JOSEError(.invalidTokenHash, "ath is not the hash of the access token sent with the proof")
        }
    }

    /// `nonce`, required to equal the server's; `use_dpop_nonce` otherwise, so the server
    /// answers with its nonce.
    private static func checkNonce(_ claims: JWTClaims, expected: String) throws {
        guard let value = claims.json["nonce"] else {
            throw JOSEError(.useDPoPNonce, "the DPoP proof has no nonce; this server requires one")
        }
        guard let nonce = value.string, constantTimeEquals(Array(nonce.utf8), Array(expected.utf8)) else {
            throw JOSEError(.useDPoPNonce, "the DPoP proof's nonce is not the server's current nonce")
        }
    }

    /// A required string claim.
    private static func string(_ claims: JWTClaims, _ name: StaticString, missing: String? = nil) throws -> String {
        guard let value = claims.json["\(name)"] else {
            throw JOSEError(.missingClaim, missing ?? "the proof has no \"\(name)\" claim")
        }
        guard let text = value.string else { throw JOSEError(.invalidClaim, "the \"\(name)\" claim is not a string") }
        return text
    }
}
