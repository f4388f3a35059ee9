import Foundation
import JOSE

/// Time claims as people read them: ISO 8601 plus a relative phrase, e.g.
/// `exp: 2026-01-01T01:00:00Z (expired 325 days ago)`.
///
/// Every value is range-checked: a number outside the years 1 to 9999, or not a finite number,
/// is written as it is, never converted in a way that could trap.
struct ReadableTime {
    /// The time claims shown, in this order.
    static let claimNames = ["exp", "nbf", "iat", "auth_time"]

    /// The zone to write times in.
    let zone: DateZone
    /// The instant relative phrases are measured from, in seconds since 1970.
    let now: Double

    /// The earliest instant written as a date: 0001-01-01T00:00:00Z.
    static let earliest: Double = -62_135_596_800
    /// The latest instant written as a date: 9999-12-31T23:59:59Z.
    static let latest: Double = 253_402_300_799

    /// One line per time claim present in the JSON object `claims`, e.g.
    /// `iat: 2026-11-22T15:00:00Z (3 h ago)`; none when `claims` is not a JSON object.
    func lines(forClaims claims: [UInt8]) -> [String] {
        guard let document = try? JSONDocument(bytes: claims), document.root.kind == .object else { return [] }
        return Self.claimNames.compactMap { name in
            document.root[name].map { "\(name): " + describe(name, $0) }
        }
    }

    /// The readable form of the claim `name` in `claims`, or `nil` when it is absent.
    func claim(_ name: String, inClaims claims: [UInt8]) -> String? {
        guard let document = try? JSONDocument(bytes: claims), document.root.kind == .object,
              let value = document.root[name] else { return nil }
        return "\(name) " + describe(name, value)
    }

    /// `2026-01-01T01:00:00Z (expired 325 days ago)` for a number; a note for anything else.
    func describe(_ name: String, _ value: JSONValue) -> String {
        guard value.kind == .number, let seconds = value.number else {
            return "not a number of seconds (\(JOSEError.quoted(String(decoding: value.rawBytes, as: UTF8.self))))"
        }
        return describe(name, seconds: seconds)
    }

    /// `2026-01-01T01:00:00Z (expired 325 days ago)` for `seconds` since 1970.
    func describe(_ name: String, seconds: Double) -> String {
        guard let date = iso8601(seconds) else { return "\(seconds) (outside the years 1 to 9999)" }
        return "\(date) (\(relative(name, seconds: seconds)))"
    }

    /// `2026-01-01T01:00:00Z (expired 325 days ago)` for `instant`.
    func describe(_ name: String, _ instant: Date) -> String {
        describe(name, seconds: instant.timeIntervalSince1970)
    }

    /// ISO 8601 with seconds, in ``zone``; `nil` outside ``earliest``...``latest``.
    func iso8601(_ seconds: Double) -> String? {
        guard seconds.isFinite, seconds >= Self.earliest, seconds <= Self.latest else { return nil }
        let whole = Int64(seconds.rounded(.down))
        var offset: Int64 = 0
        if zone == .local {
            offset = Int64(TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: Double(whole))))
        }
        let local = whole + offset
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let secondOfDay = local - days * 86_400
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        var text = Self.pad(year, 4) + "-" + Self.pad(month, 2) + "-" + Self.pad(day, 2) + "T"
            + Self.pad(secondOfDay / 3600, 2) + ":" + Self.pad(secondOfDay / 60 % 60, 2) + ":" + Self.pad(secondOfDay % 60, 2)
        if zone == .utc {
            text += "Z"
        } else {
            text += (offset < 0 ? "-" : "+") + Self.pad(abs(offset) / 3600, 2) + ":" + Self.pad(abs(offset) / 60 % 60, 2)
        }
        return text
    }

    /// "in 54 min", "3 h ago", or for `exp` in the past "expired 325 days ago".
    func relative(_ name: String, seconds: Double) -> String {
        let difference = seconds - now
        guard difference.isFinite else { return "at an unknown distance" }
        let span = Self.span(abs(difference))
        if span == "0 s" { return "now" }
        if difference > 0 { return "in " + span }
        return name == "exp" ? "expired \(span) ago" : "\(span) ago"
    }

    /// A span in the largest fitting unit, whole units only: `42 s`, `54 min`, `3 h`, `325 days`.
    static func span(_ seconds: Double) -> String {
        let whole = seconds < 1e15 ? Int64(seconds.rounded(.down)) : Int64(1e15)
        switch whole {
        case ..<60: return "\(whole) s"
        case ..<3600: return "\(whole / 60) min"
        case ..<(48 * 3600): return "\(whole / 3600) h"
        default:
            let days = whole / 86_400
            return days == 1 ? "1 day" : "\(days) days"
        }
    }

    /// The proleptic Gregorian date of a day count from 1970-01-01 (H. Hinnant's algorithm).
    private static func civilDate(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `value` in decimal, zero-padded to `width` digits.
    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
