#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JOSE
import JOSEOAuth
import Foundation

/// Keys from `Vectors/examples`, read once (through `#filePath`, so run from a checkout).
enum Fixtures {
    /// The repository's `Vectors/examples` folder.
    static let examples: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)  // Sources, Fuzz, Tests, this file
        return parts.joined(separator: "/") + "/Vectors/examples/"
    }()

    /// The text of `Vectors/examples/NAME`; aborts when missing (a broken checkout, not a finding).
    static func text(_ name: String) -> String {
        guard let file = fopen(examples + name, "rb") else { fuzzFailure("cannot open \(examples + name)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Builds a fixture value; a failure here is a broken checkout, not a finding.
    static func load<Value>(_ what: String, _ body: () throws -> Value) -> Value {
        do { return try body() } catch { fuzzFailure("fixture \(what): \(error)") }
    }

    /// The public keys every example token verifies with: RS256 issuer, ES256, HS256 (`oct`).
    static let publicKeySet: JWKSet = load("key set") {
        let rsa = try JWKSet(json: text("jwks.json")).keys
        let ec = try JWKSet(json: text("es256.jwks.json")).keys
        let hmac = try JWK(json: text("hs256.jwk.json"))
        return JWKSet(keys: rsa + ec + [hmac])
    }

    /// An HS256 secret without a `kid`, so a verifier given it alone accepts any token `kid`.
    static let hmacKey: JWK = load("hs256") { try JWK.symmetric(Array("swift-jose round-trip fuzzing secret, 256 bits".utf8)) }
    /// The JWE recipient's keys: an A128KW and a `dir` secret fixed by `make-corpus.py`'s
    /// seeds (so those decrypt), and EC, RSA and X25519 keys generated per run.
    static let jweDecrypter: JWEDecrypter = load("jwe keys") {
        try JWEDecrypter(keys: [
            JWK(json: #"{"kty":"oct","use":"enc","kid":"jwe-a128kw","k":"c3dpZnQtam9zZSBmdXp6IQ"}"#),
            JWK(json: #"{"kty":"oct","use":"enc","kid":"jwe-dir","k":"c3dpZnQtam9zZSBmdXp6aW5nIGRpcmVjdCBrZXkgMzI"}"#),
            JWK.generate(for: .ecdhES, keyID: "jwe-ec"),
            JWK.generate(for: .ecdhESA256KW, curve: .p384, keyID: "jwe-ec-kw"),
            JWK.generate(for: .rsaOAEP256, keyID: "jwe-rsa"),
            JWK.generate(for: .ecdhESA128KW, curve: .x25519, keyID: "jwe-x25519"),
        ])
    }
    /// The App Store preset: Apple Root CA G3, ES256, `signedDate` as the instant.
    static let appStoreVerifier = X5CVerifier.appStore()
    /// An ES256 private key without a `kid`, generated per run.
    static let ecPrivateKey: JWK = load("es256") { try JWK.generate(for: .es256) }
    /// The instant the example tokens are valid at (their `iat` plus one hour).
    static let exampleNow = 1_767_229_200.0
    /// The login transaction the `oauth-callback` target checks callbacks against (the state
    /// and redirect URI the seed corpus uses).
    static let loginTransaction: LoginTransaction = load("login transaction") {
        try LoginTransaction(
            issuer: "https://issuer.example", clientID: "client-1", redirectURI: "https://app.example/callback",
            state: "state-4f1c8a", nonce: "nonce-93bd", codeVerifier: CodeVerifier.generate(), maxAge: nil,
            createdAt: Date(timeIntervalSince1970: exampleNow), requiresIssuerParameter: true)
    }
}
