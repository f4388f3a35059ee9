#!/usr/bin/env bash
# Re-creates the example material in this folder with the `jose` binary of this package.
#
#   JOSE=../../.build/debug/jose ./make-examples.sh          # re-sign the tokens (same bytes)
#   JOSE=../../.build/debug/jose ./make-examples.sh --new-keys  # also make new keys first
#
# RS256 and HS256 signatures are deterministic, so re-signing with the committed keys gives the
# committed tokens byte for byte. New keys (--new-keys) change every token and key file.
set -euo pipefail
cd "$(dirname "$0")"
JOSE="${JOSE:-jose}"

if [[ "${1:-}" == "--new-keys" ]]; then
    "$JOSE" keygen --alg RS256 --kid example-rs256 --jwks-out jwks.json > issuer-rs256.private.jwk.json
    "$JOSE" keygen --alg ES256 --kid example-es256 --jwks-out es256.jwks.json > es256.private.jwk.json
fi

# The HS256 secret: fixed ASCII text, no trailing newline (`--secret-file` uses raw bytes).
printf '%s' 'swift-jose example HS256 secret - for docs and tests only' > hs256.secret
# The same secret as an oct JWK, for `jose sign` (base64url of the bytes, no padding).
k=$(base64 -w0 < hs256.secret | tr '+/' '-_' | tr -d '=')
printf '{"kty":"oct","alg":"HS256","k":"%s"}\n' "$k" > hs256.jwk.json

"$JOSE" sign --key issuer-rs256.private.jwk.json --alg RS256 id-token.claims.json > id-token.jwt
"$JOSE" sign --key issuer-rs256.private.jwk.json --alg RS256 id-token-expired.claims.json > id-token-expired.jwt
"$JOSE" sign --key hs256.jwk.json --alg HS256 claims.json > hs256.jwt
