import ArgumentParser

/// One flag that describes the OpenID provider, named and explained once for every command
/// that takes it (`login`, `authorize-url`, `introspect` through ``ProviderOptions``; `verify`
/// for `--issuer` and `--iss`, and `refresh`, `userinfo`, `revoke` and `logout-url` for
/// `--issuer` alone).
enum ProviderFlag: String, CaseIterable, Sendable {
    /// `--issuer URL`: the provider, discovered.
    case issuer
    /// `--iss ISSUER`: the issuer identifier the provider's tokens carry, nothing fetched.
    case iss
    /// `--authorization-endpoint URL`.
    case authorizationEndpoint = "authorization-endpoint"
    /// `--token-endpoint URL`.
    case tokenEndpoint = "token-endpoint"
    /// `--jwks-uri URL`.
    case jwksURI = "jwks-uri"
    /// `--device-authorization-endpoint URL`.
    case deviceAuthorizationEndpoint = "device-authorization-endpoint"
    /// `--introspection-endpoint URL`.
    case introspectionEndpoint = "introspection-endpoint"

    /// The flag as typed, e.g. `--token-endpoint`.
    var name: String { "--" + rawValue }

    /// The flag with its value's name, e.g. `--token-endpoint URL`.
    var usage: String { name + " " + valueName }

    /// The name of the flag's value in help and messages.
    var valueName: String { self == .iss ? "ISSUER" : "URL" }

    /// What the flag means, the same in every command.
    var abstract: String {
        switch self {
        case .issuer:
            "Discover the provider: fetch URL/.well-known/openid-configuration, whose \"issuer\" must equal URL, "
                + "and use its endpoints; its tokens must carry iss URL."
        case .iss: "The issuer identifier the provider's tokens carry (the exact iss required). Nothing is fetched."
        case .authorizationEndpoint: "Without --issuer: the authorization endpoint."
        case .tokenEndpoint: "Without --issuer: the token endpoint."
        case .jwksURI: "Without --issuer: the provider's JWK Set URL."
        case .deviceAuthorizationEndpoint: "Without --issuer: the device authorization endpoint (RFC 8628)."
        case .introspectionEndpoint: "Without --issuer: the introspection endpoint (RFC 7662)."
        }
    }

    /// The flag's help in one command: ``abstract``, then when the command requires it; a flag
    /// the command does not take (`requirement` is `nil`) is left out of its help.
    ///
    /// - Parameter requirement: When the command requires the flag, e.g. "Required unless --issuer.".
    func help(_ requirement: String?) -> ArgumentHelp {
        ArgumentHelp([abstract, requirement].compactMap { $0 }.joined(separator: " "), valueName: valueName,
                     visibility: requirement == nil ? .private : .default)
    }
}

/// A command that takes ``ProviderOptions``: which of the provider flags it takes, and when
/// each is required.
protocol ProviderFlagUse {
    /// The command's name, for refusing a flag it does not take.
    static var commandName: String { get }

    /// When the command requires `flag`, written at the end of its help (e.g. "Required unless
    /// --issuer."); `nil` for a flag the command does not take.
    static func requirement(of flag: ProviderFlag) -> String?
}
