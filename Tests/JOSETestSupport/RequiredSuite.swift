import Foundation

/// Whether a suite whose prerequisite is missing (a PostgreSQL server, Chromium) skips or fails:
/// on a developer's machine it skips and says what to install; under `CI=true` it runs and
/// fails, so that a lost database URL or a missing browser cannot leave CI green.
package enum RequiredSuite {
    /// Whether a suite runs: its prerequisite is there, or `environment` is CI's, where a
    /// missing prerequisite is a failure rather than a skip.
    ///
    /// - Parameters:
    ///   - missing: What is missing and how to install it; `nil` when nothing is.
    ///   - environment: The process environment.
    package static func runs(missing: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        missing == nil || isCI(environment)
    }

    /// Whether `environment` is CI's: `CI` is `true` (in any case) or `1`, as CI services set it.
    package static func isCI(_ environment: [String: String]) -> Bool {
        guard let value = environment["CI"] else { return false }
        return value.lowercased() == "true" || value == "1"
    }

    /// The failure of a test whose suite runs without its prerequisite (under CI): what is
    /// missing.
    package static func failure(_ missing: String) -> TestHTTPServer.Failure {
        TestHTTPServer.Failure(description: "CI=true, so a required suite fails instead of skipping: \(missing)")
    }
}

/// The tests' PostgreSQL server, from `JOSE_TEST_POSTGRES_URL` (`.ci/start-postgres.sh` starts
/// one and prints it).
package enum TestPostgreSQL {
    /// The server's URL; `nil` when it is not set.
    package static let url = ProcessInfo.processInfo.environment["JOSE_TEST_POSTGRES_URL"]

    /// What is missing, and how to have it, when the URL is not set.
    private static let howToInstall =
        "no PostgreSQL (JOSE_TEST_POSTGRES_URL is not set): apt-get install postgresql, then eval \"$(bash .ci/start-postgres.sh)\""

    /// What is missing, and how to have it; `nil` when the URL is set.
    package static let missing: String? = url == nil ? howToInstall : nil

    /// The server's URL.
    ///
    /// - Throws: ``TestHTTPServer/Failure`` saying what to install when it is not set.
    package static func requireURL() throws -> String {
        guard let url else { throw RequiredSuite.failure(howToInstall) }
        return url
    }
}
