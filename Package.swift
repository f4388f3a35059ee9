// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "swift-jose",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "JOSE", targets: ["JOSE"]),
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
        .testTarget(
            name: "JOSETests",
            dependencies: ["JOSE"],
            exclude: ["Support/jwks_test_server.py"]
        ),
    ]
)
