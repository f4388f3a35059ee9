#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import JOSE

/// One fuzz target: a name for the command line and a function that must never crash, trap,
/// or throw anything but a ``JOSEError`` on any input.
struct FuzzTarget: Sendable {
    /// The name given as `jose-fuzz NAME`; also the corpus folder `Tests/Fuzz/Corpus/NAME`.
    let name: String
    /// Checks one input; calls ``fuzzFailure(_:)`` when a property does not hold.
    let run: @Sendable ([UInt8]) -> Void

    /// Every target, in the order `run.sh` runs them.
    static let all: [FuzzTarget] = [
        .base64url, .json, .jwsParts, .jwk, .jwks, .keyImport, .jwsVerify, .jwtVerify, .roundTrip,
        .formURLEncoded, .oauthCallback, .oauthDocuments, .resourceHeaders, .jweDecrypt, .x5c,
    ]
}

/// Writes `text` to standard error (file descriptor 2) unbuffered.
func printToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// Reports a broken property and aborts, so libFuzzer saves the input as a crash reproducer.
func fuzzFailure(_ message: String) -> Never {
    printToStandardError("jose-fuzz: property failed: \(message)\n")
    abort()
}

/// Runs `body`; success and a ``JOSEError`` are both fine, any other error is a bug.
///
/// - Returns: the value, or `nil` when `body` threw a ``JOSEError``.
func allowingJOSEError<Value>(_ what: String, _ body: () throws -> Value) -> Value? {
    do {
        return try body()
    } catch is JOSEError {
        return nil
    } catch {
        fuzzFailure("\(what) threw a non-JOSEError: \(error)")
    }
}

/// Like ``allowingJOSEError(_:_:)`` for an `async` body.
func allowingJOSEError<Value>(_ what: String, _ body: () async throws -> Value) async -> Value? {
    do {
        return try await body()
    } catch is JOSEError {
        return nil
    } catch {
        fuzzFailure("\(what) threw a non-JOSEError: \(error)")
    }
}

/// Runs `body` in a task and blocks this (fuzzer) thread until it is done: libFuzzer calls each
/// target synchronously.
func waitForTask<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
    let outcome = TaskOutcome<Value>()
    let done = DispatchSemaphore(value: 0)
    Task {
        outcome.value = await body()
        done.signal()
    }
    done.wait()
    // Taken out of the outcome, which the task may still hold while it ends on its own thread:
    // libFuzzer looks for leaks as soon as the target returns, and LeakSanitizer cannot follow
    // every reference inside a value (see lsan.supp), so a value the task still held then was
    // reported as leaked (seen on x5c, swift-crypto, with the cores busy).
    guard let value = outcome.take() else { fuzzFailure("a task ended without a value") }
    return value
}

/// What a task of ``waitForTask(_:)`` produced, written by the task before it signals and taken
/// after the wait.
private final class TaskOutcome<Value>: @unchecked Sendable {
    var value: Value?

    /// The value, no longer held here.
    func take() -> Value? {
        defer { value = nil }
        return value
    }
}

/// Like ``allowingJOSEError(_:_:)`` but returns the outcome as text: "ok" or the error code.
func outcomeCode(_ what: String, _ body: () throws -> Void) -> String {
    do {
        try body()
        return "ok"
    } catch let error as JOSEError {
        return error.code.rawValue
    } catch {
        fuzzFailure("\(what) threw a non-JOSEError: \(error)")
    }
}
