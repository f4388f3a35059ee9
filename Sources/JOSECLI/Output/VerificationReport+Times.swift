import JOSE

extension VerificationReport {
    /// The error codes about a time claim, and the claim each one is about.
    static let timeClaimOfCode: [JOSEError.Code: String] = [
        .expired: "exp", .notYetValid: "nbf", .issuedInFuture: "iat", .tokenTooOld: "iat", .authTimeTooOld: "auth_time",
    ]

    /// The human output with readable times: after a verified JWT, one line per time claim on
    /// stderr; a time-claim rejection names the claim's date and distance after the message,
    /// e.g. `invalid: expired: ...; exp 2026-01-01T01:00:00Z (expired 325 days ago)`.
    ///
    /// - Parameters:
    ///   - token: the token as verified, read for its claims when a time claim rejected it.
    ///   - times: the zone and the instant to write times against.
    func printHuman(token: String, times: ReadableTime) {
        switch outcome {
        case .verified(.jwt(let jwt)):
            printHuman()
            for line in times.lines(forClaims: Array(jwt.claims.jsonString.utf8)) { Console.err(line) }
        case .failure(let error):
            guard let claim = Self.timeClaimOfCode[error.code],
                  let payload = try? UnverifiedJWS(unverified: token).payload,
                  let readable = times.claim(claim, inClaims: payload) else {
                printHuman()
                return
            }
            Console.err(Console.paint("invalid", .red) + ": " + error.description + "; " + readable)
        default:
            printHuman()
        }
    }
}
