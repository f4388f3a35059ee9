import Foundation
import JOSE
import JOSEOAuth

/// How `callback --exchange` and `refresh` show a token response: plainly, the token type,
/// expiry, scope and where each token went, never a token itself; with `--out FILE`, the
/// response as JSON in that file (mode 0600); with `--json`, the tokens in full, or with `--out`
/// the file instead of them.
struct TokenResponseOutput {
    /// The token response.
    let tokens: TokenResponse
    /// `--out`: the file the tokens go to.
    let out: String?

    /// Writes the tokens to ``out`` when given.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when the file cannot be written.
    func writeFile() throws {
        guard let out else { return }
        try OutputFile.write(Self.fullJSON(tokens).serialized(pretty: true), to: out, what: "tokens", secret: true)
    }

    /// The `tokens` member of `--json`: every token in full, or with `--out` the token type,
    /// expiry, scope and the file.
    var json: JSONOutput {
        guard let out else { return Self.fullJSON(tokens) }
        var members: [(String, JSONOutput)] = [("token_type", .string(tokens.tokenType))]
        if let expiresIn = tokens.expiresIn { members.append(("expires_in", .integer(expiresIn.components.seconds))) }
        if let scope = tokens.scope { members.append(("scope", .string(scope))) }
        return .object(members + [("file", .string(out))])
    }

    /// The plain lines: type, expiry, scope, and where each token went.
    ///
    /// - Parameter idToken: the line's text for the ID token (`nil` when none came).
    func summary(idToken: String?) -> [String] {
        let now = Date().timeIntervalSince1970
        let times = ReadableTime(zone: .utc, now: now)
        var lines = ["token_type: " + JOSEError.quoted(tokens.tokenType)]
        if let signer = tokens.proofSigner { lines.append("bound to DPoP key: " + signer.keyThumbprint + " (cnf.jkt)") }
        if let expiresIn = tokens.expiresIn {
            lines.append("expires: in \(expiresIn.components.seconds) s, " + times.describe("exp", seconds: now + expiresIn.inSeconds))
        } else {
            lines.append("expires: not said (no expires_in)")
        }
        lines.append("scope: " + (tokens.scope.map { JOSEError.quoted($0) } ?? "not said (as requested)"))
        let place = out.map { "written to '\($0)' (mode 0600)" } ?? "not shown; use --out FILE or --json"
        lines.append("access_token: " + place)
        lines.append("refresh_token: " + (tokens.refreshToken == nil ? "none issued" : place))
        lines.append("id_token: " + (idToken.map { $0 + (out == nil ? "" : "; also " + place) } ?? "none issued"))
        return lines
    }

    /// The token response as JSON: every token in full.
    private static func fullJSON(_ tokens: TokenResponse) -> JSONOutput {
        var members: [(String, JSONOutput)] = [
            ("access_token", .string(tokens.accessToken)), ("token_type", .string(tokens.tokenType)),
        ]
        if let expiresIn = tokens.expiresIn { members.append(("expires_in", .integer(expiresIn.components.seconds))) }
        if let refreshToken = tokens.refreshToken { members.append(("refresh_token", .string(refreshToken))) }
        if let idToken = tokens.idToken { members.append(("id_token", .string(idToken))) }
        if let scope = tokens.scope { members.append(("scope", .string(scope))) }
        return .object(members)
    }
}
