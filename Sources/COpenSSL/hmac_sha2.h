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

/** Keys HMAC-SHA-256 with `secret` (any length); returns 1 on success, 0 on failure. */
static inline int jose_hmac_sha256_key_init(jose_hmac_sha256_key *key, const uint8_t *secret, size_t length) {
    uint8_t block[SHA256_CBLOCK] = {0};
    int ok = 1;
    if (length > SHA256_CBLOCK) {
        SHA256_CTX hash;
        ok = SHA256_Init(&hash) && SHA256_Update(&hash, secret, length) && SHA256_Final(block, &hash);
        OPENSSL_cleanse(&hash, sizeof hash);
    } else if (length > 0) {
        memcpy(block, secret, length);
    }
    for (size_t i = 0; i < SHA256_CBLOCK; i++) block[i] ^= 0x36;
    ok = ok && SHA256_Init(&key->inner) && SHA256_Update(&key->inner, block, SHA256_CBLOCK);
    for (size_t i = 0; i < SHA256_CBLOCK; i++) block[i] ^= 0x36 ^ 0x5c;
    ok = ok && SHA256_Init(&key->outer) && SHA256_Update(&key->outer, block, SHA256_CBLOCK);
    OPENSSL_cleanse(block, sizeof block);
    return ok;
}

/** Keys HMAC-SHA-384 (`digest_length` 48) or HMAC-SHA-512 (64) with `secret` (any length);
 *  returns 1 on success, 0 on failure. */
static inline int jose_hmac_sha512_key_init(
    jose_hmac_sha512_key *key, size_t digest_length, const uint8_t *secret, size_t length) {
    if (digest_length != SHA384_DIGEST_LENGTH && digest_length != SHA512_DIGEST_LENGTH) return 0;
    int (*init)(SHA512_CTX *) = digest_length == SHA384_DIGEST_LENGTH ? SHA384_Init : SHA512_Init;
    uint8_t block[SHA512_CBLOCK] = {0};
    int ok = 1;
    key->digest_length = digest_length;
    if (length > SHA512_CBLOCK) {
        SHA512_CTX hash;
        ok = init(&hash) && SHA512_Update(&hash, secret, length) && SHA512_Final(block, &hash);
        OPENSSL_cleanse(&hash, sizeof hash);
    } else if (length > 0) {
        memcpy(block, secret, length);
    }
    for (size_t i = 0; i < SHA512_CBLOCK; i++) block[i] ^= 0x36;
    ok = ok && init(&key->inner) && SHA512_Update(&key->inner, block, SHA512_CBLOCK);
    for (size_t i = 0; i < SHA512_CBLOCK; i++) block[i] ^= 0x36 ^ 0x5c;
    ok = ok && init(&key->outer) && SHA512_Update(&key->outer, block, SHA512_CBLOCK);
    OPENSSL_cleanse(block, sizeof block);
    return ok;
}

/** Writes HMAC-SHA-256 of `message` with `key` to `out` (32 bytes); returns 1 on success. */
static inline int jose_hmac_sha256(
    const jose_hmac_sha256_key *key, const uint8_t *message, size_t length, uint8_t *out) {
    SHA256_CTX context = key->inner;
    uint8_t inner[SHA256_DIGEST_LENGTH];
    int ok = SHA256_Update(&context, message, length) && SHA256_Final(inner, &context);
    context = key->outer;
    ok = ok && SHA256_Update(&context, inner, sizeof inner) && SHA256_Final(out, &context);
    OPENSSL_cleanse(&context, sizeof context);
    OPENSSL_cleanse(inner, sizeof inner);
    return ok;
}

/** Writes HMAC-SHA-384 or HMAC-SHA-512 of `message` with `key` to `out` (`key->digest_length`
 *  bytes); returns 1 on success. */
static inline int jose_hmac_sha512(
    const jose_hmac_sha512_key *key, const uint8_t *message, size_t length, uint8_t *out) {
    SHA512_CTX context = key->inner;
    uint8_t inner[SHA512_DIGEST_LENGTH];
    /* SHA512_Final writes the length SHA384_Init or SHA512_Init set in the state. */
    int ok = SHA512_Update(&context, message, length) && SHA512_Final(inner, &context);
    context = key->outer;
    ok = ok && SHA512_Update(&context, inner, key->digest_length) && SHA512_Final(out, &context);
    OPENSSL_cleanse(&context, sizeof context);
    OPENSSL_cleanse(inner, sizeof inner);
    return ok;
}

#pragma GCC diagnostic pop

#endif
