// swift-tools-version:6.1
import PackageDescription

/// Where swift-crypto is the crypto backend by default: CryptoKit is there, OpenSSL is not.
let applePlatforms: [Platform] = [.macOS, .macCatalyst, .iOS, .tvOS, .watchOS, .visionOS]
/// Where OpenSSL 3 (the `COpenSSL` system library) is the crypto backend by default.
let openSSLPlatforms: [Platform] = [.linux, .android, .windows, .openbsd, .wasi]

/// The crypto backend: OpenSSL 3 (the `COpenSSL` system library) on Linux and the other
/// OpenSSL platforms, swift-crypto on Apple platforms, and swift-crypto everywhere with the
/// `SwiftCrypto` trait (through the `SwiftCryptoBackend` target: one target listing a product
/// twice, under two conditions, has SwiftPM warn and drop one). A condition cannot say "without a
/// trait", so with the trait on Linux `COpenSSL` stays a dependency: nothing imports it, but
/// SwiftPM still links libssl and libcrypto.
let cryptoBackendDependencies: [Target.Dependency] = [
    .target(name: "COpenSSL", condition: .when(platforms: openSSLPlatforms)),
    .product(name: "Crypto", package: "swift-crypto", condition: .when(platforms: applePlatforms)),
    .product(name: "CryptoExtras", package: "swift-crypto", condition: .when(platforms: applePlatforms)),
    .product(name: "X509", package: "swift-certificates", condition: .when(platforms: applePlatforms)),
    "SwiftCryptoBackend",
]
/// `JOSE_SWIFT_CRYPTO` is defined wherever swift-crypto is the backend; the sources (and the
/// tests that look at one backend's internals) choose their backend files by it.
let cryptoBackendSettings: [SwiftSetting] = [
    .define("JOSE_SWIFT_CRYPTO", .when(platforms: applePlatforms)),
    .define("JOSE_SWIFT_CRYPTO", .when(traits: ["SwiftCrypto"])),
]

/// The library's `async` functions run on the caller's executor (SE-0461, Swift 6.2): awaited
/// from the main actor or another actor, a call that needs no suspension never leaves it.
/// Compilers before 6.2 ignore the unknown feature and build the library as before, each call
/// hopping to the global executor and back.
let asyncOnCallersExecutor: [SwiftSetting] = [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]

/// `JOSE_LOCK_FALLBACK=1 swift build …` builds JOSE with the lock and atomics that Apple platforms
/// use (Support/Lock.swift) on Linux too: CI's swift-crypto and ThreadSanitizer runs. A define
/// of JOSE's alone, so that the dependencies' builds stay as they are; ordinary builds never see it.
let lockFallback: [SwiftSetting] = Context.environment["JOSE_LOCK_FALLBACK"] != nil ? [.define("JOSE_LOCK_FALLBACK")] : []

let package = Package(
    name: "swift-jose",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "JOSE", targets: ["JOSE"]),
        // The URLSession key-set fetcher: Foundation's networking (libcurl) only for those who
        // want it; servers plug their own HTTP client into `HTTPFetcher` instead.
        .library(name: "JOSEURLSession", targets: ["JOSEURLSession"]),
        // The OpenID Connect login flow of a relying party (authorization code + PKCE, PAR,
        // token exchange, ID-token validation), above the core.
        .library(name: "JOSEOAuth", targets: ["JOSEOAuth"]),
        // The loopback redirect receiver of native apps (RFC 8252 §7.3) on FlyingFox, a small
        // pure-Swift HTTP server: for desktop apps and `jose login`, never built by an app that
        // uses `JOSEOAuth` alone (iOS apps receive redirects through the system instead).
        .library(name: "JOSELoopbackLogin", targets: ["JOSELoopbackLogin"]),
        // Apple platforms only (an empty module elsewhere): the Keychain session store and the
        // ASWebAuthenticationSession login.
        .library(name: "JOSEAppleLogin", targets: ["JOSEAppleLogin"]),
        // Trait `AsyncHTTPClient`: an `HTTPFetcher` on the server's own AsyncHTTPClient.
        .library(name: "JOSEAsyncHTTPClient", targets: ["JOSEAsyncHTTPClient"]),
        // Trait `Hummingbird`: bearer and DPoP middleware over `ProtectedResource`.
        .library(name: "JOSEHummingbird", targets: ["JOSEHummingbird"]),
        // Trait `Vapor`: the same middleware for Vapor 4.
        .library(name: "JOSEVapor", targets: ["JOSEVapor"]),
        .executable(name: "jose", targets: ["JOSECLI"]),
        // Key sets refreshed in the background, as a swift-service-lifecycle `Service` (trait
        // `ServiceLifecycle`).
        .library(name: "JOSEServiceLifecycle", targets: ["JOSEServiceLifecycle"]),
        // Key-set fetches and verifications as swift-metrics counters and timers (trait `Metrics`).
        .library(name: "JOSEMetrics", targets: ["JOSEMetrics"]),
        // Replay and one-time state shared by a fleet, on PostgreSQL (trait `PostgreSQL`).
        .library(name: "JOSEPostgreSQL", targets: ["JOSEPostgreSQL"]),
    ],
    // Optional pieces for servers, each off by default: a package that depends on `JOSE` alone
    // resolves and builds none of their dependencies. Turn one on with
    // `.package(url: …, from: …, traits: ["Hummingbird"])` and depend on its product.
    // `SwiftCrypto` chooses the crypto backend instead, so a build with every trait on runs
    // swift-crypto: name the server traits (as .ci/run and the README do) to test OpenSSL.
    traits: [
        .trait(name: "AsyncHTTPClient", description: "JOSEAsyncHTTPClient: an HTTPFetcher on AsyncHTTPClient."),
        .trait(name: "Hummingbird", description: "JOSEHummingbird: bearer and DPoP middleware for Hummingbird 2."),
        .trait(name: "Vapor", description: "JOSEVapor: bearer and DPoP middleware for Vapor 4."),
        .trait(name: "ServiceLifecycle", description: "JOSEServiceLifecycle: key sets kept fresh in the background."),
        .trait(name: "Metrics", description: "JOSEMetrics: swift-metrics for key-set fetches and verifications."),
        .trait(name: "PostgreSQL", description: "JOSEPostgreSQL: replay state shared by a fleet, on PostgreSQL."),
        .trait(
            name: "SwiftCrypto",
            description: "swift-crypto (BoringSSL) as the crypto backend on Linux too, instead of the system's OpenSSL 3."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // x5c path validation on the swift-crypto backend (Apple platforms, trait `SwiftCrypto`).
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // `swift package generate-documentation --target JOSE`: a command plugin, built only when
        // that command runs, never for a consumer's build.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Resolved and built only for a consumer that turns the matching trait on.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // swift-crypto's products under the `SwiftCrypto` trait, for JOSE (an empty module
        // otherwise, and on Apple platforms JOSE names them itself).
        .target(
            name: "SwiftCryptoBackend",
            dependencies: ["Crypto", "CryptoExtras"].map {
                .product(name: $0, package: "swift-crypto", condition: .when(traits: ["SwiftCrypto"]))
            } + [
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["SwiftCrypto"])),
            ]
        ),
        // Base64url decoding sixteen characters at a time (SSSE3), under JOSE's Base64URL.
        .target(name: "CJOSEBase64"),
        .target(
            name: "JOSE",
            dependencies: cryptoBackendDependencies + [
                "CJOSEBase64",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: cryptoBackendSettings + asyncOnCallersExecutor + lockFallback
        ),
        .target(
            name: "JOSEURLSession",
            dependencies: ["JOSE"],
            swiftSettings: asyncOnCallersExecutor
        ),
        .target(
            name: "JOSEOAuth",
            dependencies: ["JOSE"],
            swiftSettings: asyncOnCallersExecutor
        ),
        .target(
            name: "JOSELoopbackLogin",
            dependencies: ["JOSE", "JOSEOAuth", .product(name: "FlyingFox", package: "FlyingFox"),
                           .product(name: "FlyingSocks", package: "FlyingFox")],
            swiftSettings: asyncOnCallersExecutor
        ),
        // Its Keychain calls may block: without `asyncOnCallersExecutor`, the session store's
        // `async` methods run on the global executor, never on the caller's (main) actor.
        .target(
            name: "JOSEAppleLogin",
            dependencies: ["JOSE", "JOSEOAuth"]
        ),
        .target(
            name: "JOSEServiceLifecycle",
            dependencies: [
                "JOSE",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle",
                         condition: .when(traits: ["ServiceLifecycle"])),
            ],
            swiftSettings: asyncOnCallersExecutor
        ),
        .target(
            name: "JOSEMetrics",
            dependencies: [
                "JOSE",
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
            ],
            swiftSettings: asyncOnCallersExecutor
        ),
        .target(
            name: "JOSEAsyncHTTPClient",
            dependencies: [
                "JOSE",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
            ],
            swiftSettings: asyncOnCallersExecutor
        ),
        .target(
            name: "JOSEHummingbird",
            dependencies: [
                "JOSE",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Hummingbird"])),
            ],
            swiftSettings: asyncOnCallersExecutor
        ),
        .target(
            name: "JOSEVapor",
            dependencies: [
                "JOSE",
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
            ],
            swiftSettings: asyncOnCallersExecutor
        ),
        // `ReplayCache` on PostgreSQL: its sources are empty unless the `PostgreSQL` trait is on.
        .target(
            name: "JOSEPostgreSQL",
            dependencies: [
                "JOSE",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["PostgreSQL"])),
            ],
            swiftSettings: asyncOnCallersExecutor
        ),
        // The bare crypto-backend check `jose bench` measures the full verify against.
        .target(
            name: "JOSEPrimitiveSignatureCheck",
            dependencies: ["JOSE"]
        ),
        // The byte-level input and output of `jose verify --batch`: the line reader over a read or
        // mapped stdin and the copy check of verified JSON (pointer code, tested under ASan alone).
        .target(name: "JOSEBatchIO"),
        .executableTarget(
            name: "JOSECLI",
            dependencies: [
                "JOSE",
                "JOSEBatchIO",
                "JOSEOAuth",
                "JOSELoopbackLogin",
                "JOSEURLSession",
                "JOSEPrimitiveSignatureCheck",
                .target(name: "JOSEPostgreSQL", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `import JOSE` alone, for CI to check what the core links (no FoundationNetworking, no ICU).
        .executableTarget(
            name: "core-only-program",
            dependencies: ["JOSE"],
            path: "Tests/CoreOnlyProgram"
        ),
        .target(
            name: "JOSETestSupport",
            dependencies: ["JOSE", "JOSEOAuth", "JOSEURLSession", .product(name: "Logging", package: "swift-log")],
            path: "Tests/JOSETestSupport",
            exclude: [
                "jwks_test_server.py", "oauth_provider_test_server.py", "provider_signing_key.json", "browser_login.py",
                "certificate_chains.py",
            ]
        ),
        .testTarget(
            name: "JOSETests",
            dependencies: [
                "JOSE",
                "CJOSEBase64",
                "JOSEOAuth",
                "JOSEURLSession",
                "JOSETestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: cryptoBackendSettings
        ),
        .testTarget(
            name: "JOSEOAuthTests",
            dependencies: ["JOSE", "JOSEOAuth", "JOSEURLSession", "JOSETestSupport"]
        ),
        .testTarget(
            name: "JOSEPostgreSQLTests",
            dependencies: [
                "JOSE",
                "JOSEOAuth",
                "JOSETestSupport",
                .target(name: "JOSEPostgreSQL", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Each fetcher's target runs the one conformance suite of JOSETestSupport against it.
        .testTarget(
            name: "JOSEURLSessionTests",
            dependencies: ["JOSE", "JOSEURLSession", "JOSETestSupport"]
        ),
        .testTarget(
            name: "JOSEAsyncHTTPClientTests",
            dependencies: [
                "JOSE",
                "JOSEAsyncHTTPClient",
                "JOSETestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
            ]
        ),
        .testTarget(
            name: "JOSEHummingbirdTests",
            dependencies: [
                "JOSE",
                "JOSEHummingbird",
                "JOSETestSupport",
                "JOSEURLSession",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Hummingbird"])),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "JOSEVaporTests",
            dependencies: [
                "JOSE",
                "JOSEVapor",
                "JOSETestSupport",
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "JOSELoopbackLoginTests",
            dependencies: ["JOSE", "JOSEOAuth", "JOSELoopbackLogin", "JOSETestSupport"]
        ),
        .testTarget(
            name: "JOSEServiceLifecycleTests",
            dependencies: [
                "JOSEServiceLifecycle",
                "JOSEURLSession",
                "JOSETestSupport",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle",
                         condition: .when(traits: ["ServiceLifecycle"])),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle",
                         condition: .when(traits: ["ServiceLifecycle"])),
            ],
            swiftSettings: asyncOnCallersExecutor
        ),
        .testTarget(
            name: "JOSEMetricsTests",
            dependencies: [
                "JOSEMetrics",
                "JOSEURLSession",
                "JOSETestSupport",
                .product(name: "MetricsTestKit", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
            ],
            swiftSettings: asyncOnCallersExecutor
        ),
        .testTarget(
            name: "JOSECLITests",
            dependencies: ["JOSECLI", "JOSETestSupport"]
        ),
        .testTarget(
            name: "JOSEBatchIOTests",
            dependencies: ["JOSEBatchIO", "JOSETestSupport"]
        ),
    ]
)

// `JOSE_FUZZ=1 swift build --product jose-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library`
// adds the libFuzzer harness (Tests/Fuzz/run.sh does this); ordinary builds never see it.
if Context.environment["JOSE_FUZZ"] != nil {
    package.products.append(.executable(name: "jose-fuzz", targets: ["jose-fuzz"]))
    package.targets.append(contentsOf: [
        // Declares libFuzzer's LLVMFuzzerRunDriver for Swift (the runtime defines it).
        .target(name: "LibFuzzerDriver", path: "Tests/Fuzz/LibFuzzerDriver"),
        .executableTarget(
            name: "jose-fuzz",
            dependencies: ["JOSE", "JOSEOAuth", "LibFuzzerDriver"],
            path: "Tests/Fuzz/Sources"
        ),
    ])
}

// `JOSE_TEST_TARGETS=JOSETests,JOSEOAuthTests` keeps only the test targets it names: CI's
// sanitizer runs, which run the tagged suites of a few targets (.ci/run-tagged-suites.py), then
// build nothing else with the sanitizer. Ordinary builds never see it.
if let kept = Context.environment["JOSE_TEST_TARGETS"] {
    let names = Set(kept.split(separator: ",").map(String.init))
    package.targets.removeAll { $0.type == .test && !names.contains($0.name) }
}

// `JOSE_TEST_EXCLUDE=JOSETests/A/B.swift,…` leaves those files (paths under Tests/) out of their
// test targets: the same runs, which then compile only the files that hold their suites (see
// .ci/run-tagged-suites.py). Ordinary builds never see it.
if let excluded = Context.environment["JOSE_TEST_EXCLUDE"] {
    let paths = excluded.split(separator: ",").map(String.init)
    for target in package.targets where target.type == .test {
        let prefix = target.name + "/"
        target.exclude += paths.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }
}
