import JOSE

/// How one token's outcome is printed and what exit code it leads to.
struct VerificationReport {
    /// The outcome.
    let outcome: TokenVerifier.Outcome

    /// Success, rejected (exit 1) or remote keys unusable (exit 3).
    var status: CLIFailure.Status {
        switch outcome {
        case .verified: .success
        case .failure(let error): Self.status(of: error)
        }
    }

    /// Rejected (exit 1), or not judged (exit 3) for a remote failure (keys, discovery, transport).
    static func status(of error: JOSEError) -> CLIFailure.Status {
        error.code.isRemoteFailure ? .remote : .rejected
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
        case .failure(let error) where error.code.isRemoteFailure:
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
