#ifndef JOSE_BENCH_COPENSSLFLOOR_H
#define JOSE_BENCH_COPENSSLFLOOR_H

/*
 * The raw OpenSSL floor for JWS verification.
 *
 * Keys are generated and signatures made here so that the Swift side can build
 * identical tokens and JWKs for every verifier. Verification is done the way
 * the cheapest honest verifier would: a public-only EVP_PKEY parsed once,
 * digests fetched once, contexts reused per thread, and on every call the
 * compact token is split at its two dots, the signature is base64url-decoded
 * (strictly) and checked over the signing input. No header or claim parsing.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The JWS algorithms the floor covers. */
typedef enum {
    JOSE_FLOOR_HS256 = 0,
    JOSE_FLOOR_RS256 = 1,
    JOSE_FLOOR_PS256 = 2,
    JOSE_FLOOR_ES256 = 3,
    JOSE_FLOOR_ES384 = 4,
    JOSE_FLOOR_ES512 = 5,
    JOSE_FLOOR_EDDSA = 6
} jose_floor_alg;

/** Which public component `jose_floor_key_export` returns. */
typedef enum {
    /** RSA `n`, EC `x`, OKP `x`, oct `k`. */
    JOSE_FLOOR_COMPONENT_FIRST = 0,
    /** RSA `e`, EC `y`. */
    JOSE_FLOOR_COMPONENT_SECOND = 1
} jose_floor_component;

/** A private key (or HMAC secret) for one algorithm; used to sign test tokens. */
typedef struct jose_floor_key jose_floor_key;
/** A public-only verification key with its digest/MAC fetched once; shareable between threads. */
typedef struct jose_floor_verifier jose_floor_verifier;
/** Per-thread reusable contexts and buffers over a verifier; use from one thread at a time. */
typedef struct jose_floor_thread jose_floor_thread;

/** Generates a fresh key for `alg` (RSA-2048, P-256/384/521, Ed25519, 32-byte HMAC secret). NULL on failure. */
jose_floor_key *jose_floor_key_generate(jose_floor_alg alg);
/** Frees a key made by `jose_floor_key_generate`. */
void jose_floor_key_free(jose_floor_key *key);

/**
 * Signs `input` as JWS `alg` requires (PKCS#1 v1.5, PSS with salt = hash length, raw R||S for
 * ECDSA, pure Ed25519, HMAC). Writes at most `capacity` bytes to `out` and the length to
 * `out_len`. Returns 1 on success, 0 on failure.
 */
int jose_floor_sign(const jose_floor_key *key, const uint8_t *input, size_t input_len,
                    uint8_t *out, size_t capacity, size_t *out_len);

/**
 * Exports a public component as unsigned big-endian bytes (EC coordinates padded to the field
 * size) so a JWK can be built from it. Returns 1 on success, 0 on failure or when the key has no
 * such component.
 */
int jose_floor_key_export(const jose_floor_key *key, jose_floor_component which,
                          uint8_t *out, size_t capacity, size_t *out_len);

/** Makes a public-only verifier from a key (the private part is not carried over). NULL on failure. */
jose_floor_verifier *jose_floor_verifier_new(const jose_floor_key *key);
/** Frees a verifier; all its thread contexts must be freed first. */
void jose_floor_verifier_free(jose_floor_verifier *verifier);

/** Makes the per-thread contexts for a verifier. NULL on failure. */
jose_floor_thread *jose_floor_thread_new(const jose_floor_verifier *verifier);
/** Frees per-thread contexts. */
void jose_floor_thread_free(jose_floor_thread *thread);

/**
 * Verifies a compact JWS `token` (`header.payload.signature`, ASCII, no padding).
 * Returns 1 when the signature is valid, 0 otherwise.
 */
int jose_floor_verify(jose_floor_thread *thread, const uint8_t *token, size_t token_len);

/**
 * The "realistic" floor: the same split and signature decoding as jose_floor_verify,
 * then the textbook one-shot call per token on the thread's reused context: EVP_DigestVerifyInit_ex
 * + EVP_DigestVerify (RSA, ECDSA after R||S to DER, EdDSA), or a copy of the keyed HMAC template
 * (EVP_MAC_CTX_dup). Returns 1 when valid, 0 otherwise.
 */
int jose_floor_verify_digestverify(jose_floor_thread *thread, const uint8_t *token, size_t token_len);

/** The linked OpenSSL's version text, e.g. "OpenSSL 3.0.19 27 Jan 2026". */
const char *jose_floor_openssl_version(void);

#ifdef __cplusplus
}
#endif

#endif
