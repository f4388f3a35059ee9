import ArgumentParser

/// How `verify` runs and prints.
struct VerifyOutputOptions: ParsableArguments {
    /// `--jws`.
    @Flag(help: "A plain JWS: check the signature only; the payload may be any bytes (JSON output carries \"payload\" as base64url).")
    var jws = false

    /// `--json`.
    @Flag(help: "Print one JSON object on stdout instead of the human output.")
    var json = false

    /// `--batch`.
    @Flag(help: ArgumentHelp(
        "Read tokens from stdin, one per line; print one JSON line per token with \"line\" (1-based). " + "Keys are loaded once (a local key set once per --threads thread). Exit 1 if any token is rejected."))
    var batch = false

    /// `--threads`, for `--batch`.
    @Option(help: ArgumentHelp(
        "With --batch: verify with N threads (1 to 64; default 1). Output keeps the input order.",
        valueName: "N"))
    var threads: Int?

    /// The values `--threads` accepts.
    static let threadRange = 1...64
}
