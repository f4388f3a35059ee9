import ArgumentParser

/// The root `jose` command: a thin command line over the JOSE library.
struct JOSECommand: AsyncParsableCommand {
    /// Names the tool, its subcommands and its exit codes.
    static let configuration = CommandConfiguration(
        commandName: "jose",
        abstract: "Verify, decode and sign JWS/JWT tokens; make keys, PKCE pairs and thumbprints.",
        discussion: """
            Exit codes: 0 success; 1 token rejected (in --batch: any token rejected); \
            2 usage error or unusable local input (flags, key files, claims files); \
            3 a remote key set or discovery document could not be used (jwks_unavailable).

            Put -- before a token that starts with '-'.
            """,
        subcommands: [
            VerifyCommand.self, DecodeCommand.self, SignCommand.self, KeygenCommand.self,
            PKCECommand.self, ThumbprintCommand.self, BenchCommand.self,
            DPoPCommand.self,
        ])
}
