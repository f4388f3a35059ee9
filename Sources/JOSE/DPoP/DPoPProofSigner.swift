#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Makes DPoP proofs (RFC 9449 §4.2) for a client's requests, with one private key: a ``JWK``
/// in memory, or a ``JWSSigningKey`` that never leaves its device.
///
/// Each proof has a fresh `jti` (128 bits from the crypto backend's CSPRNG), `iat` from the clock, `htm`
/// and `htu` (the URI normalised, without query and fragment), and when asked `ath` (the
/// access token's SHA-256 hash) and the server's `nonce`. The header carries `typ` `dpop+jwt`
/// and the key's public half as `jwk` (only its RFC 7638 members: no `kid`, `use` or `alg`).
///
/// ```swift
/// let signer = try DPoPProofSigner(key: try JWK.generate(for: .es256))
/// var nonce: String? = nil
/// let proof = try signer.proof(method: "GET", url: URL(string: "https://api.example.com/orders")!,
///                              accessToken: accessToken, nonce: nonce)
/// // On 401 with WWW-Authenticate: DPoP error="use_dpop_nonce", retry once with
/// // nonce = DPoPNonceRetry.nonce(status: 401, headers: response.headers)
/// ```
public struct DPoPProofSigner: Sendable {
    /// The algorithm proofs are signed with.
    public let algorithm: JWSAlgorithm
    /// The public key written into every proof's header.
    public let publicKey: JWK
    /// The RFC 7638 SHA-256 thumbprint of the key: the `cnf.jkt` of tokens bound to it, and
    /// the `dpop_jkt` authorization-request parameter (RFC 9449 §10).
    public let keyThumbprint: String
    /// Where `iat` comes from.
    public let clock: JOSEClock
    private let signer: JWSSigner
    private let headerKey: JSONOutput

    /// Creates a signer with a private key in memory.
    ///
    /// - Parameters:
    ///   - key: a private RSA, EC or OKP key.
    ///   - algorithm: the algorithm; by default the key's `alg`, else ES256/ES384/ES512/ES256K
    ///     for EC keys (by curve), EdDSA for OKP keys and PS256 for RSA keys.
    ///   - clock: the time source for `iat`.
    /// - Throws: ``JOSEError`` `invalid_key` when the key is not a private asymmetric key;
    ///   `algorithm_not_allowed` when it cannot sign `algorithm`, or `algorithm` is a MAC.
    public init(key: JWK, algorithm: JWSAlgorithm? = nil, clock: JOSEClock = .system) throws {
        try self.init(signingKey: SoftwareSigningKey(key, algorithm: algorithm), clock: clock)
    }

    /// Creates a signer with a key that signs by itself, such as a Secure Enclave P-256 key or a
    /// key in an HSM that never leaves it (see ``JWSSigningKey``).
    ///
    /// - Parameters:
    ///   - signingKey: the key, with its public half and algorithm.
    ///   - clock: the time source for `iat`.
    /// - Throws: ``JOSEError`` as ``JWSSigner/init(signingKey:keyID:)``.
    public init(signingKey: any JWSSigningKey, clock: JOSEClock = .system) throws {
        // No `kid` in a proof header: the key itself is there.
        let signer = try JWSSigner(signingKey: signingKey, exactKeyID: nil)
        guard let publicKey = signer.key.publicKey else {
            throw JOSEError.invalidKey("DPoP proofs are signed with a private RSA, EC or OKP key, not an oct secret")
        }
        self.signer = signer
        self.algorithm = signer.algorithm
        self.publicKey = publicKey
        self.keyThumbprint = try publicKey.thumbprint()
        self.clock = clock
        let exported = try JSONDocument(bytes: Array(publicKey.jsonString().utf8), limits: JWK.jsonLimits).root
        self.headerKey = .object((exported.members.map(Array.init) ?? []).compactMap { member in
            ["kty", "crv", "x", "y", "n", "e"].contains(member.key) ? (member.key, member.value.output) : nil
        })
    }

    /// Makes a proof for one request.
    ///
    /// - Parameters:
    ///   - method: the HTTP method, e.g. `POST`.
    ///   - url: the absolute request URL; its query and fragment are left out of `htu`.
    ///   - accessToken: the access token sent with the request (`Authorization: DPoP ...`);
    ///     its hash goes into `ath`.
    ///   - nonce: the server's latest `DPoP-Nonce`, when it gave one.
    /// - Returns: the compact proof, the value of the `DPoP` request header.
    /// - Throws: ``JOSEError`` `invalid_input` for an unusable method, URL or clock;
    ///   `invalid_key` if the crypto backend fails to sign.
    public func proof(method: String, url: URL, accessToken: String? = nil, nonce: String? = nil) throws -> String {
        guard !method.isEmpty, method.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw JOSEError.invalidInput("the HTTP method \(JOSEError.quoted(method)) is not a method token")
        }
        let now = clock.secondsSince1970
        guard now.isFinite, now >= 0, now < 253_402_300_800 else {
            throw JOSEError.invalidInput("the clock reads \(now), not a time")
        }
        var claims: [(String, JSONOutput)] = [
            ("jti", .string(Base64URL.encode(try SecureRandom.bytes(count: 16)))),
            ("htm", .string(method)),
            ("htu", .string(try DPoPTargetURI.normalized(url.absoluteString))),
            ("iat", .integer(Int64(now.rounded(.down)))),
        ]
        if let accessToken {
            claims.append(("ath", .string(Base64URL.encode(Digest.hash(.sha256, Array(accessToken.utf8))))))
        }
        if let nonce { claims.append(("nonce", .string(nonce))) }
        return try signer.sign(claims: JSONOutput.object(claims),
                               header: JWSHeaderParameters(type: "dpop+jwt", members: [("jwk", headerKey)]))
    }
}
