import ArgumentParser

/// `--scope` values: each may be one scope or a space-separated list (`--scope "openid profile"`),
/// and the flag may be repeated; the scopes in order, each once.
enum ScopeList {
    /// The scopes in `values`, split at spaces, tabs and line ends, without repeats.
    ///
    /// - Throws: `ValidationError` when a value holds no scope at all (empty or only spaces).
    static func scopes(_ values: [String]) throws -> [String] {
        var scopes: [String] = []
        for value in values {
            let parts = value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0.isNewline }).map(String.init)
            guard !parts.isEmpty else { throw ValidationError("--scope needs a scope, or a space-separated list of them") }
            for part in parts where !scopes.contains(part) { scopes.append(part) }
        }
        return scopes
    }
}
