import ArgumentParser

/// The root `jose` command: a thin command line over the JOSE library.
struct JOSECommand: AsyncParsableCommand {
    /// The package version `jose --version` prints: the latest version in CHANGELOG.md.
    static let version = "0.1.0"

    /// Names the tool, its version, its subcommands and its exit codes.
    static let configuration = CommandConfiguration(
        commandName: "jose",
        abstract: "Verify, decode and sign JWS/JWT tokens; encrypt and decrypt JWEs; make keys, PKCE pairs and thumbprints; walk an OpenID Connect login.",
        discussion: """
            Exit codes: 0 success; 1 token rejected (in --batch: any token rejected); \
            2 usage error or unusable local input (flags, key files, claims files); \
            3 a remote key set, discovery document or endpoint could not be used \
            (jwks_unavailable, discovery_failed, transport_failed).

            Put -- before a token that starts with '-'.

            Examples:
              jose decode "$TOKEN"
              jose verify --jwks https://issuer.example/jwks.json --aud api "$TOKEN"
              jose sign --key es256.private.jwk.json --sub alice --aud api --exp 1h
              jose decrypt --key my-rsa.private.pem "$JWE" > plaintext.bin
              jose jwk inspect https://issuer.example/jwks.json
              jose completion zsh > "${fpath[1]}/_jose"
            """,
        version: version,
        subcommands: [
            VerifyCommand.self, DecodeCommand.self, SignCommand.self, DecryptCommand.self, EncryptCommand.self, KeygenCommand.self,
            PKCECommand.self, ThumbprintCommand.self, BenchCommand.self,
            JWKCommand.self, CompletionCommand.self,
            LoginCommand.self, TokenCommand.self, ProfilesCommand.self, LogoutCommand.self, DiscoverCommand.self, AuthorizeURLCommand.self, CallbackCommand.self,
            DPoPCommand.self, RefreshCommand.self, UserInfoCommand.self, RevokeCommand.self, IntrospectCommand.self, LogoutURLCommand.self,
        ])
}
