import JOSE
import JOSEOAuth
import Testing

/// The `state` and `nonce` values of a login.
@Suite struct RandomValueTests {
    @Test func stateAndNonceCarry256Bits() throws {
        let values = try (0..<100).map { _ in try RandomValue.state() } + (0..<100).map { _ in try RandomValue.nonce() }
        #expect(Set(values).count == 200)
        for value in values {
            #expect(value.count == 43)
            #expect(try Base64URL.decode(value).count == 32)
        }
    }
}
