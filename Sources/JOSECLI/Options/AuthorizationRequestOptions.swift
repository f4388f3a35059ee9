import ArgumentParser
import JOSEOAuth

/// What `authorize-url` and `login` ask the provider for: scopes, `acr_values`, `prompt`,
/// `login_hint`, `max_age` and further parameters.
struct AuthorizationRequestOptions: ParsableArguments {
    /// `--scope`, repeatable, each a scope or a space-separated list (see ``ScopeList``).
    @Option(help: ArgumentHelp(
        "A scope to ask for, or a space-separated list of them (repeatable); openid is always included.",
        valueName: "S"))
    var scope: [String] = []

    /// `--acr-values`.
    @Option(help: ArgumentHelp("acr_values (space-separated).", valueName: "V"))
    var acrValues: String?

    /// `--prompt`.
    @Option(help: ArgumentHelp("prompt (space-separated), e.g. login.", valueName: "P"))
    var prompt: String?

    /// `--login-hint`.
    @Option(help: ArgumentHelp("login_hint.", valueName: "H"))
    var loginHint: String?

    /// `--max-age`.
    @Option(help: ArgumentHelp("max_age in seconds.", valueName: "N"))
    var maxAge: Int?

    /// `--param`.
    @Option(help: ArgumentHelp("A further parameter k=v (repeatable); never a security parameter.", valueName: "k=v"))
    var param: [String] = []

    /// Usable scopes, and parameters as k=v.
    func validate() throws {
        _ = try ScopeList.scopes(scope)
        for item in param where !item.contains("=") || item.hasPrefix("=") {
            throw ValidationError("--param takes k=v, got '\(item)'")
        }
    }

    /// `openid` first, then the scopes asked for.
    var scopes: [String] {
        get throws { ["openid"] + (try ScopeList.scopes(scope)).filter { $0 != "openid" } }
    }

    /// The `--param` pairs, in order.
    var extraParameters: [(name: String, value: String)] {
        param.map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    /// The authorization request these options describe.
    ///
    /// - Parameters:
    ///   - clientID: The client id.
    ///   - redirectURI: The redirect URI.
    func request(clientID: String, redirectURI: String) throws -> AuthorizationRequest {
        var request = AuthorizationRequest(clientID: clientID, redirectURI: redirectURI, scopes: try scopes)
        request.acrValues = acrValues.map { $0.split(separator: " ").map(String.init) } ?? []
        request.prompt = prompt.map { $0.split(separator: " ").map(String.init) } ?? []
        request.loginHint = loginHint
        request.maxAge = maxAge.map { .seconds($0) }
        request.extraParameters = extraParameters
        return request
    }
}
