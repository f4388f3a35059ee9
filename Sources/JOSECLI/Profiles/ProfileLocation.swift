import ArgumentParser
import Foundation
import JOSEOAuth

/// Where `jose` keeps its profiles: `$JOSE_CONFIG_DIR/profiles/`, otherwise
/// `$XDG_CONFIG_HOME/jose/profiles/`, otherwise `~/.config/jose/profiles/`; one file per
/// profile, `NAME.json`.
enum ProfileLocation {
    /// The profile name used without `--profile`.
    static let defaultName = "default"

    /// The profiles directory for `environment`.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when no variable names a usable absolute directory.
    static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        func absolute(_ name: String) -> String? {
            guard let value = environment[name], value.hasPrefix("/") else { return nil }
            return value.hasSuffix("/") ? String(value.dropLast()) : value
        }
        if let config = absolute("JOSE_CONFIG_DIR") { return config + "/profiles" }
        if let xdg = absolute("XDG_CONFIG_HOME") { return xdg + "/jose/profiles" }
        if let home = absolute("HOME") { return home + "/.config/jose/profiles" }
        throw CLIFailure.usage("cannot tell where profiles live", hint: "set JOSE_CONFIG_DIR to an absolute directory")
    }

    /// The file store of profile `name`.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) for a name that is not 1 to 64 letters, digits, `.`,
    ///   `_` or `-` (not starting with `.`), or no usable directory.
    static func store(named name: String) throws -> FileSessionStore {
        try check(name)
        return try FileSessionStore(path: directory() + "/" + name + ".json")
    }

    /// The names of the stored profiles, sorted.
    static func names() throws -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory())) ?? []
        return entries.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
            .filter { (try? check($0)) != nil }.sorted()
    }

    /// Refuses an unusable profile name.
    static func check(_ name: String) throws {
        let allowed = name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        guard allowed, (1...64).contains(name.utf8.count), !name.hasPrefix(".") else {
            throw CLIFailure.usage("the profile name '\(name)' is not 1 to 64 letters, digits, '.', '_' or '-'",
                                   hint: "for example --profile work")
        }
    }
}

/// `--profile NAME`: which stored login a command uses.
struct ProfileOption: ParsableArguments {
    /// `--profile`.
    @Option(help: ArgumentHelp("The stored login to use (default: 'default'; see 'jose profiles').", valueName: "NAME"))
    var profile: String?

    /// The profile's name: `--profile`, or `default`.
    var name: String { profile ?? ProfileLocation.defaultName }

    /// A usable name.
    func validate() throws {
        if let profile { try ProfileLocation.check(profile) }
    }
}
