#!/usr/bin/env bash
# Two `jose` builds, one per crypto backend, must agree: the default (OpenSSL) and the Apple
# configuration built on Linux (swift-crypto, with the lock fallback). For every
# algorithm both have, a token signed by one build's `jose sign` verifies with the other's
# `jose verify`, a tampered copy is rejected by it, and a private key written as PEM by one
# reads back as the same key (same thumbprint) in the other. For the algorithms swift-crypto
# lacks (ES256K, Ed448), its build must refuse the OpenSSL build's tokens.
#
#   bash Tests/CrossBackend/run.sh             (debug builds; prints "N passed, N failed")
#   bash Tests/CrossBackend/run.sh release     (release builds, as they ship)
#   bash Tests/CrossBackend/run.sh --binaries OPENSSL_JOSE SWIFT_CRYPTO_JOSE
#                                              (two `jose` already built; CI's, which builds both
#                                              configurations in one scratch folder, one after the other)
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "${1:-}" = --binaries ]; then
    declare -A jose=([openssl]="$(realpath "${2:?the jose of the OpenSSL build}")"
                     [swift-crypto]="$(realpath "${3:?the jose of the swift-crypto build}")")
else
    configuration="${1:-debug}"
    swift build -c "$configuration" --product jose
    JOSE_LOCK_FALLBACK=1 swift build -c "$configuration" --product jose --traits SwiftCrypto --scratch-path .build-swift-crypto
    declare -A jose=([openssl]="$PWD/.build/$configuration/jose" [swift-crypto]="$PWD/.build-swift-crypto/$configuration/jose")
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
head -c 64 /dev/urandom > secret
passed=0
failed=0

# check NAME COMMAND...: runs COMMAND quietly and counts it as passed when it exits 0.
check() {
    local name=$1
    shift
    if "$@" > out.txt 2>&1; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $name"
        sed 's/^/    /' out.txt
    fi
}

# refuses NAME COMMAND...: counts as passed when COMMAND exits non-zero.
refuses() {
    local name=$1
    shift
    if "$@" > out.txt 2>&1; then
        failed=$((failed + 1))
        echo "FAIL (accepted): $name"
    else
        passed=$((passed + 1))
    fi
}

# tamper TOKEN: the token with the first character of its signature changed.
tamper() {
    local token=$1 head=${1%.*} signature=${1##*.}
    local first=${signature:0:1} replacement=A
    [ "$first" = A ] && replacement=B
    echo "$head.$replacement${signature:1}"
}

for alg in HS256 HS384 HS512 RS256 RS384 RS512 PS256 PS384 PS512 ES256 ES384 ES512 EdDSA Ed25519; do
    for signer in openssl swift-crypto; do
        verifier=openssl
        [ "$signer" = openssl ] && verifier=swift-crypto
        case $alg in
        HS*)
            token=$("${jose[$signer]}" sign --secret-file secret --alg "$alg" --sub alice --aud api --exp +1h)
            verify=(--secret-file secret)
            ;;
        *)
            "${jose[$signer]}" keygen --alg "$alg" --kid k --out key.jwk --jwks-out jwks.json 2> /dev/null
            token=$("${jose[$signer]}" sign --key key.jwk --alg "$alg" --sub alice --aud api --exp +1h)
            verify=(--jwks jwks.json)
            "${jose[$signer]}" jwk to-pem key.jwk --out key.pem 2> /dev/null
            check "$alg: $signer's PEM private key reads back in $verifier with the same thumbprint" \
                test "$("${jose[$signer]}" thumbprint key.jwk)" = "$("${jose[$verifier]}" jwk from-pem key.pem | "${jose[$verifier]}" thumbprint -)"
            ;;
        esac
        check "$alg: $signer signs, $verifier verifies" "${jose[$verifier]}" verify "${verify[@]}" --aud api "$token"
        refuses "$alg: $verifier rejects $signer's token with a changed signature" \
            "${jose[$verifier]}" verify "${verify[@]}" --aud api "$(tamper "$token")"
    done
done

for alg in ES256K Ed448; do
    "${jose[openssl]}" keygen --alg "$alg" --kid k --out key.jwk --jwks-out jwks.json 2> /dev/null
    token=$("${jose[openssl]}" sign --key key.jwk --alg "$alg" --sub alice --aud api --exp +1h)
    check "$alg: openssl verifies its own token" "${jose[openssl]}" verify --jwks jwks.json --aud api "$token"
    refuses "$alg: swift-crypto, which lacks $alg, refuses the token" \
        "${jose[swift-crypto]}" verify --jwks jwks.json --aud api "$token"
    cp out.txt refusal.txt
    check "$alg: swift-crypto's refusal names the backend" grep -q "swift-crypto" refusal.txt
done

echo "cross-backend: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
