import ArgumentParser
import JOSE
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The claim options of `verify`, turned into the library's ``JWTClaimRules`` rules.
struct ClaimRuleOptions: ParsableArguments {
    /// `--iss`.
    @Option(help: ProviderFlag.iss.help("Required by --id-token, --access-token and --logout-token, unless --issuer."))
    var iss: String?

    /// `--aud`, repeatable.
    @Option(help: ArgumentHelp(
        "Require aud to contain this audience; repeat to accept any of several. With --id-token: exactly one, the client id.",
        valueName: "AUD"))
    var aud: [String] = []

    /// `--nonce`.
    @Option(parsing: .unconditional, help: ArgumentHelp("Require exactly this nonce (the one sent in the authentication request).", valueName: "NONCE"))
    var nonce: String?

    /// `--azp`.
    @Option(help: ArgumentHelp(
        "The client id an azp claim must equal; required in the token when it has several audiences.",
        valueName: "CLIENT"))
    var azp: String?

    /// `--typ`.
    @Option(help: ArgumentHelp(
        "Require this header typ (case-insensitive, optional 'application/' prefix), e.g. at+jwt.",
        valueName: "TYP"))
    var typ: String?

    /// `--max-age`.
    @Option(name: .customLong("max-age"), help: ArgumentHelp(
        "The max_age sent, in seconds: requires auth_time, no older than this.", valueName: "SECONDS"))
    var maxAge: Double?

    /// `--id-token`.
    @Flag(name: .customLong("id-token"), help: ArgumentHelp(
        "Apply OpenID Connect ID-token rules: iss, sub, aud, exp, iat required; azp must be the client id, " + "and is required with several audiences. Needs --iss (or --issuer) and --aud CLIENT_ID."))
    var idToken = false

    /// `--require`, repeatable.
    @Option(help: ArgumentHelp("Require this claim to be present; repeat for several.", valueName: "CLAIM"))
    var require: [String] = []

    /// `--leeway`.
    @Option(help: ArgumentHelp("Allowed clock skew in seconds for exp, nbf, iat and auth_time.", valueName: "SECONDS"))
    var leeway: Double = 60

    /// `--now`.
    @Option(help: ArgumentHelp(
        "Evaluate time claims at this instant, in seconds since 1970 (default: the system clock).",
        valueName: "UNIX_SECONDS"))
    var now: Double?

    /// The names of the claim options given, for refusing them with `--jws`.
    var claimOptionNames: [String] {
        [("--iss", iss != nil), ("--aud", !aud.isEmpty), ("--nonce", nonce != nil), ("--azp", azp != nil),
         ("--typ", typ != nil), ("--max-age", maxAge != nil), ("--id-token", idToken),
         ("--require", !require.isEmpty), ("--now", now != nil)].filter(\.1).map(\.0)
    }

    /// Checks the rules against each other and against the key source.
    func validate(keys: KeySourceOptions) throws {
        try SecondsFlagLimits.check(leeway, "--leeway")
        if let maxAge { try SecondsFlagLimits.check(maxAge, "--max-age") }
        if let now, !(now.isFinite && abs(now) <= SecondsFlagLimits.maximumInstant) {
            throw ValidationError("--now must be a number of seconds since 1970 between -\(Int(SecondsFlagLimits.maximumInstant)) and \(Int(SecondsFlagLimits.maximumInstant))")
        }
        if let issuer = keys.issuer, let iss, iss != issuer {
            throw ValidationError("--issuer \(issuer) implies --iss \(issuer); got --iss \(iss)")
        }
        if idToken {
            guard iss != nil || keys.issuer != nil else {
                throw ValidationError("--id-token needs the issuer: give --iss ISSUER (or --issuer URL)")
            }
            guard aud.count == 1 else {
                throw ValidationError("--id-token needs exactly one --aud: the client id")
            }
            if let azp, azp != aud[0] {
                throw ValidationError("with --id-token, azp must be the client id (--aud \(aud[0])); got --azp \(azp)")
            }
        }
    }

    /// The clock `--now` asks for.
    var clock: JOSEClock { now.map { .fixed(Date(timeIntervalSince1970: $0)) } ?? .system }

    /// The claim rules: the OpenID Connect ID-token rules with `--id-token`, else those of a plain
    /// JWT; the other options add to them.
    func jwtRules(issuer: String?) -> JWTClaimRules {
        var rules: JWTClaimRules
        if idToken, let issuer, let clientID = aud.first {
            rules = .idToken(issuer: issuer, clientID: clientID, leeway: .seconds(leeway), clock: clock)
        } else {
            rules = JWTClaimRules(issuer: issuer, audiences: aud.isEmpty ? nil : Set(aud), leeway: .seconds(leeway), clock: clock)
            rules.authorizedParty = azp
        }
        rules.nonce = nonce
        rules.type = typ
        rules.requiredClaims += require
        rules.maximumAuthenticationAge = maxAge.map { .seconds($0) }
        return rules
    }
}
