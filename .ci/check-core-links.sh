#!/usr/bin/env bash
# Builds and runs core-only-program (a program that imports JOSE alone) and checks what the core
# links: no FoundationNetworking (libcurl), no full Foundation, no ICU (issue #11).
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product core-only-program
program="$(swift build --show-bin-path)/core-only-program"
"$program" Vectors/examples/jwks.json Vectors/examples/id-token.jwt | tee /dev/stderr | grep -q '^valid: '

libraries="$(ldd "$program")"
if grep -Ei 'FoundationNetworking|libFoundation\.so|FoundationInternationalization|_FoundationICU|libicu|libcurl' <<<"$libraries"; then
    echo "check-core-links: import JOSE links the libraries above; the core may link FoundationEssentials at most" >&2
    exit 1
fi
echo "check-core-links: import JOSE links $(wc -l <<<"$libraries") shared objects, none of FoundationNetworking, Foundation or ICU"
