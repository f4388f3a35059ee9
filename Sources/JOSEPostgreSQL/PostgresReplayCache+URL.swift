#if PostgreSQL
import Foundation
import JOSE
import NIOSSL
import PostgresNIO

extension PostgresReplayCache {
    /// A client configuration from a connection URL,
    /// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`
    /// (`postgresql://` too; the port is 5432 and `sslmode` is `prefer` unless given;
    /// percent-escapes in the user and password are decoded).
    ///
    /// - Parameter url: the URL. It may carry a password: read it from a file or the
    ///   environment, never from a command line.
    /// - Returns: the configuration for `PostgresClient(configuration:)`.
    /// - Throws: `JOSEError` `invalid_input` naming what is wrong (the password is never
    ///   shown).
    public static func configuration(url: String) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(string: url.trimmingCharacters(in: .whitespacesAndNewlines)),
              let scheme = components.scheme?.lowercased() else {
            throw JOSEError(.invalidInput, "the PostgreSQL URL is not a URL; expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw JOSEError(.invalidInput, "the PostgreSQL URL must start with postgres://, not \(JOSEError.quoted(scheme))://")
        }
        guard let host = components.host, !host.isEmpty else {
            throw JOSEError(.invalidInput, "the PostgreSQL URL has no host")
        }
        guard let user = components.user?.removingPercentEncoding, !user.isEmpty else {
            throw JOSEError(.invalidInput, "the PostgreSQL URL has no user (postgres://USER@HOST/DATABASE)")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw JOSEError(.invalidInput, "the PostgreSQL URL must name one database as its path (postgres://USER@HOST/DATABASE)")
        }
        let sslMode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        let tls: PostgresClient.Configuration.TLS
        switch sslMode {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(.makeClientConfiguration())
        case "require": tls = .require(.makeClientConfiguration())
        default:
            throw JOSEError(.invalidInput, "the PostgreSQL URL's sslmode must be disable, prefer or require; got \(JOSEError.quoted(sslMode))")
        }
        return PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user,
            password: components.password?.removingPercentEncoding, database: database, tls: tls)
    }
}
#endif
