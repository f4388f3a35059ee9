// What JOSEAppleLogin's DocC snippets take as given: values an app has from its own code.
// typecheck.sh type-checks the snippets beside this file.
import AuthenticationServices
import JOSEOAuth

/// The app's client, made at launch from the discovered metadata (`OpenIDProviderMetadata.discover`).
var client: OpenIDClient { fatalError() }
/// The app's view controller, which presents the login sheet.
@MainActor var viewController: any ASWebAuthenticationPresentationContextProviding { fatalError() }
