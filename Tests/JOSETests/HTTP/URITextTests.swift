import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// URLs read by the package's own RFC 3986 rules (`URIText`), so that every platform accepts
/// and refuses the same text whatever its `URL(string:)` does.
@Suite("URIText", .tags(.addressSanitized))
struct URITextTests {
    @Test("an RFC 3986 absolute URI is accepted, and Foundation reads it as written", arguments: [
        "https://issuer.example", "https://issuer.example/", "HTTPS://Issuer.Example:8443/a/b?c=d&e#f",
        "http://127.0.0.1:8080/cb", "http://[::1]:9000/", "https://[2001:db8::7]/", "https://[::ffff:192.0.2.1]/",
        "https://[1:2:3:4:5:6:7:8]/", "https://user:pass@host.example/", "https://host.example/%41%2f?q=%7E",
        "com.example.app:/oauth2redirect", "urn:ietf:params:oauth:token-type:jwt", "https://host.example/a;b=c,d!$'()*+",
        "https://host.example/?q=/?:@", "https://host.example:/",
    ])
    func accepted(_ text: String) throws {
        let url = try #require(URIText.absoluteURL(text))
        #expect(url.absoluteString == text)
    }

    @Test("text outside RFC 3986 is refused, where some platforms' URL(string:) would percent-encode it", arguments: [
        "https://issuer.example/a b", "https://issuer.example/{x}", "https://issuer.example/a\"b", "https://host.example/<x>",
        "https://host.example/a\\b", "https://exämple.com/", "https://host.example/é", "https://host.example/a|b",
        "https://host.example/^", "https://host.example/`", "https://host.example/%4", "https://host.example/%zz",
        "https://host.example/#a#b", "https://host.example/\u{7F}", "https://host.example/\n",
        "//host.example/path", "/relative", "1https://host.example/", "https//host.example", ":no-scheme", "",
        "https:///path", "https://:443/", "https://host.example:80a/", "https://a@b@host.example/",
        "https://[::1/", "https://[1:2:3:4:5:6:7:8:9]/", "https://[1::2::3]/", "https://[fe80::1%25eth0]/",
        "https://[v1.fe]/", "https://[12345::]/", "https://[::1]x/", "https://host.example]/",
    ])
    func refused(_ text: String) {
        #expect(URIText.absoluteURL(text) == nil)
    }

    @Test("a fragment is told apart")
    func fragments() {
        #expect(URIText.absoluteURLWithoutFragment("https://app.example/out") != nil)
        #expect(URIText.absoluteURLWithoutFragment("https://app.example/out#") == nil)
        #expect(URIText.absoluteURLWithoutFragment("https://app.example/out?a=b#c") == nil)
    }

    @Test("a URI longer than the limit is refused")
    func length() {
        let path = String(repeating: "a", count: URIText.maximumLength)
        #expect(URIText.absoluteURL("https://host.example/" + path) == nil)
    }

    @Test("the query builder appends, keeps the endpoint's query, and refuses what it must")
    func queryBuilder() async throws {
        let parameters = [(name: "client_id", value: "app"), (name: "state", value: "a b")]
        let plain = try URIText.queryURL(try #require(URL(string: "https://op.example/authorize")), name: "the endpoint",
                                         adding: parameters)
        #expect(plain.absoluteString == "https://op.example/authorize?client_id=app&state=a%20b")
        let kept = try URIText.queryURL(try #require(URL(string: "https://op.example/authorize?tenant=x")), name: "the endpoint",
                                        adding: parameters)
        #expect(kept.absoluteString == "https://op.example/authorize?tenant=x&client_id=app&state=a%20b")
        let refused = [
            "http://op.example/authorize", "https://op.example/authorize#top", "https://op.example/authorize?STATE=x",
            "https://op.example/authorize?nonce=x",
        ]
        for text in refused {
            let endpoint = try #require(URL(string: text))
            let error = await expectJOSEError(.invalidInput) {
                try URIText.queryURL(endpoint, name: "the endpoint", adding: parameters, reserving: ["nonce"])
            }
            #expect(error != nil, "\(text)")
        }
    }
}
