import JOSE

/// How the commands that talk to a provider (`callback`, `userinfo`, `revoke`) report a library
/// error: exit 3 when the provider cannot be reached or used, 2 for unusable input, 1 when the
/// provider or a check refused.
enum ProviderRefusal {
    /// What the failed step was, which names the outcome in the output.
    enum Step {
        /// A check of what came back (`callback`): `{"valid":false,...}`, or `invalid: ...`.
        case check
        /// A request to the provider (`userinfo`, `revoke`): `{"ok":false,...}`, or `refused: ...`.
        case request
    }

    /// Prints `error` (one JSON object with `json`, with the provider's OAuth error fields when it
    /// sent some) and ends with its exit code.
    ///
    /// - Throws: ``CLIFailure`` always, its outcome already printed.
    static func report(_ error: JOSEError, json: Bool, step: Step) throws -> Never {
        let remote = error.code.isRemoteFailure
        let usage = error.code == .invalidInput || error.code == .sessionStoreFailed
        if json {
            var details = [("code", JSONOutput.string(error.code.rawValue)), ("message", .string(error.message))]
            if let provider = error.providerError {
                details.append(("error", .string(provider.error)))
                if let description = provider.errorDescription { details.append(("error_description", .string(description))) }
                if let uri = provider.errorURI { details.append(("error_uri", .string(uri))) }
            }
            let outcome = step == .check ? "valid" : "ok"
            Console.out(JSONOutput.object([(outcome, .bool(false)), ("error", .object(details))]).serialized())
        } else if remote || usage {
            Console.err("jose: error: " + error.description)
        } else {
            Console.err(Console.paint(step == .check ? "invalid" : "refused", .red) + ": " + error.description)
        }
        throw CLIFailure(status: remote ? .remote : usage ? .usage : .rejected, message: nil, hint: nil)
    }
}
