import JOSE

/// Verifies tokens with the library's ``JWTVerifier``, configured once from `verify`'s options.
struct TokenVerifier: Sendable {
    /// What verified.
    enum Verified {
        /// A JWT, claims checked.
        case jwt(VerifiedJWT)
        /// A plain JWS, signature checked.
        case jws(VerifiedJWS)
    }

    /// The result for one token.
    enum Outcome {
        /// The token is valid.
        case verified(Verified)
        /// The token was rejected, or the keys could not be had.
        case failure(JOSEError)
    }

    /// The library's verifier, built once from the options.
    private let jwtVerifier: JWTVerifier
    /// `--jws`: the signature only, no claims.
    private let signatureOnly: Bool
    /// Whether the keys are a local set, so that every verification runs to its end without
    /// suspending.
    private let keysAreLocal: Bool
    /// `--decrypt-key`: each token is a nested JWT, decrypted before it is verified.
    private let decrypter: JWEDecrypter?

    /// Builds the library verifiers once, for every token to come.
    ///
    /// - Parameters:
    ///   - source: the keys.
    ///   - keys: the key-source options (`--alg`, `--issuer`).
    ///   - rules: the claim options.
    ///   - signatureOnly: `--jws`.
    ///   - decrypter: `--decrypt-key`'s.
    init(
        source: some JWKSetSource, keys: KeySourceOptions, rules: ClaimRuleOptions, signatureOnly: Bool,
        decrypter: JWEDecrypter? = nil
    ) {
        let issuer = rules.iss ?? keys.issuer
        jwtVerifier = JWTVerifier(keySource: source, algorithms: keys.allowList, rules: rules.jwtRules(issuer: issuer))
        self.signatureOnly = signatureOnly
        keysAreLocal = source is JWKSet
        self.decrypter = decrypter
    }

    /// Verifies one token given as UTF-8 bytes (a `String`'s `utf8`, or a line of a batch),
    /// read in place; never throws, so a batch goes on after any line.
    func verify(_ token: some Collection<UInt8>) async -> Outcome {
        do {
            if let decrypter {
                let inner = try decrypter.decryptNestedJWT(String(decoding: Array(token), as: UTF8.self))
                return signatureOnly ? .verified(.jws(try await jwtVerifier.verifySignature(inner)))
                    : .verified(.jwt(try await jwtVerifier.verify(inner)))
            }
            if signatureOnly {
                return .verified(.jws(try await jwtVerifier.verifySignature(token)))
            }
            return .verified(.jwt(try await jwtVerifier.verify(token)))
        } catch {
            return Self.failure(error)
        }
    }

    /// ``verify(_:)`` without an `async` call, for a JWT verified with a local key set (what a
    /// batch does per line, so that no async frame is made per token); `nil` when the token
    /// needs the async road (remote keys, `--jws` or `--decrypt-key`).
    func verifyWithoutSuspending(_ token: UnsafeRawBufferPointer) -> Outcome? {
        guard keysAreLocal, !signatureOnly, decrypter == nil else { return nil }
        do {
            return .verified(.jwt(try jwtVerifier.verifyWithoutSuspending(token)))
        } catch {
            return Self.failure(error)
        }
    }

    /// The outcome for an error thrown by the library (always a ``JOSEError``).
    private static func failure(_ error: any Error) -> Outcome {
        .failure(error as? JOSEError ?? JOSEError(.malformed, String(describing: error)))
    }
}
