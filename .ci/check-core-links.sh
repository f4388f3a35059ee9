#!/usr/bin/env bash
# What `import JOSE` links (issues #11, #22): runs PROGRAM, a program that imports JOSE alone and
# verifies the bundled example ID token (Tests/CoreOnlyProgram/main.swift), and checks with `ldd`
# that it links no FoundationNetworking (libcurl), no full Foundation and no ICU. Given OBJECTS,
# the build folder of a default (OpenSSL) build, it also checks that the build made no object of
# swift-crypto and that PROGRAM holds none of its symbols. It builds nothing: CI runs it on the
# programs that other steps build (the lean consumer, and core-only-program of the swift-crypto
# build).
#
#     bash .ci/check-core-links.sh PROGRAM BACKEND [OBJECTS]
set -euo pipefail
cd "$(dirname "$0")/.."
program=${1:?program} backend=${2:?backend} objects=${3:-}

# Echoed through the shell's own stderr: `tee /dev/stderr` would reopen a log file that stderr
# points to, from its start, and write over it.
output="$("$program" Vectors/examples/jwks.json Vectors/examples/id-token.jwt)"
echo "$output" >&2
grep -q '^valid: ' <<<"$output"
libraries="$(ldd "$program")"
if grep -Ei 'FoundationNetworking|libFoundation\.so|FoundationInternationalization|_FoundationICU|libicu|libcurl' <<<"$libraries"; then
    echo "check-core-links ($backend): import JOSE links the libraries above; the core may link FoundationEssentials at most" >&2
    exit 1
fi
echo "check-core-links ($backend): import JOSE links $(wc -l <<<"$libraries") shared objects, none of FoundationNetworking, Foundation or ICU"

[ -n "$objects" ] || exit 0
built="$(find "$objects" -name '*.o' \( -path '*CCryptoBoringSSL*' -o -path '*/Crypto.build/*' -o -path '*CryptoExtras.build*' \) | wc -l)"
linked="$(nm "$program" | grep -c 'CCryptoBoringSSL\|\$s6Crypto' || true)"
if [ "$built" -ne 0 ] || [ "$linked" -ne 0 ]; then
    echo "check-core-links: the default build built $built swift-crypto objects and links $linked of its symbols" >&2
    exit 1
fi
echo "check-core-links: the default build built no swift-crypto object and links none of its symbols"
