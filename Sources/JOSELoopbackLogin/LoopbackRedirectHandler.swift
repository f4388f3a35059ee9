import FlyingFox
import Foundation
import JOSE

/// Answers every request to a ``LoopbackRedirectReceiver``: the callback with a static page,
/// anything else with a static `400` page.
struct LoopbackRedirectHandler: HTTPHandler {
    /// The receiver's state.
    let exchange: LoopbackRedirectExchange

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let path = request.target.path(percentEncoded: true)
        let verdict: LoopbackRedirectExchange.Verdict
        if request.method != .GET {
            verdict = .refused("only GET reaches the callback")
        } else if path != LoopbackRedirectReceiver.callbackPath {
            verdict = .refused("not the callback path")
        } else {
            verdict = exchange.take(query: request.target.query(percentEncoded: true))
        }
        switch verdict {
        case .accepted(let succeeded):
            return Self.page(status: .ok, succeeded ? LoopbackPage.finished : LoopbackPage.failed)
        case .refused(let reason):
            exchange.log("refused \(JOSEError.quoted(request.method.rawValue)) \(JOSEError.quoted(path)): \(reason)")
            return Self.page(status: .badRequest, LoopbackPage.refused)
        }
    }

    /// A static HTML page that forbids scripts, framing, referrers and caching.
    private static func page(status: HTTPStatusCode, _ html: String) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: [
            .contentType: "text/html; charset=utf-8",
            .cacheControl: "no-store",
            HTTPHeader("Content-Security-Policy"): "default-src 'none'; frame-ancestors 'none'",
            HTTPHeader("Referrer-Policy"): "no-referrer",
            HTTPHeader("X-Content-Type-Options"): "nosniff",
            .connection: "close",
        ], body: Data(html.utf8))
    }
}

/// The receiver's pages: static text, nothing from the request.
enum LoopbackPage {
    /// The answer to the accepted callback.
    static let finished = document(title: "Login finished",
                                   text: "The login finished. You can close this tab and return to the application.")
    /// The answer to an accepted callback that ends the login with an error.
    static let failed = document(title: "Login failed",
                                 text: "The login did not finish. You can close this tab; the application says why.")
    /// The answer to any other request.
    static let refused = document(title: "Not a login response",
                                  text: "This address only takes the answer to the login that is waiting.")

    private static func document(title: String, text: String) -> String {
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>\(title)</title></head>"
            + "<body><h1>\(title)</h1><p>\(text)</p></body></html>\n"
    }
}
