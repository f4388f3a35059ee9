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
 * may use it at once. The stack copies and the inner digest are cleared before returning.
 *
 * OpenSSL 3 deprecates these SHA-2 functions in favour of EVP, whose HMAC allocates and frees a
 * digest context per MAC (EVP_MD_CTX_copy_ex of the keyed state); they are still part of its
 * API and ABI. They do not go through a provider, so a FIPS provider does not see these MACs.
 */

#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/** Zeroes `length` bytes at `bytes` where the compiler cannot drop the stores as dead: the
 * empty assembly statement after them takes the pointer and may read any memory (the method of
 * BoringSSL's OPENSSL_cleanse). For the stack copies of each MAC: a plain memset of a size known
 * here is a few vector stores, where OpenSSL 3's OPENSSL_cleanse calls through a volatile
 * pointer into a loop of 8-byte stores. */
static inline void jose_clear(void *bytes, size_t length) {
    memset(bytes, 0, length);
    __asm__ __volatile__("" : : "r"(bytes) : "memory");
}

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

/** Writes `value` big-endian into the four bytes at `out`. */
static inline void jose_hmac_store32(uint8_t *out, uint32_t value) {
    value = __builtin_bswap32(value);
    memcpy(out, &value, sizeof value);
}

/** Writes `value` big-endian into the eight bytes at `out`. */
static inline void jose_hmac_store64(uint8_t *out, uint64_t value) {
    value = __builtin_bswap64(value);
    memcpy(out, &value, sizeof value);
}

/* Writes the MAC of `message` (`length` bytes) with `key` to `out` into `ok`.
 *
 * A copy of the inner state absorbs the message's whole blocks straight from it (UPDATE from a
 * block boundary copies nothing), then the last one or two blocks built here: the message's
 * tail, 0x80, zeros, and the bit length of the pad block and the message (FIPS 180-4 section
 * 5.1; LENGTH_BYTES is the length field's width, 8 for SHA-256 and 16 for SHA-512, whose upper
 * half stays zero). The outer state's copy takes one block: the inner digest (DIGEST_LENGTH bytes
 * of the state's words, each written big-endian by STORE_WORD), 0x80, zeros and its bit length.
 * Padding here leaves out the hash functions' own finishing (a copy of the tail into the state
 * and a cleanse per digest), and every temporary sits in one stack struct, cleared once. */
#define JOSE_HMAC_COMPUTE(CONTEXT_TYPE, STORE_WORD, BLOCK_SIZE, LENGTH_BYTES, DIGEST_LENGTH, UPDATE, TRANSFORM) \
    do {                                                                                        \
        struct {                                                                                \
            CONTEXT_TYPE context;                                                               \
            uint8_t blocks[2 * BLOCK_SIZE];                                                     \
        } scratch;                                                                              \
        const size_t digest_length = (DIGEST_LENGTH);                                           \
        const size_t whole = length - length % BLOCK_SIZE;                                      \
        const size_t tail = length - whole;                                                     \
        const size_t count = tail + 1 + LENGTH_BYTES <= BLOCK_SIZE ? 1 : 2;                     \
        scratch.context = key->inner;                                                           \
        ok = whole == 0 || UPDATE(&scratch.context, message, whole);                            \
        memset(scratch.blocks, 0, count * BLOCK_SIZE);                                          \
        if (tail > 0) memcpy(scratch.blocks, message + whole, tail);                            \
        scratch.blocks[tail] = 0x80;                                                            \
        jose_hmac_store64(scratch.blocks + count * BLOCK_SIZE - 8, ((uint64_t)length + BLOCK_SIZE) * 8); \
        for (size_t i = 0; i < count; i++) TRANSFORM(&scratch.context, scratch.blocks + i * BLOCK_SIZE); \
        memset(scratch.blocks, 0, BLOCK_SIZE);                                                  \
        for (size_t i = 0; i < digest_length / sizeof scratch.context.h[0]; i++) {             \
            STORE_WORD(scratch.blocks + i * sizeof scratch.context.h[0], scratch.context.h[i]);  \
        }                                                                                       \
        scratch.blocks[digest_length] = 0x80;                                                   \
        jose_hmac_store64(scratch.blocks + BLOCK_SIZE - 8, ((uint64_t)digest_length + BLOCK_SIZE) * 8); \
        scratch.context = key->outer;                                                           \
        TRANSFORM(&scratch.context, scratch.blocks);                                            \
        for (size_t i = 0; i < digest_length / sizeof scratch.context.h[0]; i++) {             \
            STORE_WORD(out + i * sizeof scratch.context.h[0], scratch.context.h[i]);             \
        }                                                                                       \
        /* The second block, when used, holds only padding and a length. */                     \
        jose_clear(&scratch, offsetof(__typeof__(scratch), blocks) + BLOCK_SIZE);               \
    } while (0)

/** Writes HMAC-SHA-256 of `message` with `key` to `out` (32 bytes); returns 1 on success. */
static inline int jose_hmac_sha256(
    const jose_hmac_sha256_key *key, const uint8_t *message, size_t length, uint8_t *out) {
    int ok;
    JOSE_HMAC_COMPUTE(SHA256_CTX, jose_hmac_store32, SHA256_CBLOCK, 8, SHA256_DIGEST_LENGTH, SHA256_Update, SHA256_Transform);
    return ok;
}

/** Writes HMAC-SHA-384 or HMAC-SHA-512 of `message` with `key` to `out` (`key->digest_length`
 *  bytes); returns 1 on success. SHA-384's digest is the first 48 bytes of the state that
 *  SHA384_Init's initial values lead to. */
static inline int jose_hmac_sha512(
    const jose_hmac_sha512_key *key, const uint8_t *message, size_t length, uint8_t *out) {
    int ok;
    JOSE_HMAC_COMPUTE(SHA512_CTX, jose_hmac_store64, SHA512_CBLOCK, 16, key->digest_length, SHA512_Update, SHA512_Transform);
    return ok;
}

#undef JOSE_HMAC_COMPUTE

#pragma GCC diagnostic pop

#endif
