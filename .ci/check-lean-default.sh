#!/usr/bin/env bash
# A consumer that depends on the product `JOSE` alone, with every trait of this package left off,
# resolves and builds none of the server stacks the optional products use (issue #25): no
# swift-nio, async-http-client, hummingbird, vapor, postgres-nio, swift-service-lifecycle or
# swift-metrics. Makes a throwaway package that depends on this one by path, resolves and builds
# it, prints which packages it resolved and which modules it built, and fails on any of those.
# Its program is Tests/CoreOnlyProgram/main.swift, so the same build also shows what `import JOSE`
# links, and that the default build builds nothing of swift-crypto (.ci/check-core-links.sh).
#
#     bash .ci/check-lean-default.sh [SCRATCH]     # default scratch: .build-lean-default
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
scratch="${1:-$root/.build-lean-default}"
consumer="$scratch/consumer"
# Whole package names (`grep -x`), so that a folder named after one (a `wt-vapor` checkout, say)
# is no match.
forbidden='swift-nio(-.*)?|async-http-client|hummingbird(-.*)?|vapor|postgres-nio|swift-service-lifecycle|swift-metrics'

rm -rf "$consumer/Sources" "$consumer/Package.resolved"
mkdir -p "$consumer/Sources/Consumer"
cat >"$consumer/Package.swift" <<MANIFEST
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "consumer",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    dependencies: [.package(path: "$root")],
    targets: [.executableTarget(name: "Consumer", dependencies: [.product(name: "JOSE", package: "$(basename "$root")")])]
)
MANIFEST
cp Tests/CoreOnlyProgram/main.swift "$consumer/Sources/Consumer/main.swift"

swift package --package-path "$consumer" --scratch-path "$consumer/.build" resolve
resolved="$(swift package --package-path "$consumer" --scratch-path "$consumer/.build" show-dependencies --format flatlist)"
echo "check-lean-default: the consumer resolved:"
sed 's/^/    /' <<<"$resolved"
swift build --package-path "$consumer" --scratch-path "$consumer/.build"
bash .ci/check-core-links.sh "$consumer/.build/debug/Consumer" openssl "$consumer/.build/debug"
# A module counts as built when its folder holds object files (SwiftPM makes the folders of the
# whole graph, built or not).
modules="$(for folder in "$consumer"/.build/debug/*.build; do
    if find "$folder" -name '*.o' -print -quit | grep -q .; then basename "$folder" .build; fi
done | sort)"
echo "check-lean-default: the consumer built these modules:"
sed 's/^/    /' <<<"$modules"

if grep -Eixq "$forbidden" <<<"$resolved"; then
    echo "check-lean-default: depending on JOSE alone resolved $(grep -Eix "$forbidden" <<<"$resolved" | tr '\n' ' ')" >&2
    exit 1
fi
if find "$consumer/.build/checkouts" -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | grep -Eixq "$forbidden"; then
    echo "check-lean-default: depending on JOSE alone checked out a server package" >&2
    exit 1
fi
if grep -Eiq '^(NIO|AsyncHTTPClient|Hummingbird|Vapor|PostgresNIO|ServiceLifecycle|Metrics|CoreMetrics)' <<<"$modules"; then
    echo "check-lean-default: depending on JOSE alone built $(grep -Ei '^(NIO|AsyncHTTPClient|Hummingbird|Vapor|PostgresNIO|ServiceLifecycle|Metrics|CoreMetrics)' <<<"$modules" | tr '\n' ' ')" >&2
    exit 1
fi
echo "check-lean-default: JOSE alone resolves $(grep -c . <<<"$resolved") packages and builds $(grep -c . <<<"$modules") modules, none of swift-nio, async-http-client, hummingbird, vapor, postgres-nio, swift-service-lifecycle, swift-metrics"
