#!/usr/bin/env bash
# Builds and runs core-only-program (a program that imports JOSE alone) on each crypto backend and
# checks what the core links: no FoundationNetworking (libcurl), no full Foundation, no ICU (issue
# #11). The default (OpenSSL) build must also build and link nothing of swift-crypto (issue #22).
set -euo pipefail
cd "$(dirname "$0")/.."

# check_core BACKEND SCRATCH_PATH: builds, runs and inspects core-only-program.
check_core() {
    local backend=$1 scratch=$2
    JOSE_CRYPTO=$backend swift build --product core-only-program --scratch-path "$scratch"
    local program="$scratch/debug/core-only-program"
    # Echoed through the shell's own stderr: `tee /dev/stderr` would reopen a log file that
    # stderr points to, from its start, and write over it.
    local output
    output="$("$program" Vectors/examples/jwks.json Vectors/examples/id-token.jwt)"
    echo "$output" >&2
    grep -q '^valid: ' <<<"$output"
    local libraries
    libraries="$(ldd "$program")"
    if grep -Ei 'FoundationNetworking|libFoundation\.so|FoundationInternationalization|_FoundationICU|libicu|libcurl' <<<"$libraries"; then
        echo "check-core-links ($backend): import JOSE links the libraries above; the core may link FoundationEssentials at most" >&2
        exit 1
    fi
    echo "check-core-links ($backend): import JOSE links $(wc -l <<<"$libraries") shared objects, none of FoundationNetworking, Foundation or ICU"
}

check_core openssl .build
check_core swift-crypto .build-swift-crypto

# The default build: no object of swift-crypto's targets, and none of its symbols in the program.
built="$(find .build/debug -name '*.o' \( -path '*CCryptoBoringSSL*' -o -path '*/Crypto.build/*' -o -path '*CryptoExtras.build*' \) | wc -l)"
linked="$(nm .build/debug/core-only-program | grep -c 'CCryptoBoringSSL\|\$s6Crypto' || true)"
if [ "$built" -ne 0 ] || [ "$linked" -ne 0 ]; then
    echo "check-core-links: the default build built $built swift-crypto objects and links $linked of its symbols" >&2
    exit 1
fi
echo "check-core-links: the default build built no swift-crypto object and links none of its symbols"
