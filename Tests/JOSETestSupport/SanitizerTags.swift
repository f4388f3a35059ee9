import Testing

extension Tag {
    /// Suites CI runs a second time under AddressSanitizer (`.ci/run`, which selects them by this
    /// tag through `.ci/run-tagged-suites.py`): the parsers of everything an attacker sends
    /// (tokens, keys, JSON, base64url, login and resource-server requests), the vectors through
    /// them, the CLI's batch buffers, and the fallback lock's own heap block.
    @Tag public static var addressSanitized: Self

    /// Suites CI runs a second time under ThreadSanitizer (`.ci/run`, selected by this tag): what
    /// shares state between threads or tasks (the OpenSSL context pool, the JWKS cache, the
    /// issuer registries, the DPoP caches, the locks and atomics, the async entry points).
    @Tag public static var threadSanitized: Self
}
