import ArgumentParser
import JOSE

/// `jose keygen`: generates a key for an algorithm.
struct KeygenCommand: ParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Generate a private key for an algorithm; the private JWK goes to stdout.",
        discussion: """
            RS*/PS*: RSA-2048; ES256/ES384/ES512/ES256K: the algorithm's curve; EdDSA/Ed25519: \
            Ed25519; Ed448: Ed448; HS*: a random secret as long as the hash. The JWK carries \
            alg (and kid when given). Keep the private JWK secret: --jwks-out writes only the \
            public key, as a JWK Set to publish or to verify with.

            Examples:
              jose keygen --alg ES256 --kid 2026-01 --out es256.private.jwk.json \\
                --jwks-out jwks.json
              jose keygen --alg HS256 > hs256.jwk.json
              jose keygen --alg RS256 | jose jwk to-pem - --out rsa.pem
            """)

    /// `--alg`.
    @Option(help: ArgumentHelp("The algorithm the key is for.", valueName: "ALG"))
    var alg: AlgorithmArgument

    /// `--kid`.
    @Option(parsing: .unconditional, help: ArgumentHelp("The key id (kid) to give the key.", valueName: "KID"))
    var kid: String?

    /// `--jwks-out`.
    @Option(name: .customLong("jwks-out"), help: ArgumentHelp(
        "Also write the public key as a JWK Set to this file (replaced). Not for HS*, whose secret has no public part.",
        valueName: "PATH"))
    var jwksOut: String?

    /// `--out`.
    @Option(help: ArgumentHelp("Write the private JWK to this file (replaced, mode 0600) instead of stdout.", valueName: "FILE"))
    var out: String?

    /// Refuses `--jwks-out` for secrets.
    func validate() throws {
        if jwksOut != nil, alg.algorithm.family == .hmac {
            throw ValidationError("--jwks-out needs an asymmetric algorithm; an \(alg.algorithm) secret has no public part")
        }
    }

    /// Generates and prints the key.
    func run() throws {
        let key = try withContext("cannot generate a \(alg.algorithm) key") {
            try JWK.generate(for: alg.algorithm, keyID: kid)
        }
        if let jwksOut {
            let publicSet = try withContext("cannot export the public key") {
                try JWKSet(keys: [key.publicKey].compactMap { $0 }).publicJSONString()
            }
            try OutputFile.write(JSONRendering.value(ofJSONText: publicSet).serialized(pretty: true),
                                 to: jwksOut, what: "JWK Set", secret: false)
        }
        let json = try withContext("cannot export the key") { try key.jsonString(includingPrivateMembers: true) }
        try OutputFile.emit(json, to: out, what: "private JWK", secret: true)
    }
}
