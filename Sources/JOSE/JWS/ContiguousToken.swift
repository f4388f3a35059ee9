/// A token's bytes as one contiguous buffer, read where they lie whatever type holds them (or
/// copied once when they are not contiguous): inlined into the caller, so that the caller's
/// compiler specialises it for the token's type.
@usableFromInline
enum ContiguousToken {
    /// Calls `body` with the UTF-8 of `token` in place (a native `String` or `Substring`), or of
    /// a contiguous copy.
    @inlinable
    static func withUTF8<Result>(
        of token: some StringProtocol, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        try withUTF8(of: token, passing: ()) { _, token in try body(token) }
    }

    /// ``withUTF8(of:_:)`` that hands `context` (a verifier) to `body`, so that `body` captures
    /// nothing. When the compiler specialises this call for a closure that captures a struct of
    /// several references, it may pass the closure its own copy of the struct: `JWSVerifier`'s
    /// string entry point was copied so once per token, retaining and releasing references that
    /// every thread verifying with it shares (a `gdb` trace of `swift_retain`). Such verifiers
    /// (`JWSVerifier`, `DPoPProofVerifier`) pass themselves; the traces of `JWTVerifier`, one
    /// reference wide, showed no copy.
    @inlinable
    static func withUTF8<Context, Result>(
        of token: some StringProtocol, passing context: Context,
        _ body: (Context, UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        if let result = try token.utf8.withContiguousStorageIfAvailable({ try body(context, UnsafeRawBufferPointer($0)) }) {
            return result
        }
        var copy = String(token)
        return try copy.withUTF8 { try body(context, UnsafeRawBufferPointer($0)) }
    }

    /// Calls `body` with `token`'s bytes in place when they are contiguous (`[UInt8]`, `Data`,
    /// `ArraySlice`, buffer pointers), or with a contiguous copy.
    @inlinable
    static func withBytes<Result>(
        of token: some Collection<UInt8>, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        if let result = try token.withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return try Array(token).withUnsafeBytes(body)
    }
}
