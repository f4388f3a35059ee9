import ArgumentParser
import JOSE

/// `jose jwk`: a toolbox for keys: public halves, PEM conversions, key sets, inspection.
struct JWKCommand: ParsableCommand {
    /// Help, name and subcommands.
    static let configuration = CommandConfiguration(
        commandName: "jwk",
        abstract: "Key toolbox: public half, PEM <-> JWK, edit a JWK Set, inspect a JWKS file or URL.",
        discussion: """
            Examples:
              jose jwk pub private.jwk.json > public.jwk.json
              jose jwk from-pem server-cert.pem --kid web-2026
              jose jwk to-pem es256.private.jwk.json --out key.pem
              jose jwk set add jwks.json new.private.jwk.json
              jose jwk inspect https://www.googleapis.com/oauth2/v3/certs
            """,
        subcommands: [JWKPublicCommand.self, JWKFromPEMCommand.self, JWKToPEMCommand.self, JWKSetCommand.self,
                      JWKInspectCommand.self])
}

/// `jose jwk pub`: the public half of a key or key set.
struct JWKPublicCommand: ParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "pub",
        abstract: "Print the public half of a private key (JWK, JWK Set or PEM) as a JWK (or JWK Set).",
        discussion: """
            kid, use, key_ops (without 'sign') and alg are kept. An oct secret has no public half \
            and is refused (exit 2); in a JWK Set, secrets are left out.

            Examples:
              jose jwk pub private.jwk.json
              jose jwk pub private.jwks.json --out public.jwks.json
            """)

    /// The key file.
    @Argument(help: ArgumentHelp("A private or public key: JWK, JWK Set, PEM or DER; '-' for stdin.", valueName: "KEY_FILE|-"))
    var file: String

    /// `--out`.
    @Option(help: ArgumentHelp("Write the result to this file (replaced) instead of stdout.", valueName: "FILE"))
    var out: String?

    /// Prints the public half.
    func run() throws {
        let bytes = try InputFile.bytes(at: file, what: "key file")
        if let keySet = try? JWKSet(json: bytes, allowSecretKeys: true, allowPrivateKeys: true) {
            let text = try withContext("cannot export the public keys") { try keySet.publicJSONString() }
            try OutputFile.emit(text, to: out, what: "public JWK Set", secret: false)
            return
        }
        let key = try KeyFile.load(bytes: bytes, named: file)
        guard let publicKey = key.publicKey else {
            throw CLIFailure.input("'\(file)' is an oct (HMAC) secret, which has no public half")
        }
        let text = try withContext("cannot export the public key") { try publicKey.jsonString() }
        try OutputFile.emit(text, to: out, what: "public JWK", secret: false)
    }
}

/// `jose jwk from-pem`: a PEM or DER key or certificate as a JWK.
struct JWKFromPEMCommand: ParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "from-pem",
        abstract: "Convert a PEM/DER key (SPKI, PKCS#8, PKCS#1, SEC1) or X.509 certificate to a JWK.",
        discussion: """
            A private key gives a private JWK (use --public for its public half); a certificate \
            gives its subject public key (the certificate itself is NOT validated). Encrypted \
            keys are refused.

            Examples:
              jose jwk from-pem public.pem --kid 2026-01 --alg RS256
              jose jwk from-pem private.pem --out private.jwk.json
              openssl s_client -connect example.com:443 </dev/null | jose jwk from-pem -
            """)

    /// The PEM file.
    @Argument(help: ArgumentHelp("A PEM or DER key or certificate; '-' for stdin.", valueName: "PEM_FILE|-"))
    var file: String

    /// `--kid`.
    @Option(parsing: .unconditional, help: ArgumentHelp("The kid to give the key.", valueName: "KID"))
    var kid: String?

    /// `--alg`.
    @Option(help: ArgumentHelp("The alg to bind the key to.", valueName: "ALG"))
    var alg: AlgorithmArgument?

    /// `--public`.
    @Flag(help: "Write only the public half of a private key.")
    var `public` = false

    /// `--out`.
    @Option(help: ArgumentHelp("Write the JWK to this file (replaced; mode 0600 for a private key) instead of stdout.", valueName: "FILE"))
    var out: String?

    /// Converts and prints.
    func run() throws {
        let bytes = try InputFile.bytes(at: file, what: "PEM file")
        let context = "cannot use '\(file)'"
        let text = String(decoding: bytes, as: UTF8.self)
        let key: JWK
        if text.contains("-----BEGIN CERTIFICATE-----") {
            key = try withContext(context) { try JWK(certificate: bytes, keyID: kid, algorithm: alg?.algorithm) }
        } else if text.contains("-----BEGIN") {
            key = try withContext(context) { try JWK(pem: text, keyID: kid, algorithm: alg?.algorithm) }
        } else if let certificate = try? JWK(certificate: bytes, keyID: kid, algorithm: alg?.algorithm) {
            key = certificate
        } else {
            key = try withContext(context) { try JWK(der: bytes, keyID: kid, algorithm: alg?.algorithm) }
        }
        let isPrivate = key.isPrivate && !self.public
        let json = try withContext("cannot export the key") {
            try (self.public ? (key.publicKey ?? key) : key).jsonString(includingPrivateMembers: isPrivate)
        }
        try OutputFile.emit(json, to: out, what: isPrivate ? "private JWK" : "JWK", secret: isPrivate)
    }
}

/// `jose jwk to-pem`: a JWK as PEM.
struct JWKToPEMCommand: ParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "to-pem",
        abstract: "Convert a JWK to PEM: PKCS#8 PRIVATE KEY for a private key, SPKI PUBLIC KEY otherwise.",
        discussion: """
            The private PEM is unencrypted: write it with --out (mode 0600) rather than to a \
            terminal. oct secrets have no PEM form (exit 2).

            Examples:
              jose jwk to-pem public.jwk.json > public.pem
              jose jwk to-pem private.jwk.json --out private.pem
              jose jwk to-pem private.jwk.json --public
            """)

    /// The JWK file.
    @Argument(help: ArgumentHelp("A JWK (PEM and DER work too); '-' for stdin.", valueName: "JWK_FILE|-"))
    var file: String

    /// `--public`.
    @Flag(help: "Write only the public half (SPKI) of a private key.")
    var `public` = false

    /// `--out`.
    @Option(help: ArgumentHelp("Write the PEM to this file (replaced; mode 0600 for a private key) instead of stdout.", valueName: "FILE"))
    var out: String?

    /// Converts and prints.
    func run() throws {
        let key = try KeyFile.load(file)
        let isPrivate = key.isPrivate && !self.public
        var pem = try withContext("cannot convert '\(file)' to PEM") { try key.pemString(includingPrivateKey: isPrivate) }
        while pem.hasSuffix("\n") { pem.removeLast() }
        try OutputFile.emit(pem, to: out, what: isPrivate ? "private key" : "public key", secret: isPrivate)
    }
}
