// What the README's and the DocC articles' Swift snippets take as given: the app's own code and
// values a real program would have from elsewhere. `.ci/check-snippets.py` compiles every snippet
// beside this file.
import Foundation

/// Opens `url` in the user's browser (an app's own code).
func openInBrowser(_ url: URL) {}

/// Waits for the browser to come back to the redirect URI and returns the full URL (an app's own
/// code: a URL handler, or a loopback listener).
func receiveCallback() async -> String { "" }
/// Where an app keeps its session file (README "Log a user in").
let sessionFile = "/var/app/session.json"
