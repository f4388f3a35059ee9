import JOSE

/// Verifies tokens with the library's ``JWTVerifier``, configured once from `verify`'s options.
struct TokenChecker: Sendable {
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

    private let verifier: JWTVerifier
    private let signatureOnly: Bool
    /// Whether the keys are a local set, so that every verification runs to its end without
    /// suspending.
    private let keysAreLocal: Bool

    /// Builds the library verifiers once, for every token to come.
    ///
    /// - Parameters:
    ///   - source: the keys.
    ///   - keys: the key-source options (`--alg`, `--discover`).
    ///   - rules: the claim options.
    ///   - signatureOnly: `--jws`.
    init(source: some JWKSetSource, keys: KeySourceOptions, rules: ClaimRuleOptions, signatureOnly: Bool) {
        let issuer = rules.iss ?? keys.discover
        verifier = JWTVerifier(keySource: source, algorithms: keys.allowList, rules: rules.jwtRules(issuer: issuer))
        self.signatureOnly = signatureOnly
        keysAreLocal = source is JWKSet
    }

    /// Verifies one token given as UTF-8 bytes (a `String`'s `utf8`, or a line of a batch),
    /// read in place; never throws, so a batch goes on after any line.
    func check(_ token: some Collection<UInt8>) async -> Outcome {
        do {
            if signatureOnly {
                return .verified(.jws(try await verifier.verifySignature(token)))
            }
            return .verified(.jwt(try await verifier.verify(token)))
        } catch {
            return Self.failure(error)
        }
    }

    /// ``check(_:)`` without an `async` call, for a JWT checked with a local key set (what a
    /// batch does per line, so that no async frame is made per token); `nil` when the check
    /// needs the async road (remote keys, or `--jws`).
    func checkWithoutSuspending(_ token: UnsafeRawBufferPointer) -> Outcome? {
        guard keysAreLocal, !signatureOnly else { return nil }
        do {
            return .verified(.jwt(try verifier.verifyWithoutSuspending(token)))
        } catch {
            return Self.failure(error)
        }
    }

    /// The outcome for an error thrown by the library (always a ``JOSEError``).
    private static func failure(_ error: any Error) -> Outcome {
        .failure(error as? JOSEError ?? JOSEError(.malformed, String(describing: error)))
    }
}

/// How one token's outcome is printed and what exit code it leads to.
struct VerificationReport {
    /// The outcome.
    let outcome: TokenChecker.Outcome

    /// Success, rejected (exit 1) or remote keys unusable (exit 3).
    var status: CLIFailure.Status {
        switch outcome {
        case .verified: .success
        case .failure(let error): Self.status(of: error)
        }
    }

    /// Rejected (exit 1), or remote keys unusable (exit 3) for `jwks_unavailable`.
    static func status(of error: JOSEError) -> CLIFailure.Status {
        error.code == .jwksUnavailable ? .remote : .rejected
    }

    /// The `--json` object, with `"line"` first when given (`--batch`).
    func json(line: Int?) -> JSONOutput {
        var members: [(String, JSONOutput)] = line.map { [("line", .integer(Int64($0)))] } ?? []
        switch outcome {
        case .verified(.jwt(let jwt)):
            members += [("valid", .bool(true)), ("header", JSONRendering.value(ofJSONText: jwt.header.jsonString)),
                        ("claims", JSONRendering.value(ofJSONText: jwt.claims.jsonString))]
        case .verified(.jws(let jws)):
            members += [("valid", .bool(true)), ("header", JSONRendering.value(ofJSONText: jws.header.jsonString)),
                        ("payload", .string(Base64URL.encode(jws.payload)))]
        case .failure(let error):
            members += [("valid", .bool(false)), ("error", JSONRendering.error(error))]
        }
        return .object(members)
    }

    /// The human output: the claims (or payload) on stdout and a status line on stderr, or
    /// `invalid: <code>: <message>` on stderr.
    func printHuman() {
        switch outcome {
        case .verified(.jwt(let jwt)):
            Console.out(JSONRendering.value(ofJSONText: jwt.claims.jsonString).serialized(pretty: true))
            Console.err(statusLine(header: jwt.header, key: jwt.key, what: "JWT"))
        case .verified(.jws(let jws)):
            let payload = Array(jws.payload)
            Console.out(JSONRendering.value(ofJSONBytes: payload)?.serialized(pretty: true) ?? Base64URL.encode(payload))
            Console.err(statusLine(header: jws.header, key: jws.key, what: "JWS signature (claims not checked)"))
        case .failure(let error) where error.code == .jwksUnavailable:
            Console.err("jose: error: " + error.description)
        case .failure(let error):
            Console.err(Console.paint("invalid", .red) + ": " + error.description)
        }
    }

    private func statusLine(header: JWSHeader, key: JWK, what: String) -> String {
        let keyName = key.keyID.map { "key kid \(JOSEError.quoted($0))" } ?? "the \(key.keyType.rawValue) key (no kid)"
        return Console.paint("valid", .green) + ": \(what), \(header.algorithm) by \(keyName)"
    }
}
