// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "swift-jose",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "JOSE", targets: ["JOSE"]),
        // The URLSession key-set fetcher: Foundation's networking (libcurl) only for those who
        // want it; servers plug their own HTTP client into `HTTPFetcher` instead.
        .library(name: "JOSEURLSession", targets: ["JOSEURLSession"]),
        .executable(name: "jose", targets: ["JOSECLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .target(
            name: "JOSE",
            dependencies: [
                "COpenSSL",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "JOSEURLSession",
            dependencies: ["JOSE"]
        ),
        // The bare OpenSSL check `jose bench` measures the full verify against.
        .target(
            name: "JOSEPrimitiveTimer",
            dependencies: ["JOSE"]
        ),
        .executableTarget(
            name: "JOSECLI",
            dependencies: [
                "JOSE",
                "JOSEURLSession",
                "JOSEPrimitiveTimer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `import JOSE` alone, for CI to check what the core links (no FoundationNetworking, no ICU).
        .executableTarget(
            name: "core-only-program",
            dependencies: ["JOSE"],
            path: "Tests/CoreOnlyProgram"
        ),
        // The README's "Log a user in" flow, so CI compiles it (ReadmeLoginExampleTests checks the text).
        .executableTarget(
            name: "readme-login-example",
            dependencies: ["JOSE", "JOSEURLSession"],
            path: "Tests/ReadmeLoginExample"
        ),
        .target(
            name: "JOSETestSupport",
            path: "Tests/JOSETestSupport",
            exclude: ["jwks_test_server.py", "oauth_provider_test_server.py"]
        ),
        .testTarget(
            name: "JOSETests",
            dependencies: [
                "JOSE",
                "JOSEURLSession",
                "JOSETestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "JOSECLITests",
            dependencies: ["JOSECLI", "JOSETestSupport"]
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
            dependencies: ["JOSE", "LibFuzzerDriver"],
            path: "Tests/Fuzz/Sources"
        ),
    ])
}
