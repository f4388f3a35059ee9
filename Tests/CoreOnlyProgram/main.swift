// A program that imports the core alone (`JOSE`, no Foundation of its own), so CI can check what
// `import JOSE` links: `ldd` on it must list no FoundationNetworking, full Foundation or ICU.
// It verifies the bundled example ID token against the bundled key set, as the README's first
// command does: `core-only-program Vectors/examples/jwks.json Vectors/examples/id-token.jwt`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JOSE

/// The bytes of the file at `path`, or `nil`.
func contents(of path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count == 0 { break }
        bytes += chunk[0..<count]
    }
    return bytes
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let jwks = contents(of: arguments[1]), var token = contents(of: arguments[2]) else {
    print("usage: core-only-program JWKS_FILE TOKEN_FILE")
    exit(2)
}
while token.last == UInt8(ascii: "\n") { token.removeLast() }
do {
    let verifier = JWTVerifier(
        keySource: try JWKSet(json: jwks),
        rules: JWTClaimRules(issuer: "https://issuer.example", audiences: ["example-client"]))
    let jwt = try await verifier.verify(token)
    print("valid: sub \(jwt.claims.subject ?? "-"), kid \(jwt.header.keyID ?? "-")")
} catch {
    print("invalid: \(error)")
    exit(1)
}
