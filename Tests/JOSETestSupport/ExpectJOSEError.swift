import Testing
import JOSE

/// Runs `body` and returns the `JOSEError` it throws, recording an issue if it throws something
/// else or nothing.
public func expectJOSEError<T>(
    _ code: JOSEError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> T
) async -> JOSEError? {
    do {
        let value = try await body()
        Issue.record("expected \(code), got \(value)", sourceLocation: sourceLocation)
    } catch let error as JOSEError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected JOSEError \(code), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
