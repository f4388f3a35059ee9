import ArgumentParser

/// The options of `verify` for back-channel logout tokens (OpenID Connect Back-Channel Logout 1.0).
struct LogoutTokenOptions: ParsableArguments {
    /// `--logout-token`.
    @Flag(name: .customLong("logout-token"), help: ArgumentHelp(
        "Apply back-channel logout token rules: typ logout+jwt when present, the logout event, sub and/or sid, " + "no nonce, iss, aud, iat, exp and jti required. Needs --iss (or --issuer) and exactly one --aud: the client id."))
    var logoutToken = false

    /// `--require-typ`.
    @Flag(name: .customLong("require-logout-typ"), help: "With --logout-token: require the header typ logout+jwt.")
    var requireType = false

    /// Checks these options against the rest of `verify`'s.
    func validate(rules: ClaimRuleOptions, keys: KeySourceOptions, output: VerifyOutputOptions, access: AccessTokenOptions) throws {
        if requireType, !logoutToken { throw ValidationError("--require-logout-typ needs --logout-token") }
        guard logoutToken else { return }
        if output.batch || output.jws || access.isActive {
            throw ValidationError("--logout-token checks one logout token: it does not combine with --batch, --jws, --access-token or --dpop")
        }
        guard rules.iss != nil || keys.issuer != nil else {
            throw ValidationError("--logout-token needs the issuer: give --iss ISSUER (or --issuer URL)")
        }
        guard rules.aud.count == 1 else {
            throw ValidationError("--logout-token needs exactly one --aud: this client's id")
        }
        let conflicting = [("--id-token", rules.idToken), ("--nonce", rules.nonce != nil), ("--typ", rules.typ != nil),
                           ("--max-age", rules.maxAge != nil), ("--require", !rules.require.isEmpty)]
        if let option = conflicting.first(where: \.1)?.0 {
            throw ValidationError("\(option) does not apply to --logout-token, whose rules are Back-Channel Logout 1.0's")
        }
    }
}
