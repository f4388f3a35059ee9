import Foundation
import JOSE

/// Reading the files and standard input a command names.
enum LocalInput {
    /// The most bytes a key, key-set, secret or claims file may hold: 1 MiB, as a remote key
    /// set's body.
    static let maximumFileBytes = 1 << 20

    /// The bytes of `path`, or of standard input when `path` is `-`, read no further than
    /// ``maximumFileBytes``.
    ///
    /// - Parameter what: names the file in messages, e.g. `key file`.
    /// - Throws: ``CLIFailure`` (exit 2) when the file cannot be read or is larger.
    static func bytes(at path: String, what: String) throws -> [UInt8] {
        let bytes: [UInt8]?
        if path == "-" {
            bytes = try Console.readInput(atMost: maximumFileBytes)
        } else {
            do {
                let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
                defer { try? handle.close() }
                let data = try handle.read(upToCount: maximumFileBytes + 1) ?? Data()
                bytes = data.count > maximumFileBytes ? nil : [UInt8](data)
            } catch {
                throw CLIFailure.input("cannot read \(what) '\(path)': \(reason(of: error))")
            }
        }
        guard let bytes else {
            throw CLIFailure.input("cannot use \(what) '\(path)': it is larger than \(maximumFileBytes) bytes")
        }
        return bytes
    }

    /// A token from an argument, or from standard input for `-` or no argument, with one
    /// trailing newline (`\n` or `\r\n`) removed. Standard input is read no further than the
    /// token limit and a line end.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when no token is given and stdin is a terminal;
    ///   ``JOSE/JOSEError`` `malformed` when standard input holds more than a token may.
    static func token(_ argument: String?) throws -> String {
        if let argument, argument != "-" { return argument }
        if argument == nil, Console.stdinIsTerminal {
            throw CLIFailure.usage("no token given", hint: "pass the token as an argument, or '-' to read it from stdin")
        }
        let limit = JWSLimits.default.maximumTokenBytes
        guard var bytes = try Console.readInput(atMost: limit + 2) else {
            throw JOSEError(.malformed, "the token is larger than \(limit) bytes")
        }
        if bytes.last == UInt8(ascii: "\n") {
            bytes.removeLast()
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `text` to `path`, replacing the file.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when the file cannot be written.
    static func write(_ text: String, to path: String, what: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CLIFailure.input("cannot write \(what) '\(path)': \(reason(of: error))")
        }
    }

    /// A short reason for a Foundation file error.
    private static func reason(of error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        switch nsError.code {
        case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return "no such file"
        case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "permission denied"
        default: return nsError.localizedDescription
        }
    }
}

/// Loading one key from a file: PEM, a single JWK, or DER.
enum KeyFile {
    /// Loads the key in `path` (or stdin for `-`) under `policy`.
    ///
    /// Text starting with `-----BEGIN CERTIFICATE-----` is an X.509 certificate whose key is
    /// taken (the certificate itself is not validated), other `-----BEGIN` text a PEM key, text
    /// starting with `{` one JWK (a JWK Set is refused with a pointer to `--jwks`), anything
    /// else a DER key.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when the file cannot be read or holds no usable key.
    static func load(_ path: String, policy: KeyPolicy = .default) throws -> JWK {
        try load(bytes: try LocalInput.bytes(at: path, what: "key file"), named: path, policy: policy)
    }

    /// Loads the key in `bytes`, read from `path`, as ``load(_:policy:)`` does.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when the bytes hold no usable key.
    static func load(bytes: [UInt8], named path: String, policy: KeyPolicy = .default) throws -> JWK {
        let context = "cannot use key file '\(path)'"
        let leading = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if leading.starts(with: Array("-----BEGIN CERTIFICATE-----".utf8)) {
            return try withContext(context) { try JWK(certificate: bytes, policy: policy) }
        }
        if leading.starts(with: Array("-----BEGIN".utf8)) {
            return try withContext(context) { try JWK(pem: String(decoding: bytes, as: UTF8.self), policy: policy) }
        }
        if leading.first == UInt8(ascii: "{") {
            if (try? JWKSet(json: bytes, allowPrivateKeys: true)) != nil {
                throw CLIFailure.input("\(context): it is a JWK Set; pass it with --jwks, or one key from it")
            }
            return try withContext(context) { try JWK(json: bytes, policy: policy) }
        }
        return try withContext(context) { try JWK(der: bytes, policy: policy) }
    }
}
