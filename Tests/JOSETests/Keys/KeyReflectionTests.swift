import Testing
@testable import JOSE

/// `dump` of a key shows what a person needs and none of its private material.
@Suite("Key reflection")
struct KeyReflectionTests {
    @Test(arguments: CryptoBackend.current.supportedAlgorithms)
    func dumpShowsNoPrivateMaterial(_ algorithm: JWSAlgorithm) throws {
        let key = try TestKeys.jwk(for: algorithm, keyID: "k")
        var text = ""
        dump(key, to: &text)
        #expect(text.contains("k"))
        for name in ["privateExponent", "primes", "components", "secret:", "keyed", "templates", "pointer"] {
            #expect(!text.contains(name), "dump shows \(name): \(text)")
        }
        #expect(text.contains(#"- private: "true""#) || text.contains("- secretLength: "), "\(text)")
    }
}
