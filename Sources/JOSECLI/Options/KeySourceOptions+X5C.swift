import ArgumentParser
import Foundation
import JOSE

/// `--x5c-policy`'s values.
enum X5CPolicyArgument: String, ExpressibleByArgument, CaseIterable {
    /// App Store Server Notifications and StoreKit 2 signed data.
    case appStore = "app-store"
}

/// `--x5c-time NOW|UNIX|claim:NAME`.
enum X5CTimeArgument: ExpressibleByArgument {
    /// The clock.
    case now
    /// A fixed instant, seconds since 1970.
    case instant(Double)
    /// A payload number, seconds since 1970.
    case claim(String)

    /// Parses `NOW`, a number of seconds, or `claim:NAME`.
    init?(argument: String) {
        if argument.uppercased() == "NOW" {
            self = .now
        } else if argument.hasPrefix("claim:"), argument.count > 6 {
            self = .claim(String(argument.dropFirst(6)))
        } else if let seconds = Double(argument), seconds.isFinite, abs(seconds) <= SecondsFlagLimits.maximumInstant {
            self = .instant(seconds)
        } else {
            return nil
        }
    }
}

extension KeySourceOptions {
    /// The chain verifier that `--x5c-roots` and `--x5c-policy` describe; `nil` when neither is given.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) for a roots file that cannot be read or holds no certificate.
    func x5cVerifier() throws -> X5CVerifier? {
        guard x5cRoots != nil || x5cPolicy != nil else { return nil }
        var roots: [[UInt8]]?
        if let x5cRoots {
            let bytes = try InputFile.bytes(at: x5cRoots, what: "roots file")
            roots = try withContext("cannot use roots file '\(x5cRoots)'") {
                try X5CVerifier(trustedRootsPEM: String(decoding: bytes, as: UTF8.self)).trustedRoots
            }
        }
        var verifier: X5CVerifier
        if x5cPolicy == .appStore {
            verifier = X5CVerifier.appStore(trustedRoots: roots)
        } else {
            verifier = try withContext("cannot use --x5c-roots") { try X5CVerifier(trustedRoots: roots ?? []) }
        }
        if let allowList {
            verifier.algorithms.formIntersection(allowList)
        }
        switch x5cTime {
        case nil: break
        case .now?: verifier.validationTime = .clock
        case .instant(let seconds)?:
            verifier.validationTime = .clock
            verifier.clock = .fixed(secondsSince1970: seconds)
        case .claim(let name)?: verifier.validationTime = .claim(name, inMilliseconds: false)
        }
        return verifier
    }
}
