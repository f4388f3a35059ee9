import Foundation
import JOSE

/// A file a command reads (a key, key set, secret, claims or transaction file), or standard
/// input in its place for `-`, read no further than a size limit.
enum InputFile {
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

    /// A short reason for a Foundation file error.
    private static func reason(of error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        switch nsError.code {
        case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return "no such file"
        case NSFileReadNoPermissionError: return "permission denied"
        default: return nsError.localizedDescription
        }
    }
}
