// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "swift-jose",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "JOSE", targets: ["JOSE"]),
        .executable(name: "jose", targets: ["JOSECLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .target(
            name: "JOSE",
            dependencies: ["COpenSSL"]
        ),
        .executableTarget(
            name: "JOSECLI",
            dependencies: [
                "JOSE",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "JOSETests",
            dependencies: ["JOSE"]
        ),
        .testTarget(
            name: "JOSECLITests",
            dependencies: ["JOSECLI"]
        ),
    ]
)
