import ArgumentParser
import Foundation
import JOSE

/// `jose sign`: signs claims (from flags, a claims file, or both) into a compact JWT.
struct SignCommand: ParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign claims (flags and/or a JSON claims file) into a compact JWT, printed on stdout.",
        discussion: """
            The claims are the claims file's JSON object, in its own member order, with the \
            claim flags applied on top: a flag replaces the file's member of the same name in \
            place, or is appended. Without a claims file, iat is set to now unless --no-iat; \
            with one, iat changes only when --iat or --no-iat is given. Times are seconds since \
            1970 (digits alone) or offsets from now: 30s, +15m, 1h, +2d, and in the past -5m \
            (as in --nbf -5m).

            Without --alg the key's own alg is used (a JWK's "alg"); a key without one, and \
            every --secret, needs --alg. An --alg the key cannot sign (wrong family or curve, a secret too short, another alg \
            bound to the key) is refused with exit 2. --jti without a value (last, or before \
            another option) writes a random one.

            Examples:
              jose sign --key es256.private.jwk.json --iss https://issuer.example \\
                --sub alice --aud api --exp 1h --jti
              jose sign --secret-file hs.secret --alg HS256 --sub svc \\
                --claim scope='orders:read' --claim-json roles='["admin"]'
              jose sign --key keys.private.jwks.json --kid 2026-01 --alg RS256 \\
                claims.json --exp 15m
              jose sign --secret hex:00112233... --alg HS256 --header cty=example \\
                --sub x --nbf -5m --out token.jwt
            """)

    /// `--key`.
    @Option(help: ArgumentHelp(
        "The private key: a JWK (an oct JWK for HS*), a JWK Set (choose the key with --kid), or a PEM private key (PKCS#8, PKCS#1 or SEC1).",
        valueName: "PRIVATE_JWK_OR_PEM"))
    var key: String?

    /// `--secret`.
    @Option(help: ArgumentHelp(
        "An HMAC secret: text (its UTF-8 bytes), or 'b64:' base64/base64url or 'hex:' hex bytes. Visible in the process list: prefer --secret-file.",
        valueName: "STRING"))
    var secret: String?

    /// `--secret-file`.
    @Option(help: ArgumentHelp("A file whose raw bytes are the HMAC secret.", valueName: "PATH"))
    var secretFile: String?

    /// `--alg`.
    @Option(help: ArgumentHelp(
        "The signature algorithm, written to the header's alg (default: the key's own alg; required without one).",
        valueName: "ALG"))
    var alg: AlgorithmArgument?

    /// `--kid`.
    @Option(help: ArgumentHelp(
        "The kid header to write (default: the key's own kid, if any); with a JWK Set as --key, the key to sign with.",
        valueName: "KID"))
    var kid: String?

    /// `--typ`.
    @Option(help: ArgumentHelp("The typ header to write; '' leaves it out.", valueName: "TYP"))
    var typ: String = "JWT"

    /// `--header`, repeatable.
    @Option(name: .customLong("header"), help: ArgumentHelp(
        "A further protected-header member with a string value (not alg, kid, typ, crit, jku or x5u); repeat for several.",
        valueName: "NAME=VALUE"))
    var headerMembers: [String] = []

    /// The claim flags.
    @OptionGroup(title: "Claims")
    var claimFlags: SignClaimOptions

    /// `--allow-weak-keys`.
    @Flag(help: ArgumentHelp("DEBUGGING ONLY: sign with HMAC secrets down to 1 byte and RSA keys down to 1024 bits, with a warning."))
    var allowWeakKeys = false

    /// `--out`.
    @Option(help: ArgumentHelp("Write the token to this file (replaced) instead of stdout.", valueName: "FILE"))
    var out: String?

    /// The claims file.
    @Argument(help: ArgumentHelp(
        "The claims, a JSON object: a file, or '-' for stdin. Optional when claim flags are given.",
        valueName: "CLAIMS_JSON_FILE|-"))
    var claims: String?

    /// Checks the key source and that there is something to sign.
    func validate() throws {
        let given = [("--key", key), ("--secret", secret), ("--secret-file", secretFile)].filter { $0.1 != nil }.map(\.0)
        guard given.count == 1 else {
            throw ValidationError(given.isEmpty ? "no key: give one of --key, --secret or --secret-file"
                                  : "give exactly one key; got \(given.joined(separator: ", "))")
        }
        let stdinUsers = [key, secretFile, claims].filter { $0 == "-" }.count
        if stdinUsers > 1 { throw ValidationError("the key and the claims cannot both come from stdin") }
        try claimFlags.validate()
    }

    /// Signs and prints (or writes) the token.
    func run() throws {
        let policy = WeakKeys.policy(allowed: allowWeakKeys)
        if allowWeakKeys { WeakKeys.warn() }
        let signingKey = try loadKey(policy: policy)
        var members: [(String, JSONOutput)] = []
        if let claims {
            let claimBytes = try InputFile.bytes(at: claims, what: "claims file")
            let document = try withContext("cannot use claims file '\(claims)'") { try JSONDocument(bytes: claimBytes) }
            guard document.root.kind == .object, let objectMembers = document.root.members else {
                throw CLIFailure.input("cannot use claims file '\(claims)': the claims must be a JSON object")
            }
            members = objectMembers.map { ($0.key, JSONOutput.raw($0.value)) }
        }
        let now = claimFlags.now.map { Int64($0) } ?? Int64(Date().timeIntervalSince1970.rounded(.down))
        for (name, value) in try claimFlags.claims(now: now, withoutClaimsFile: claims == nil) {
            if let index = members.firstIndex(where: { $0.0 == name }) {
                members[index].1 = value
            } else {
                members.append((name, value))
            }
        }
        if claimFlags.noIat { members.removeAll { $0.0 == "iat" } }
        let header = try headerParameters()
        guard let algorithm = alg?.algorithm ?? signingKey.algorithm else {
            throw CLIFailure.usage("no --alg, and \(keyDescription) names no alg", hint: "give --alg, e.g. --alg ES256")
        }
        let token = try withContext("cannot sign with \(keyDescription)") {
            try JWSSigner(key: signingKey, algorithm: algorithm, keyID: kid)
                .sign(claims: JSONOutput.object(members), header: header)
        }
        try OutputFile.emit(token, to: out, what: "token", secret: false)
    }

    /// The header from `--typ` and `--header`: `--header cty=...` is the typed `cty`, any other
    /// name a member (which the library checks when signing: no alg, kid, typ, jku or x5u).
    ///
    /// - Throws: ``CLIFailure`` (exit 2) for a `--header` without `NAME=VALUE` or a name given twice.
    private func headerParameters() throws -> JWSHeaderParameters {
        var header = JWSHeaderParameters(type: typ.isEmpty ? nil : typ)
        var names: Set<String> = []
        for (name, value) in try headerMembers.map({ try SignClaimOptions.pair($0, flag: "--header") }) {
            guard names.insert(name).inserted else {
                throw CLIFailure.usage("--header \(JOSEError.quoted(name)) is given twice")
            }
            if name == "cty" {
                header.contentType = value
            } else {
                try header.set(name, value)
            }
        }
        return header
    }

    /// The key source as messages name it.
    private var keyDescription: String {
        if let key { return "key file '\(key)'" }
        if let secretFile { return "secret file '\(secretFile)'" }
        return "--secret"
    }

    /// Loads the signing key from `--key` (a JWK Set chosen from by `--kid`), `--secret` or
    /// `--secret-file`.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) for an unusable key.
    private func loadKey(policy: KeyPolicy) throws -> JWK {
        if let secret {
            return try withContext("cannot use --secret") { try JWK.symmetric(SecretArgument.bytes(secret), policy: policy) }
        }
        if let secretFile {
            let bytes = try InputFile.bytes(at: secretFile, what: "secret file")
            return try withContext("cannot use secret file '\(secretFile)'") { try JWK.symmetric(bytes, policy: policy) }
        }
        guard let key else { throw CLIFailure.usage("no key") }
        let bytes = try InputFile.bytes(at: key, what: "key file")
        guard let keySet = try? JWKSet(json: bytes, policy: policy, allowSecretKeys: true, allowPrivateKeys: true) else {
            return try KeyFile.load(bytes: bytes, named: key, policy: policy)
        }
        let context = "cannot use JWK Set '\(key)'"
        let chosen = try chooseKey(in: keySet, context: context)
        guard chosen.isPrivate else {
            throw CLIFailure.input("\(context): its key has no private material to sign with")
        }
        return chosen
    }

    /// The key `--kid` names in `keySet`, or its only key.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when there is no such key or no single one.
    private func chooseKey(in keySet: JWKSet, context: String) throws -> JWK {
        if let kid {
            guard let chosen = keySet.key(withID: kid) else {
                throw CLIFailure.input("\(context): it has no usable key with kid \(JOSEError.quoted(kid))")
            }
            return chosen
        }
        guard keySet.keys.count == 1, let only = keySet.keys.first else {
            throw CLIFailure.input("\(context): it holds \(keySet.keys.count) usable keys; choose one with --kid")
        }
        return only
    }
}
