// The README's "Log a user in" flow, compiled by CI (`swift build`). A test checks that the code
// between the markers is the README's block, character for character. Not meant to be run.

// README "Log a user in" begins
import Foundation
import JOSE
import JOSEURLSession

// Once: discover the provider (metadata, keys, token endpoint).
let client = try await OpenIDClient.discover(
    issuer: "https://accounts.example.com", clientID: "my-app", fetcher: URLSessionHTTPFetcher())

// Start a login: the authorize URL with state, nonce and an S256 PKCE challenge.
var request = AuthorizationRequest(clientID: "my-app", redirectURI: "com.example.app:/callback")
request.scopes = ["openid", "profile"]
request.acrValues = ["urn:example:idp:bank"]            // provider extras are typed options
let prepared = try client.prepare(request)
let saved = try JSONEncoder().encode(prepared.transaction)   // keep it (a secret) until the callback
openInBrowser(prepared.url)

// The browser comes back: check redirect URI, state and iss, exchange the code, validate the ID token.
let transaction = try JSONDecoder().decode(LoginTransaction.self, from: saved)
let login = try await client.finishLogin(callbackURL: await receiveCallback(), transaction: transaction)
print(login.idToken.claims.subject ?? "", login.tokens.accessToken.count)
// README "Log a user in" ends

/// Opens `url` in the user's browser (the app's own code).
func openInBrowser(_ url: URL) {
    print(url)
}

/// Waits for the browser to come back to the redirect URI, and returns the full URL (the app's
/// own code: a URL handler, or a loopback listener).
func receiveCallback() async -> String {
    readLine() ?? ""
}
