import Foundation
import JOSETestSupport
import Testing

/// Readable exp/nbf/iat/auth_time lines in `decode` and human `verify`, and in time-claim errors.
@Suite("jose: readable times")
struct ReadableTimeCommandTests {
    @Test("decode adds an ISO 8601 line with a relative phrase for each time claim, on stderr only")
    func decodeLines() async throws {
        let token = try JoseProcess.exampleText("id-token-expired.jwt")
        // exp 1767229200 (2026-01-01T01:00:00Z), iat and auth_time an hour earlier.
        let result = try await JoseProcess.run(["decode", "--now", "1795342000", token])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("exp: 2026-01-01T01:00:00Z (expired 325 days ago)"), "\(result)")
        #expect(result.stderr.contains("iat: 2026-01-01T00:00:00Z (325 days ago)"))
        #expect(result.stderr.contains("auth_time: 2026-01-01T00:00:00Z (325 days ago)"))
        #expect(!result.stderr.contains("nbf:"))
        // stdout is the JSON document it always was.
        let object = try result.jsonObject()
        #expect((object["payload"] as? [String: Any])?["exp"] as? Int == 1_767_229_200)
        #expect(!result.stdout.contains("2026-01-01"))
    }

    @Test("relative phrases: in N min, N h ago, N s, now", arguments: [
        ("1767225960", "exp: 2026-01-01T01:00:00Z (in 54 min)"),
        ("1767225960", "iat: 2026-01-01T00:00:00Z (6 min ago)"),
        ("1767236400", "iat: 2026-01-01T00:00:00Z (3 h ago)"),
        ("1767236400", "exp: 2026-01-01T01:00:00Z (expired 2 h ago)"),
        ("1767229242", "exp: 2026-01-01T01:00:00Z (expired 42 s ago)"),
        ("1767229200", "exp: 2026-01-01T01:00:00Z (now)"),
        ("1767315600", "iat: 2026-01-01T00:00:00Z (25 h ago)"),
        ("1767402000", "iat: 2026-01-01T00:00:00Z (2 days ago)"),
    ])
    func phrases(now: String, expected: String) async throws {
        let token = try JoseProcess.exampleText("id-token-expired.jwt")
        let result = try await JoseProcess.run(["decode", "--now", now, token])
        #expect(result.stderr.contains(expected), "\(result)")
    }

    @Test("--date local writes the offset; --date utc writes Z")
    func localZone() async throws {
        let token = try JoseProcess.exampleText("id-token-expired.jwt")
        let local = try await JoseProcess.run(["decode", "--date", "local", "--now", "1767229200", token])
        #expect(local.status == 0)
        let line = local.stderr.split(separator: "\n").first { $0.hasPrefix("exp: ") }.map(String.init) ?? ""
        #expect(line.range(of: #"^exp: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d \(now\)$"#, options: .regularExpression) != nil, "\(local)")
        let bad = try await JoseProcess.run(["decode", "--date", "mars", token])
        #expect(bad.status == 2)
    }

    @Test("odd time values never trap: huge, negative, fractional, not numbers")
    func oddValues() async throws {
        let header = "eyJhbGciOiJIUzI1NiJ9"
        let claims = #"{"exp":1e300,"nbf":-99999999999999,"iat":1767229200.75,"auth_time":"yesterday"}"#
        let payload = Data(claims.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let result = try await JoseProcess.run(["decode", "--now", "1767229200", "\(header).\(payload).c2ln"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("exp: 1e+300 (outside the years 1 to 9999)"), "\(result)")
        #expect(result.stderr.contains("nbf: -99999999999999.0 (outside the years 1 to 9999)"), "\(result)")
        #expect(result.stderr.contains("iat: 2026-01-01T01:00:00Z (now)"), "\(result)")
        #expect(result.stderr.contains(#"auth_time: not a number of seconds ("\"yesterday\"")"#), "\(result)")
        let far = try await JoseProcess.run(["decode", "--now", "1e300", "\(header).\(payload).c2ln"])
        #expect(far.status == 2)
    }

    @Test("calendar edges: year 1, year 9999, a leap day, before 1970")
    func calendarEdges() async throws {
        let claims = #"{"exp":253402300799,"nbf":-62135596800,"iat":951782400,"auth_time":-1}"#
        let payload = Data(claims.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let result = try await JoseProcess.run(["decode", "--now", "0", "eyJhbGciOiJIUzI1NiJ9.\(payload).c2ln"])
        #expect(result.stderr.contains("exp: 9999-12-31T23:59:59Z (in 2932896 days)"), "\(result)")
        #expect(result.stderr.contains("nbf: 0001-01-01T00:00:00Z (719162 days ago)"))
        #expect(result.stderr.contains("iat: 2000-02-29T00:00:00Z (in 11016 days)"))
        #expect(result.stderr.contains("auth_time: 1969-12-31T23:59:59Z (1 s ago)"))
    }

    @Test("--date local follows TZ, half-hour offsets included")
    func localZoneFollowsTZ() throws {
        let token = try JoseProcess.exampleText("id-token-expired.jwt")
        for (zone, expected) in [("Asia/Kolkata", "exp: 2026-01-01T06:30:00+05:30 (now)"),
                                 ("America/St_Johns", "exp: 2025-12-31T21:30:00-03:30 (now)"), ("UTC", "exp: 2026-01-01T01:00:00+00:00 (now)")] {
            let run = try ChildProcess.run(JoseProcess.binary.path, ["decode", "--date", "local", "--now", "1767229200", token],
                                           environment: ["TZ": zone, "NO_COLOR": "1"])
            let text = String(decoding: run.stderr, as: UTF8.self)
            #expect(text.contains(expected), "\(zone): \(text)")
        }
    }

    @Test("human verify: readable lines after the status; --json unchanged")
    func verifyLines() async throws {
        let token = try JoseProcess.exampleText("id-token-expired.jwt")
        let human = try await JoseProcess.run(idTokenArguments + ["--now", "1767225960", token])
        #expect(human.status == 0, "\(human)")
        #expect(human.stderr.contains("exp: 2026-01-01T01:00:00Z (in 54 min)"), "\(human)")
        let json = try await JoseProcess.run(idTokenArguments + ["--now", "1767225960", "--json", token])
        #expect(json.status == 0)
        #expect(json.stderr.isEmpty)
        #expect(Set(try json.jsonObject().keys) == ["valid", "header", "claims"])
    }

    @Test("time-claim rejections carry the readable form; the --json message stays the library's")
    func errorMessages() async throws {
        let token = try JoseProcess.exampleText("id-token-expired.jwt")
        let expired = try await JoseProcess.run(idTokenArguments + ["--now", "1795342000", token])
        #expect(expired.status == 1)
        #expect(expired.stderr.hasPrefix("invalid: expired: "))
        #expect(expired.stderr.contains("; exp 2026-01-01T01:00:00Z (expired 325 days ago)"), "\(expired)")
        let early = try await JoseProcess.run(idTokenArguments + ["--now", "1767200000", "--leeway", "0", token])
        #expect(early.status == 1)
        #expect(early.stderr.hasPrefix("invalid: issued_in_future: "), "\(early)")
        #expect(early.stderr.contains("; iat 2026-01-01T00:00:00Z (in 7 h)"), "\(early)")
        let old = try await JoseProcess.run(idTokenArguments + ["--now", "1767229000", "--max-age", "60", token])
        #expect(old.status == 1)
        #expect(old.stderr.hasPrefix("invalid: auth_time_too_old: "), "\(old)")
        #expect(old.stderr.contains("; auth_time 2026-01-01T00:00:00Z (56 min ago)"), "\(old)")
        let json = try await JoseProcess.run(idTokenArguments + ["--now", "1795342000", "--json", token])
        let message = (try json.jsonObject()["error"] as? [String: Any])?["message"] as? String
        #expect(message?.contains("2026") == false)
    }
}
