import Foundation
import Testing
@testable import JOSE

/// Which URLs key sets may be fetched from.
@Suite struct JWKSTransportPolicyTests {
    @Test(arguments: [
        "https://example.com/jwks.json", "HTTPS://Example.COM/keys", "https://10.0.0.1:8443/jwks",
        "http://127.0.0.1:8080/jwks.json", "http://127.255.255.254/", "http://localhost/jwks",
        "http://LOCALHOST:9000/jwks", "http://[::1]:8080/jwks", "http://[0:0:0:0:0:0:0:1]/jwks",
        "http://[::0:1]/", "HTTP://127.0.0.1/",
    ])
    func allowed(_ text: String) throws {
        let url = try #require(URL(string: text))
        #expect(TransportPolicy.isAllowed(url))
    }

    @Test(arguments: [
        "http://example.com/jwks.json", "http://10.0.0.1/jwks", "http://128.0.0.1/", "http://126.0.0.1/",
        "http://[::2]/", "http://[::ffff:127.0.0.1]/", "http://127.0.0.1.example.com/",
        "http://localhost.example.com/", "http://0177.0.0.1/", "http://127.1/", "http://127.0.0.256/",
        "http://2130706433/", "ftp://127.0.0.1/", "file:///etc/passwd", "ws://localhost/",
        "https:///nohost", "/relative/path", "jwks.json", "data:text/plain,hello",
    ])
    func refused(_ text: String) throws {
        let url = try #require(URL(string: text))
        #expect(!TransportPolicy.isAllowed(url))
    }

    @Test func loopbackHostParsing() {
        #expect(TransportPolicy.isLoopback(host: "127.0.0.1"))
        #expect(TransportPolicy.isLoopback(host: "::1"))
        #expect(TransportPolicy.isLoopback(host: "0000:0000:0000:0000:0000:0000:0000:0001"))
        #expect(!TransportPolicy.isLoopback(host: "::"))
        #expect(!TransportPolicy.isLoopback(host: "1::1"))
        #expect(!TransportPolicy.isLoopback(host: ":::1"))
        #expect(!TransportPolicy.isLoopback(host: "::1::"))
        #expect(!TransportPolicy.isLoopback(host: "0:0:0:0:0:0:0:0:1"))
        #expect(!TransportPolicy.isLoopback(host: "00000::1"))
        #expect(!TransportPolicy.isLoopback(host: "127.0.0.1 "))
        #expect(!TransportPolicy.isLoopback(host: "127.0.0.01"))
        #expect(!TransportPolicy.isLoopback(host: "١٢٧.0.0.1"))  // non-ASCII digits
        #expect(!TransportPolicy.isLoopback(host: ""))
    }
}
