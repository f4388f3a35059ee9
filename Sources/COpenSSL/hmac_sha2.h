#ifndef SWIFT_JOSE_COPENSSL_HMAC_SHA2_H
#define SWIFT_JOSE_COPENSSL_HMAC_SHA2_H

/*
 * HMAC (RFC 2104) with SHA-256, SHA-384 and SHA-512 over OpenSSL's SHA-2 functions, with the
 * keyed pad states computed once per key.
 *
 * A key is the two hash states after absorbing K0 XOR ipad and K0 XOR opad (RFC 2104 section 2;
 * K0 is the secret, or its hash when longer than a block, zero-padded to a block). Computing a
 * MAC copies both states onto the stack, so it allocates nothing, takes no lock and writes
 * nothing shared: the key is read-only after jose_hmac_*_key_init, and any number of threads
 * may use it at once. The stack copies and the inner digest are cleansed before returning.
 *
 * OpenSSL 3 deprecates these SHA-2 functions in favour of EVP, whose HMAC allocates and frees a
 * digest context per MAC (EVP_MD_CTX_copy_ex of the keyed state); they are still part of its
 * API and ABI. They do not go through a provider, so a FIPS provider does not see these MACs.
 */

#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <stdint.h>
#include <string.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/** A key for HMAC-SHA-256: the hash states after the inner and the outer pad. */
typedef struct {
    SHA256_CTX inner;
    SHA256_CTX outer;
} jose_hmac_sha256_key;

/** A key for HMAC-SHA-384 or HMAC-SHA-512 (one SHA-512 state type serves both). */
typedef struct {
    SHA512_CTX inner;
    SHA512_CTX outer;
    /** 48 for SHA-384, 64 for SHA-512. */
    size_t digest_length;
} jose_hmac_sha512_key;

/* Keys `key` (its `inner` and `outer` states, of CONTEXT_TYPE) with `secret` of `length` bytes
 * into `ok`: K0 is the secret, or its hash (INIT, UPDATE, FINAL) when longer than BLOCK_SIZE,
 * zero-padded to a block; the inner state absorbs K0 XOR ipad, the outer K0 XOR opad. One
 * definition for both state types, which C cannot share a function over. */
#define JOSE_HMAC_KEY_INIT(CONTEXT_TYPE, BLOCK_SIZE, INIT, UPDATE, FINAL)                      \
    do {                                                                                        \
        uint8_t block[BLOCK_SIZE] = {0};                                                        \
        CONTEXT_TYPE hash;                                                                      \
        if (length > BLOCK_SIZE) {                                                              \
            ok = INIT(&hash) && UPDATE(&hash, secret, length) && FINAL(block, &hash);           \
        } else if (length > 0) {                                                                \
            memcpy(block, secret, length);                                                      \
        }                                                                                       \
        for (size_t i = 0; i < BLOCK_SIZE; i++) block[i] ^= 0x36;                               \
        ok = ok && INIT(&key->inner) && UPDATE(&key->inner, block, BLOCK_SIZE);                 \
        for (size_t i = 0; i < BLOCK_SIZE; i++) block[i] ^= 0x36 ^ 0x5c;                        \
        ok = ok && INIT(&key->outer) && UPDATE(&key->outer, block, BLOCK_SIZE);                 \
        OPENSSL_cleanse(&hash, sizeof hash);                                                    \
        OPENSSL_cleanse(block, sizeof block);                                                   \
    } while (0)

/** Keys HMAC-SHA-256 with `secret` (any length); returns 1 on success, 0 on failure. */
static inline int jose_hmac_sha256_key_init(jose_hmac_sha256_key *key, const uint8_t *secret, size_t length) {
    int ok = 1;
    JOSE_HMAC_KEY_INIT(SHA256_CTX, SHA256_CBLOCK, SHA256_Init, SHA256_Update, SHA256_Final);
    return ok;
}

/** Keys HMAC-SHA-384 (`digest_length` 48) or HMAC-SHA-512 (64) with `secret` (any length);
 *  returns 1 on success, 0 on failure. */
static inline int jose_hmac_sha512_key_init(
    jose_hmac_sha512_key *key, size_t digest_length, const uint8_t *secret, size_t length) {
    if (digest_length != SHA384_DIGEST_LENGTH && digest_length != SHA512_DIGEST_LENGTH) return 0;
    int (*init)(SHA512_CTX *) = digest_length == SHA384_DIGEST_LENGTH ? SHA384_Init : SHA512_Init;
    int ok = 1;
    key->digest_length = digest_length;
    JOSE_HMAC_KEY_INIT(SHA512_CTX, SHA512_CBLOCK, init, SHA512_Update, SHA512_Final);
    return ok;
}

#undef JOSE_HMAC_KEY_INIT

/* Writes the MAC of `message` (`length` bytes) with `key` to `out` into `ok`: the inner state
 * copied onto the stack absorbs the message, the outer state copied there absorbs the inner
 * digest (DIGEST_LENGTH of its bytes); both copies and the inner digest are cleansed. */
#define JOSE_HMAC_COMPUTE(CONTEXT_TYPE, DIGEST_SIZE, DIGEST_LENGTH, UPDATE, FINAL)              \
    do {                                                                                        \
        CONTEXT_TYPE context = key->inner;                                                      \
        uint8_t inner[DIGEST_SIZE];                                                             \
        ok = UPDATE(&context, message, length) && FINAL(inner, &context);                       \
        context = key->outer;                                                                   \
        ok = ok && UPDATE(&context, inner, DIGEST_LENGTH) && FINAL(out, &context);              \
        OPENSSL_cleanse(&context, sizeof context);                                              \
        OPENSSL_cleanse(inner, sizeof inner);                                                   \
    } while (0)

/** Writes HMAC-SHA-256 of `message` with `key` to `out` (32 bytes); returns 1 on success. */
static inline int jose_hmac_sha256(
    const jose_hmac_sha256_key *key, const uint8_t *message, size_t length, uint8_t *out) {
    int ok;
    JOSE_HMAC_COMPUTE(SHA256_CTX, SHA256_DIGEST_LENGTH, SHA256_DIGEST_LENGTH, SHA256_Update, SHA256_Final);
    return ok;
}

/** Writes HMAC-SHA-384 or HMAC-SHA-512 of `message` with `key` to `out` (`key->digest_length`
 *  bytes); returns 1 on success. SHA512_Final writes the length that SHA384_Init or
 *  SHA512_Init set in the state. */
static inline int jose_hmac_sha512(
    const jose_hmac_sha512_key *key, const uint8_t *message, size_t length, uint8_t *out) {
    int ok;
    JOSE_HMAC_COMPUTE(SHA512_CTX, SHA512_DIGEST_LENGTH, key->digest_length, SHA512_Update, SHA512_Final);
    return ok;
}

#undef JOSE_HMAC_COMPUTE

#pragma GCC diagnostic pop

#endif
