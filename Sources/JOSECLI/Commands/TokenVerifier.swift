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

    /// Builds the library verifiers once, for every token to come.
    ///
    /// - Parameters:
    ///   - source: the keys.
    ///   - keys: the key-source options (`--alg`, `--issuer`).
    ///   - rules: the claim options.
    ///   - signatureOnly: `--jws`.
    init(source: some JWKSetSource, keys: KeySourceOptions, rules: ClaimRuleOptions, signatureOnly: Bool) {
        let issuer = rules.iss ?? keys.issuer
        jwtVerifier = JWTVerifier(keySource: source, algorithms: keys.allowList, rules: rules.jwtRules(issuer: issuer))
        self.signatureOnly = signatureOnly
        keysAreLocal = source is JWKSet
    }

    /// Verifies one token given as UTF-8 bytes (a `String`'s `utf8`, or a line of a batch),
    /// read in place; never throws, so a batch goes on after any line.
    func verify(_ token: some Collection<UInt8>) async -> Outcome {
        do {
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
    /// needs the async road (remote keys, or `--jws`).
    func verifyWithoutSuspending(_ token: UnsafeRawBufferPointer) -> Outcome? {
        guard keysAreLocal, !signatureOnly else { return nil }
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
