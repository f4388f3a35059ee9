#!/usr/bin/env bash
# Builds the JOSE module's DocC documentation (its public symbol graph and Sources/JOSE/JOSE.docc)
# with the toolchain's docc, and fails on any warning: a broken symbol link, a missing parameter
# document, an article link that goes nowhere.
set -euo pipefail
cd "$(dirname "$0")/.."

graphs="$(mktemp -d)"
output="$(mktemp -d)"
trap 'rm -rf "$graphs" "$output"' EXIT
swift build --target JOSE --scratch-path .build-docs \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs"
docc convert Sources/JOSE/JOSE.docc --additional-symbol-graph-dir "$graphs" --output-path "$output" \
    --fallback-display-name JOSE --fallback-bundle-identifier swift-jose.JOSE --warnings-as-errors
echo "check-docs: the JOSE documentation builds without warnings"
