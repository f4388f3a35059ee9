// swift-tools-version:6.1
// Benchmarks for swift-jose. A separate package so that users of the library never resolve
// benchmark-only dependencies (package-benchmark, jwt-kit, swift-crypto).
import PackageDescription

/// OpenSSL 3 include/library paths for Homebrew on macOS; on Linux libssl-dev installs into the
/// default search paths.
let openSSLCSettings: [CSetting] = [
    .unsafeFlags(["-I/opt/homebrew/opt/openssl@3/include", "-I/usr/local/opt/openssl@3/include"],
                 .when(platforms: [.macOS])),
]
let openSSLLinkerSettings: [LinkerSetting] = [
    .linkedLibrary("crypto"),
    .unsafeFlags(["-L/opt/homebrew/opt/openssl@3/lib", "-L/usr/local/opt/openssl@3/lib"],
                 .when(platforms: [.macOS])),
]

let package = Package(
    name: "swift-jose-benchmarks",
    platforms: [.macOS(.v15)],
    // `--traits SwiftCrypto` builds the benchmarks on swift-jose's swift-crypto backend.
    traits: [
        .trait(name: "SwiftCrypto", description: "swift-jose on its swift-crypto backend."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        // PostgreSQL: `replay-bench` measures the shared replay store (JOSEPostgreSQL).
        .package(name: "swift-jose", path: "..", traits: [
            "PostgreSQL",
            .trait(name: "SwiftCrypto", condition: .when(traits: ["SwiftCrypto"])),
        ]),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // The raw OpenSSL floor: the least work a verifier must do, in C.
        .target(
            name: "COpenSSLFloor",
            cSettings: openSSLCSettings + [.unsafeFlags(["-O2"])],
            linkerSettings: openSSLLinkerSettings
        ),
        // Deterministic keys and typical ID tokens for every algorithm.
        .target(
            name: "TokenFactory",
            dependencies: ["COpenSSLFloor"]
        ),
        // The single place where swift-jose's verifier plugs in.
        .target(
            name: "OursVerifier",
            dependencies: [
                "TokenFactory",
                .product(name: "JOSE", package: "swift-jose"),
            ]
        ),
        // The three verifiers behind one closure type, shared by `compare` and the suite.
        .target(
            name: "VerifierKit",
            dependencies: [
                "COpenSSLFloor",
                "TokenFactory",
                "OursVerifier",
                .product(name: "JWTKit", package: "jwt-kit"),
            ]
        ),
        // `swift run -c release --package-path Benchmarks compare`; its per-backend table also runs
        // the `compare` of a second build made with `--traits SwiftCrypto` (see README.md).
        .executableTarget(
            name: "compare",
            dependencies: [
                "VerifierKit",
                "TokenFactory",
                "OursVerifier",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
        // A minimal verify loop for profilers (callgrind, perf).
        .executableTarget(
            name: "profile-verify",
            dependencies: ["VerifierKit", "TokenFactory", "OursVerifier"]
        ),
        // What one road of verification costs over another (interleaved single verifies, medians).
        .executableTarget(
            name: "road-overhead",
            dependencies: ["TokenFactory", "OursVerifier", .product(name: "JOSE", package: "swift-jose")]
        ),
        // DPoP checks with the in-memory and the PostgreSQL replay store, and a one-key flood.
        .executableTarget(
            name: "replay-bench",
            dependencies: [
                .product(name: "JOSE", package: "swift-jose"),
                .product(name: "JOSEPostgreSQL", package: "swift-jose"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The heap and resident memory of one URLSessionHTTPFetcher over many fetches.
        .executableTarget(
            name: "fetch-footprint",
            dependencies: [
                .product(name: "JOSE", package: "swift-jose"),
                .product(name: "JOSEURLSession", package: "swift-jose"),
            ]
        ),
        // `swift package --package-path Benchmarks benchmark`
        .executableTarget(
            name: "JOSEBenchmarks",
            dependencies: [
                "VerifierKit",
                "TokenFactory",
                "OursVerifier",
                .product(name: "JOSE", package: "swift-jose"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/JOSEBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ]
)
