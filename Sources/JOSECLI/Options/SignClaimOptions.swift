import ArgumentParser
import JOSE
import JOSEOAuth

/// The claim flags of `sign`: registered claims, any claim as text or JSON, and the clock.
struct SignClaimOptions: ParsableArguments {
    /// `--iss`.
    @Option(help: ArgumentHelp("The issuer (iss).", valueName: "ISS"))
    var iss: String?

    /// `--sub`.
    @Option(help: ArgumentHelp("The subject (sub).", valueName: "SUB"))
    var sub: String?

    /// `--aud`, repeatable.
    @Option(help: ArgumentHelp("An audience (aud); repeat for several (then aud is an array).", valueName: "AUD"))
    var aud: [String] = []

    /// `--exp`; its value may start with `-` (a past offset).
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Expiry (exp): 15m, +1h, 2d from now, -30s in the past, or seconds since 1970.", valueName: "TIME"))
    var exp: ClaimTimeArgument?

    /// `--nbf`; its value may start with `-` (a past offset).
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Not before (nbf): an offset from now (-5m, 1h) or seconds since 1970.", valueName: "TIME"))
    var nbf: ClaimTimeArgument?

    /// `--iat`; its value may start with `-` (a past offset).
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Issued at (iat): an offset from now or seconds since 1970. Default without a claims file: now.",
        valueName: "TIME"))
    var iat: ClaimTimeArgument?

    /// `--no-iat`.
    @Flag(name: .customLong("no-iat"), help: "Write no iat claim (and drop the claims file's).")
    var noIat = false

    /// `--jti`.
    @Option(parsing: .unconditional, help: ArgumentHelp("The token id (jti); without a value, a random one.", valueName: "JTI"))
    var jti: String?

    /// Set for a bare `--jti` (see ``SignCommand/expandingBareJTI(_:)``).
    @Flag(name: .customLong("random-jti"), help: .hidden)
    var randomJTI = false

    /// `--claim`, repeatable: a value that is one strict JSON value keeps its JSON type, anything
    /// else is a string (see ``claimValue(_:)``).
    @Option(name: .customLong("claim"), help: ArgumentHelp(
        "A claim: a JSON number, true/false, null, array or object keeps its type, anything else is a string "
            + "(force a string with JSON quotes: n='\"123\"'); repeat for several.",
        valueName: "NAME=VALUE"))
    var textClaims: [String] = []

    /// `--claim-json`, repeatable.
    @Option(name: .customLong("claim-json"), help: ArgumentHelp(
        "A claim with a JSON value (number, bool, array, object, ...); repeat for several.", valueName: "NAME=JSON"))
    var jsonClaims: [String] = []

    /// `--now`.
    @Option(help: ArgumentHelp("The instant relative times and the default iat count from (seconds since 1970).", valueName: "UNIX_SECONDS"))
    var now: Int64?

    /// Rejects contradictions and out-of-range clocks.
    func validate() throws {
        if noIat, iat != nil { throw ValidationError("give --iat or --no-iat, not both") }
        if randomJTI, jti != nil { throw ValidationError("--jti is given twice") }
        if jti?.isEmpty == true { throw ValidationError("--jti needs a value, or none at all for a random one") }
        if let now, !(0...Int64(SecondsFlagLimits.maximumInstant)).contains(now) {
            throw ValidationError("--now must be from 0 to \(Int(SecondsFlagLimits.maximumInstant)) seconds since 1970")
        }
    }

    /// The claims the flags set, in flag order; a name set twice is a usage error.
    ///
    /// - Parameters:
    ///   - now: seconds since 1970 for relative times and the default `iat`.
    ///   - withoutClaimsFile: whether `iat` defaults to now.
    /// - Throws: ``CLIFailure`` (exit 2) for an unusable value.
    func claims(now: Int64, withoutClaimsFile: Bool) throws -> [(String, JSONOutput)] {
        var claims: [(String, JSONOutput)] = []
        func add(_ name: String, _ value: JSONOutput) throws {
            guard !claims.contains(where: { $0.0 == name }) else {
                throw CLIFailure.usage("the claim \(JOSEError.quoted(name)) is set by two flags")
            }
            claims.append((name, value))
        }
        if let iss { try add("iss", .string(iss)) }
        if let sub { try add("sub", .string(sub)) }
        if aud.count == 1 { try add("aud", .string(aud[0])) }
        if aud.count > 1 { try add("aud", .array(aud.map(JSONOutput.string))) }
        if let exp { try add("exp", .integer(try exp.seconds(now: now, flag: "--exp"))) }
        if let nbf { try add("nbf", .integer(try nbf.seconds(now: now, flag: "--nbf"))) }
        if let iat {
            try add("iat", .integer(try iat.seconds(now: now, flag: "--iat")))
        } else if withoutClaimsFile, !noIat {
            try add("iat", .integer(now))
        }
        if let jti { try add("jti", .string(jti)) }
        if randomJTI { try add("jti", .string(try withContext("cannot make a random jti") { try RandomValue.nonce() })) }
        for claim in textClaims {
            let (name, value) = try Self.pair(claim, flag: "--claim")
            try add(name, Self.claimValue(value))
        }
        for claim in jsonClaims {
            let (name, text) = try Self.pair(claim, flag: "--claim-json")
            let document = try withContext("--claim-json \(JOSEError.quoted(name)) is not one strict JSON value") {
                try JSONDocument(text: text)
            }
            try add(name, .raw(document.root))
        }
        return claims
    }

    /// The value of `--claim NAME=VALUE`: `text` as its JSON value when it is one strict JSON
    /// value (`123`, `true`, `null`, `[..]`, `{..}`, or a quoted `"123"`, which is a string), else
    /// `text` as a string.
    static func claimValue(_ text: String) -> JSONOutput {
        guard let document = try? JSONDocument(text: text) else { return .string(text) }
        return .raw(document.root)
    }

    /// Splits `NAME=VALUE` at the first `=`; the name must not be empty.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) without a `=` or with an empty name.
    static func pair(_ text: String, flag: String) throws -> (String, String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw CLIFailure.usage("\(flag) takes NAME=VALUE; got \(JOSEError.quoted(text))")
        }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }
}
