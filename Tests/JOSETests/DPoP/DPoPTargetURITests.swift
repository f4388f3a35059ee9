import JOSETestSupport
import Testing
@testable import JOSE

@Suite(.tags(.addressSanitized)) struct DPoPTargetURITests {
    @Test(arguments: [
        ("https://server.example.com/token", "https://server.example.com/token"),
        ("HTTPS://Server.Example.COM:443/token?x=1#f", "https://server.example.com/token"),
        ("http://example.com:80", "http://example.com/"),
        ("http://example.com:", "http://example.com/"),
        ("https://example.com:8443/a", "https://example.com:8443/a"),
        ("https://example.com:0443/a", "https://example.com/a"),
        ("http://example.com:443/a", "http://example.com:443/a"),
        ("https://example.com/a/./b/../c/", "https://example.com/a/c/"),
        ("https://example.com/a/b/..", "https://example.com/a/"),
        ("https://example.com/%7euser/%2f%41", "https://example.com/~user/%2FA"),
        ("https://example.com/A/Path", "https://example.com/A/Path"),
        ("https://[::1]:8443/x", "https://[::1]:8443/x"),
        ("https://[::1]/x", "https://[::1]/x"),
        ("https://example.com?q", "https://example.com/"),
    ])
    func normalises(_ input: String, _ expected: String) throws {
        #expect(try DPoPTargetURI.normalized(input) == expected)
    }

    @Test(arguments: ["", "/token", "example.com/token", "ftp://example.com/", "https://", "https:///x",
                      "https://user@example.com/", "https://example.com:99999/", "https://example.com:8a/",
                      "https://exa mple.com/", "https://example.com/%zz", "https://example.com/%4", "https://[::1/",
                      "https://ex\u{e9}mple.com/", "https://example.com/\n"])
    func refuses(_ input: String) {
        #expect(throws: JOSEError.self) { try DPoPTargetURI.normalized(input) }
    }

    @Test func refusesOverlongURIs() {
        #expect(throws: JOSEError.self) { try DPoPTargetURI.normalized("https://example.com/" + String(repeating: "a", count: 8192)) }
    }
}
