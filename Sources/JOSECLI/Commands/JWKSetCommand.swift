import ArgumentParser
import Foundation
import JOSE

/// `jose jwk set`: edits and lists a JWK Set file.
struct JWKSetCommand: ParsableCommand {
    /// Help, name and subcommands.
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Add keys to, remove keys from, or list a JWK Set file.",
        discussion: """
            Examples:
              jose jwk set add jwks.json new.private.jwk.json     # adds the public half
              jose jwk set remove jwks.json --kid 2025-01
              jose jwk set list jwks.json
            """,
        subcommands: [Add.self, Remove.self, List.self])

    /// `jose jwk set add FILE KEY_FILE`.
    struct Add: ParsableCommand {
        /// Help and name.
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a key's public half (a JWK, PEM or certificate key) to a JWK Set file, creating it if needed.",
            discussion: """
                The key needs a kid unique in the set: its own, --kid, or else its RFC 7638 \
                thumbprint. Keys already in the file are kept byte for byte. With --private the \
                private key is added instead and the file is written with mode 0600.

                Examples:
                  jose jwk set add jwks.json new.private.jwk.json --kid 2026-01
                """)

        /// The set file.
        @Argument(help: ArgumentHelp("The JWK Set file (replaced atomically; created when missing).", valueName: "FILE"))
        var file: String

        /// The key.
        @Argument(help: ArgumentHelp("The key to add: JWK, PEM or DER; '-' for stdin.", valueName: "KEY_FILE|-"))
        var key: String

        /// `--kid`.
        @Option(help: ArgumentHelp("The kid to give the added key.", valueName: "KID"))
        var kid: String?

        /// `--private`.
        @Flag(help: "Add the private key (and write the file with mode 0600).")
        var `private` = false

        /// Adds the key.
        func run() throws {
            var document = try KeySetFile.read(file, missingIsEmpty: true)
            let loaded = try KeyFile.load(key)
            let added: JWK
            if self.private {
                added = loaded
            } else {
                guard let publicKey = loaded.publicKey else {
                    throw CLIFailure.input("'\(key)' is an oct (HMAC) secret, which has no public half; add it with --private")
                }
                added = publicKey
            }
            let json = try withContext("cannot export '\(key)'") { try added.jsonString(includingPrivateMembers: self.private) }
            guard let exported = try? JSONDocument(text: json), case .object(var members) = exported.root.output else {
                throw CLIFailure.input("cannot export '\(key)'")
            }
            let keyID = try kid ?? added.keyID ?? withContext("cannot compute the thumbprint of '\(key)'") { try added.thumbprint() }
            members.removeAll { $0.0 == "kid" }
            members.insert(("kid", .string(keyID)), at: 1)
            if document.keyIDs.contains(keyID) {
                throw CLIFailure.input("'\(file)' already has a key with kid \(JOSEError.quoted(keyID)); remove it first or choose --kid")
            }
            document.keys.append(.object(members))
            try document.write(to: file, secret: self.private || document.hasPrivateKeys)
            Console.err("added kid \(JOSEError.quoted(keyID)) to '\(file)' (\(document.keys.count) keys)")
        }
    }

    /// `jose jwk set remove FILE --kid KID`.
    struct Remove: ParsableCommand {
        /// Help and name.
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove the keys with a kid from a JWK Set file.",
            discussion: """
                Examples:
                  jose jwk set remove jwks.json --kid 2025-01
                """)

        /// The set file.
        @Argument(help: ArgumentHelp("The JWK Set file (replaced atomically).", valueName: "FILE"))
        var file: String

        /// `--kid`.
        @Option(help: ArgumentHelp("The kid of the key(s) to remove.", valueName: "KID"))
        var kid: String

        /// Removes the keys.
        func run() throws {
            var document = try KeySetFile.read(file, missingIsEmpty: false)
            let before = document.keys.count
            document.removeKeys(withID: kid)
            guard document.keys.count < before else {
                throw CLIFailure.input("'\(file)' has no key with kid \(JOSEError.quoted(kid))")
            }
            try document.write(to: file, secret: document.hasPrivateKeys)
            Console.err("removed \(before - document.keys.count) key(s) with kid \(JOSEError.quoted(kid)) from '\(file)' (\(document.keys.count) left)")
        }
    }

    /// `jose jwk set list FILE`.
    struct List: ParsableCommand {
        /// Help and name.
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the keys of a JWK Set file: kid, kty, crv, alg, use, thumbprint; skipped keys with reasons.",
            discussion: """
                Examples:
                  jose jwk set list jwks.json
                """)

        /// The set file.
        @Argument(help: ArgumentHelp("The JWK Set file, or '-' for stdin.", valueName: "FILE|-"))
        var file: String

        /// Lists the keys.
        func run() throws {
            let bytes = try InputFile.bytes(at: file, what: "JWK Set")
            let keySet = try withContext("cannot use JWK Set '\(file)'") {
                try JWKSet(json: bytes, allowSecretKeys: true, allowPrivateKeys: true)
            }
            for line in KeySetSummary.lines(keySet) { Console.out(line) }
        }
    }
}
