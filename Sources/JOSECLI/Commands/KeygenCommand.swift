import ArgumentParser
import JOSE

/// `jose keygen`: generates a key for a JWS algorithm or a JWE key-management algorithm.
struct KeygenCommand: ParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Generate a private key for an algorithm; the private JWK goes to stdout.",
        discussion: """
            JWS: RS*/PS*: RSA-2048; ES256/ES384/ES512/ES256K: the algorithm's curve; \
            EdDSA/Ed25519: Ed25519; Ed448: Ed448; HS*: a random secret as long as the hash.

            JWE: RSA-OAEP/RSA-OAEP-256: RSA-2048; ECDH-ES and ECDH-ES+A*KW: a key on --crv \
            (P-256, P-384, P-521 or X25519; default P-256); A*KW/A*GCMKW: a secret of the wrap \
            key's length; dir: a secret as long as --enc's key (default A256GCM).

            The JWK carries alg (and kid when given). Keep the private JWK secret: --jwks-out \
            writes only the public key, as a JWK Set to publish, or to encrypt to with \
            jose encrypt.

            Examples:
              jose keygen --alg ES256 --kid 2026-01 --out es256.private.jwk.json \\
                --jwks-out jwks.json
              jose keygen --alg HS256 > hs256.jwk.json
              jose keygen --alg RS256 | jose jwk to-pem - --out rsa.pem
              jose keygen --alg ECDH-ES+A256KW --crv X25519 --out enc.private.jwk.json
              jose keygen --alg dir --enc A128CBC-HS256 --out dir.jwk.json
            """)

    /// `--alg`.
    @Option(help: ArgumentHelp("The JWS or JWE key-management algorithm the key is for.", valueName: "ALG"))
    var alg: KeygenAlgorithmArgument

    /// `--crv`.
    @Option(help: ArgumentHelp("The curve of an ECDH-ES key (default P-256).", valueName: "CRV"))
    var crv: KeyAgreementCurveArgument?

    /// `--enc`.
    @Option(help: ArgumentHelp("The content encryption a dir key is for; it sets the key's length (default A256GCM).", valueName: "ENC"))
    var enc: ContentEncryptionArgument?

    /// `--kid`.
    @Option(parsing: .unconditional, help: ArgumentHelp("The key id (kid) to give the key.", valueName: "KID"))
    var kid: String?

    /// `--jwks-out`.
    @Option(name: .customLong("jwks-out"), help: ArgumentHelp(
        "Also write the public key as a JWK Set to this file (replaced). Not for secrets (HS*, A*KW, A*GCMKW, dir), which have no public part.",
        valueName: "PATH"))
    var jwksOut: String?

    /// `--out`.
    @Option(help: ArgumentHelp("Write the private JWK to this file (replaced, mode 0600) instead of stdout.", valueName: "FILE"))
    var out: String?

    /// Refuses options that do not fit `--alg`.
    func validate() throws {
        if jwksOut != nil, alg.makesSecret {
            throw ValidationError("--jwks-out needs an asymmetric algorithm; an \(alg) secret has no public part")
        }
        if crv != nil, alg.keyManagementAlgorithm?.usesKeyAgreement != true {
            throw ValidationError("--crv is for the ECDH-ES algorithms; \(alg) has no curve to choose")
        }
        if enc != nil, alg.keyManagementAlgorithm != .direct {
            throw ValidationError("--enc is for dir, whose key is the content-encryption key; \(alg) does not use it")
        }
    }

    /// Generates and prints the key.
    func run() throws {
        let key = try withContext("cannot generate a \(alg) key") {
            switch alg {
            case .signature(let algorithm):
                try JWK.generate(for: algorithm, keyID: kid)
            case .keyManagement(let algorithm):
                try JWK.generate(
                    for: algorithm, curve: crv?.curve ?? .p256, contentEncryption: enc?.algorithm ?? .a256GCM, keyID: kid)
            }
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
