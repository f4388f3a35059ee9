/*
 * The raw OpenSSL floor for JWS verification: see include/COpenSSLFloor.h.
 */
#include "COpenSSLFloor.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <string.h>

#define FLOOR_MAX_SIGNATURE 512
#define FLOOR_MAX_DER 160

struct jose_floor_key {
    jose_floor_alg alg;
    EVP_PKEY *pkey;       /* NULL for HMAC */
    uint8_t secret[32];   /* HMAC only */
};

struct jose_floor_verifier {
    jose_floor_alg alg;
    EVP_PKEY *public_key; /* public-only; NULL for HMAC */
    EVP_MD *md;           /* fetched once; NULL for EdDSA */
    EVP_MAC *mac;         /* HMAC only */
    uint8_t secret[32];   /* HMAC only */
    size_t signature_len; /* exact JWS signature length */
    size_t coordinate_len;/* ECDSA: bytes of R and of S */
};

struct jose_floor_thread {
    const jose_floor_verifier *verifier;
    EVP_MD_CTX *md_ctx;     /* hashing (RSA, ECDSA) or DigestVerify (EdDSA) */
    EVP_PKEY_CTX *pkey_ctx; /* prepared verify context (RSA, ECDSA) */
    EVP_MAC_CTX *mac_ctx;   /* keyed once, re-initialised per call (HMAC) */
    uint8_t signature[FLOOR_MAX_SIGNATURE];
    uint8_t der[FLOOR_MAX_DER];
};

/* ---------------------------------------------------------------- helpers */

static const char *floor_digest_name(jose_floor_alg alg) {
    switch (alg) {
    case JOSE_FLOOR_HS256: case JOSE_FLOOR_RS256: case JOSE_FLOOR_PS256: case JOSE_FLOOR_ES256:
        return "SHA256";
    case JOSE_FLOOR_ES384: return "SHA384";
    case JOSE_FLOOR_ES512: return "SHA512";
    case JOSE_FLOOR_EDDSA: return NULL;
    }
    return NULL;
}

static size_t floor_coordinate_len(jose_floor_alg alg) {
    switch (alg) {
    case JOSE_FLOOR_ES256: return 32;
    case JOSE_FLOOR_ES384: return 48;
    case JOSE_FLOOR_ES512: return 66;
    default: return 0;
    }
}

/* Strict base64url (RFC 7515 §2): no padding, no whitespace, canonical trailing bits. */
static const uint8_t floor_b64url_table[256] = {
#define X 0xFF
    X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X, X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,
    X,X,X,X,X,X,X,X,X,X,X,X,X,62,X,X, 52,53,54,55,56,57,58,59,60,61,X,X,X,X,X,X,
    X,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14, 15,16,17,18,19,20,21,22,23,24,25,X,X,X,X,63,
    X,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40, 41,42,43,44,45,46,47,48,49,50,51,X,X,X,X,X,
    X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X, X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,
    X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X, X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,
    X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X, X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,
    X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X, X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,
#undef X
};

/* Decodes `in` into `out`; returns the decoded length, or -1 when malformed or too long. */
static long floor_b64url_decode(const uint8_t *in, size_t len, uint8_t *out, size_t capacity) {
    size_t rem = len % 4;
    if (rem == 1) return -1;
    size_t out_len = (len / 4) * 3 + (rem == 0 ? 0 : rem - 1);
    if (out_len > capacity) return -1;
    size_t i = 0, o = 0;
    for (; i + 4 <= len; i += 4) {
        uint8_t a = floor_b64url_table[in[i]], b = floor_b64url_table[in[i + 1]];
        uint8_t c = floor_b64url_table[in[i + 2]], d = floor_b64url_table[in[i + 3]];
        if ((a | b | c | d) & 0xC0) return -1;
        uint32_t v = ((uint32_t)a << 18) | ((uint32_t)b << 12) | ((uint32_t)c << 6) | d;
        out[o++] = (uint8_t)(v >> 16);
        out[o++] = (uint8_t)(v >> 8);
        out[o++] = (uint8_t)v;
    }
    if (rem == 2) {
        uint8_t a = floor_b64url_table[in[i]], b = floor_b64url_table[in[i + 1]];
        if ((a | b) & 0xC0 || (b & 0x0F)) return -1;
        out[o++] = (uint8_t)((a << 2) | (b >> 4));
    } else if (rem == 3) {
        uint8_t a = floor_b64url_table[in[i]], b = floor_b64url_table[in[i + 1]];
        uint8_t c = floor_b64url_table[in[i + 2]];
        if ((a | b | c) & 0xC0 || (c & 0x03)) return -1;
        out[o++] = (uint8_t)((a << 2) | (b >> 4));
        out[o++] = (uint8_t)((b << 4) | (c >> 2));
    }
    return (long)o;
}

/* Appends one DER INTEGER holding the unsigned big-endian `bytes`; returns the new offset. */
static size_t floor_der_integer(uint8_t *der, size_t at, const uint8_t *bytes, size_t len) {
    while (len > 1 && bytes[0] == 0) { bytes++; len--; }
    int pad = (bytes[0] & 0x80) != 0;
    der[at++] = 0x02;
    der[at++] = (uint8_t)(len + pad);
    if (pad) der[at++] = 0x00;
    memcpy(der + at, bytes, len);
    return at + len;
}

/* Converts a JWS R||S signature into an ECDSA-Sig-Value DER SEQUENCE; returns its length. */
static size_t floor_raw_to_der(const uint8_t *raw, size_t coordinate_len, uint8_t *der) {
    uint8_t body[FLOOR_MAX_DER];
    size_t body_len = floor_der_integer(body, 0, raw, coordinate_len);
    body_len = floor_der_integer(body, body_len, raw + coordinate_len, coordinate_len);
    size_t at = 0;
    der[at++] = 0x30;
    if (body_len >= 0x80) der[at++] = 0x81;
    der[at++] = (uint8_t)body_len;
    memcpy(der + at, body, body_len);
    return at + body_len;
}

/* Hashes `input` with the thread's reused digest context. */
static int floor_hash(jose_floor_thread *t, const uint8_t *input, size_t len,
                      uint8_t *digest, unsigned int *digest_len) {
    return EVP_DigestInit_ex2(t->md_ctx, t->verifier->md, NULL) == 1
        && EVP_DigestUpdate(t->md_ctx, input, len) == 1
        && EVP_DigestFinal_ex(t->md_ctx, digest, digest_len) == 1;
}

/* ------------------------------------------------------------------- keys */

jose_floor_key *jose_floor_key_generate(jose_floor_alg alg) {
    jose_floor_key *key = OPENSSL_zalloc(sizeof(*key));
    if (key == NULL) return NULL;
    key->alg = alg;
    switch (alg) {
    case JOSE_FLOOR_HS256:
        if (RAND_bytes(key->secret, sizeof(key->secret)) != 1) goto fail;
        return key;
    case JOSE_FLOOR_RS256: case JOSE_FLOOR_PS256:
        key->pkey = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
        break;
    case JOSE_FLOOR_ES256: key->pkey = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256"); break;
    case JOSE_FLOOR_ES384: key->pkey = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-384"); break;
    case JOSE_FLOOR_ES512: key->pkey = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-521"); break;
    case JOSE_FLOOR_EDDSA: key->pkey = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519"); break;
    }
    if (key->pkey == NULL) goto fail;
    return key;
fail:
    jose_floor_key_free(key);
    return NULL;
}

void jose_floor_key_free(jose_floor_key *key) {
    if (key == NULL) return;
    EVP_PKEY_free(key->pkey);
    OPENSSL_cleanse(key->secret, sizeof(key->secret));
    OPENSSL_free(key);
}

int jose_floor_sign(const jose_floor_key *key, const uint8_t *input, size_t input_len,
                    uint8_t *out, size_t capacity, size_t *out_len) {
    if (key->alg == JOSE_FLOOR_HS256) {
        return EVP_Q_mac(NULL, "HMAC", NULL, "SHA256", NULL, key->secret, sizeof(key->secret),
                         input, input_len, out, capacity, out_len) != NULL;
    }
    int ok = 0;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    uint8_t der[FLOOR_MAX_SIGNATURE];
    size_t der_len = sizeof(der);
    const char *md = floor_digest_name(key->alg);
    if (ctx == NULL) goto done;
    if (EVP_DigestSignInit_ex(ctx, &pctx, md, NULL, NULL, key->pkey, NULL) != 1) goto done;
    if (key->alg == JOSE_FLOOR_PS256) {
        if (EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) != 1) goto done;
        if (EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) != 1) goto done;
    }
    if (EVP_DigestSign(ctx, der, &der_len, input, input_len) != 1) goto done;
    size_t n = floor_coordinate_len(key->alg);
    if (n == 0) {
        if (der_len > capacity) goto done;
        memcpy(out, der, der_len);
        *out_len = der_len;
        ok = 1;
    } else {
        const uint8_t *p = der;
        ECDSA_SIG *sig = d2i_ECDSA_SIG(NULL, &p, (long)der_len);
        if (sig == NULL || 2 * n > capacity) { ECDSA_SIG_free(sig); goto done; }
        ok = BN_bn2binpad(ECDSA_SIG_get0_r(sig), out, (int)n) == (int)n
          && BN_bn2binpad(ECDSA_SIG_get0_s(sig), out + n, (int)n) == (int)n;
        *out_len = 2 * n;
        ECDSA_SIG_free(sig);
    }
done:
    EVP_MD_CTX_free(ctx);
    if (!ok) ERR_clear_error();
    return ok;
}

static int floor_export_bn(const EVP_PKEY *pkey, const char *name, size_t pad,
                           uint8_t *out, size_t capacity, size_t *out_len) {
    BIGNUM *bn = NULL;
    if (EVP_PKEY_get_bn_param(pkey, name, &bn) != 1) return 0;
    size_t len = pad ? pad : (size_t)BN_num_bytes(bn);
    int ok = len <= capacity && BN_bn2binpad(bn, out, (int)len) == (int)len;
    if (ok) *out_len = len;
    BN_free(bn);
    return ok;
}

int jose_floor_key_export(const jose_floor_key *key, jose_floor_component which,
                          uint8_t *out, size_t capacity, size_t *out_len) {
    int first = which == JOSE_FLOOR_COMPONENT_FIRST;
    int ok = 0;
    switch (key->alg) {
    case JOSE_FLOOR_HS256:
        if (!first || capacity < sizeof(key->secret)) return 0;
        memcpy(out, key->secret, sizeof(key->secret));
        *out_len = sizeof(key->secret);
        return 1;
    case JOSE_FLOOR_RS256: case JOSE_FLOOR_PS256:
        ok = floor_export_bn(key->pkey, first ? OSSL_PKEY_PARAM_RSA_N : OSSL_PKEY_PARAM_RSA_E,
                             0, out, capacity, out_len);
        break;
    case JOSE_FLOOR_ES256: case JOSE_FLOOR_ES384: case JOSE_FLOOR_ES512:
        ok = floor_export_bn(key->pkey, first ? OSSL_PKEY_PARAM_EC_PUB_X : OSSL_PKEY_PARAM_EC_PUB_Y,
                             floor_coordinate_len(key->alg), out, capacity, out_len);
        break;
    case JOSE_FLOOR_EDDSA:
        if (!first) return 0;
        *out_len = capacity;
        ok = EVP_PKEY_get_raw_public_key(key->pkey, out, out_len) == 1;
        break;
    }
    if (!ok) ERR_clear_error();
    return ok;
}

/* -------------------------------------------------------------- verifiers */

jose_floor_verifier *jose_floor_verifier_new(const jose_floor_key *key) {
    jose_floor_verifier *v = OPENSSL_zalloc(sizeof(*v));
    if (v == NULL) return NULL;
    v->alg = key->alg;
    v->coordinate_len = floor_coordinate_len(key->alg);
    const char *md = floor_digest_name(key->alg);
    if (md != NULL && (v->md = EVP_MD_fetch(NULL, md, NULL)) == NULL) goto fail;
    switch (key->alg) {
    case JOSE_FLOOR_HS256:
        memcpy(v->secret, key->secret, sizeof(v->secret));
        if ((v->mac = EVP_MAC_fetch(NULL, "HMAC", NULL)) == NULL) goto fail;
        v->signature_len = 32;
        return v;
    case JOSE_FLOOR_RS256: case JOSE_FLOOR_PS256:
        v->signature_len = (size_t)EVP_PKEY_get_size(key->pkey);
        break;
    case JOSE_FLOOR_ES256: case JOSE_FLOOR_ES384: case JOSE_FLOOR_ES512:
        v->signature_len = 2 * v->coordinate_len;
        break;
    case JOSE_FLOOR_EDDSA:
        v->signature_len = 64;
        break;
    }
    /* Round-trip through SubjectPublicKeyInfo: the verifier never holds private material. */
    {
        unsigned char *spki = NULL;
        int spki_len = i2d_PUBKEY(key->pkey, &spki);
        if (spki_len <= 0) goto fail;
        const unsigned char *p = spki;
        v->public_key = d2i_PUBKEY(NULL, &p, spki_len);
        OPENSSL_free(spki);
        if (v->public_key == NULL) goto fail;
    }
    return v;
fail:
    ERR_clear_error();
    jose_floor_verifier_free(v);
    return NULL;
}

void jose_floor_verifier_free(jose_floor_verifier *v) {
    if (v == NULL) return;
    EVP_PKEY_free(v->public_key);
    EVP_MD_free(v->md);
    EVP_MAC_free(v->mac);
    OPENSSL_cleanse(v->secret, sizeof(v->secret));
    OPENSSL_free(v);
}

jose_floor_thread *jose_floor_thread_new(const jose_floor_verifier *v) {
    jose_floor_thread *t = OPENSSL_zalloc(sizeof(*t));
    if (t == NULL) return NULL;
    t->verifier = v;
    switch (v->alg) {
    case JOSE_FLOOR_HS256: {
        OSSL_PARAM params[2];
        params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0);
        params[1] = OSSL_PARAM_construct_end();
        if ((t->mac_ctx = EVP_MAC_CTX_new(v->mac)) == NULL) goto fail;
        if (EVP_MAC_init(t->mac_ctx, v->secret, sizeof(v->secret), params) != 1) goto fail;
        return t;
    }
    case JOSE_FLOOR_RS256: case JOSE_FLOOR_PS256:
    case JOSE_FLOOR_ES256: case JOSE_FLOOR_ES384: case JOSE_FLOOR_ES512:
        if ((t->md_ctx = EVP_MD_CTX_new()) == NULL) goto fail;
        if ((t->pkey_ctx = EVP_PKEY_CTX_new_from_pkey(NULL, v->public_key, NULL)) == NULL) goto fail;
        if (EVP_PKEY_verify_init(t->pkey_ctx) != 1) goto fail;
        if (EVP_PKEY_CTX_set_signature_md(t->pkey_ctx, v->md) != 1) goto fail;
        if (v->alg == JOSE_FLOOR_RS256 &&
            EVP_PKEY_CTX_set_rsa_padding(t->pkey_ctx, RSA_PKCS1_PADDING) != 1) goto fail;
        if (v->alg == JOSE_FLOOR_PS256 &&
            (EVP_PKEY_CTX_set_rsa_padding(t->pkey_ctx, RSA_PKCS1_PSS_PADDING) != 1 ||
             EVP_PKEY_CTX_set_rsa_mgf1_md(t->pkey_ctx, v->md) != 1 ||
             EVP_PKEY_CTX_set_rsa_pss_saltlen(t->pkey_ctx, RSA_PSS_SALTLEN_DIGEST) != 1)) goto fail;
        return t;
    case JOSE_FLOOR_EDDSA:
        if ((t->md_ctx = EVP_MD_CTX_new()) == NULL) goto fail;
        return t;
    }
fail:
    ERR_clear_error();
    jose_floor_thread_free(t);
    return NULL;
}

void jose_floor_thread_free(jose_floor_thread *t) {
    if (t == NULL) return;
    EVP_MD_CTX_free(t->md_ctx);
    EVP_PKEY_CTX_free(t->pkey_ctx);
    EVP_MAC_CTX_free(t->mac_ctx);
    OPENSSL_free(t);
}

/* Splits a compact token at its two dots and decodes the signature into t->signature. Returns
 * the signature length (exactly the algorithm's), or -1; *input_len gets the signing input's
 * length. The signature part may hold no further dot (the decoder rejects it). */
static long floor_split(jose_floor_thread *t, const uint8_t *token, size_t token_len, size_t *input_len) {
    const uint8_t *dot1 = memchr(token, '.', token_len);
    if (dot1 == NULL) return -1;
    const uint8_t *rest = dot1 + 1;
    const uint8_t *dot2 = memchr(rest, '.', token_len - (size_t)(rest - token));
    if (dot2 == NULL) return -1;
    *input_len = (size_t)(dot2 - token);
    long sig_len = floor_b64url_decode(dot2 + 1, token_len - *input_len - 1, t->signature, sizeof(t->signature));
    if (sig_len < 0 || (size_t)sig_len != t->verifier->signature_len) return -1;
    return sig_len;
}

int jose_floor_verify(jose_floor_thread *t, const uint8_t *token, size_t token_len) {
    const jose_floor_verifier *v = t->verifier;
    size_t input_len = 0;
    long sig_len = floor_split(t, token, token_len, &input_len);
    if (sig_len < 0) return 0;

    int ok = 0;
    uint8_t digest[EVP_MAX_MD_SIZE];
    unsigned int digest_len = 0;
    switch (v->alg) {
    case JOSE_FLOOR_HS256: {
        uint8_t mac[EVP_MAX_MD_SIZE];
        size_t mac_len = 0;
        ok = EVP_MAC_init(t->mac_ctx, NULL, 0, NULL) == 1
          && EVP_MAC_update(t->mac_ctx, token, input_len) == 1
          && EVP_MAC_final(t->mac_ctx, mac, &mac_len, sizeof(mac)) == 1
          && mac_len == (size_t)sig_len
          && CRYPTO_memcmp(mac, t->signature, mac_len) == 0;
        break;
    }
    case JOSE_FLOOR_RS256: case JOSE_FLOOR_PS256:
        ok = floor_hash(t, token, input_len, digest, &digest_len)
          && EVP_PKEY_verify(t->pkey_ctx, t->signature, (size_t)sig_len, digest, digest_len) == 1;
        break;
    case JOSE_FLOOR_ES256: case JOSE_FLOOR_ES384: case JOSE_FLOOR_ES512: {
        size_t der_len = floor_raw_to_der(t->signature, v->coordinate_len, t->der);
        ok = floor_hash(t, token, input_len, digest, &digest_len)
          && EVP_PKEY_verify(t->pkey_ctx, t->der, der_len, digest, digest_len) == 1;
        break;
    }
    case JOSE_FLOOR_EDDSA:
        ok = EVP_MD_CTX_reset(t->md_ctx) == 1
          && EVP_DigestVerifyInit_ex(t->md_ctx, NULL, NULL, NULL, NULL, v->public_key, NULL) == 1
          && EVP_DigestVerify(t->md_ctx, t->signature, (size_t)sig_len, token, input_len) == 1;
        break;
    }
    if (!ok) ERR_clear_error();
    return ok;
}

int jose_floor_verify_digestverify(jose_floor_thread *t, const uint8_t *token, size_t token_len) {
    const jose_floor_verifier *v = t->verifier;
    size_t input_len = 0;
    long sig_len = floor_split(t, token, token_len, &input_len);
    if (sig_len < 0) return 0;

    int ok = 0;
    switch (v->alg) {
    case JOSE_FLOOR_HS256: {
        /* A copy of the keyed per-thread template per call (the "EVP_MAC_CTX_dup"). */
        uint8_t mac[EVP_MAX_MD_SIZE];
        size_t mac_len = 0;
        EVP_MAC_CTX *ctx = EVP_MAC_CTX_dup(t->mac_ctx);
        ok = ctx != NULL
          && EVP_MAC_update(ctx, token, input_len) == 1
          && EVP_MAC_final(ctx, mac, &mac_len, sizeof(mac)) == 1
          && mac_len == (size_t)sig_len
          && CRYPTO_memcmp(mac, t->signature, mac_len) == 0;
        EVP_MAC_CTX_free(ctx);
        break;
    }
    case JOSE_FLOOR_RS256: case JOSE_FLOOR_PS256: {
        EVP_PKEY_CTX *pctx = NULL;
        ok = EVP_MD_CTX_reset(t->md_ctx) == 1
          && EVP_DigestVerifyInit_ex(t->md_ctx, &pctx, floor_digest_name(v->alg), NULL, NULL, v->public_key, NULL) == 1
          && (v->alg == JOSE_FLOOR_RS256
              || (EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) == 1
                  && EVP_PKEY_CTX_set_rsa_mgf1_md(pctx, v->md) == 1
                  && EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) == 1))
          && EVP_DigestVerify(t->md_ctx, t->signature, (size_t)sig_len, token, input_len) == 1;
        break;
    }
    case JOSE_FLOOR_ES256: case JOSE_FLOOR_ES384: case JOSE_FLOOR_ES512: {
        size_t der_len = floor_raw_to_der(t->signature, v->coordinate_len, t->der);
        ok = EVP_MD_CTX_reset(t->md_ctx) == 1
          && EVP_DigestVerifyInit_ex(t->md_ctx, NULL, floor_digest_name(v->alg), NULL, NULL, v->public_key, NULL) == 1
          && EVP_DigestVerify(t->md_ctx, t->der, der_len, token, input_len) == 1;
        break;
    }
    case JOSE_FLOOR_EDDSA:
        ok = EVP_MD_CTX_reset(t->md_ctx) == 1
          && EVP_DigestVerifyInit_ex(t->md_ctx, NULL, NULL, NULL, NULL, v->public_key, NULL) == 1
          && EVP_DigestVerify(t->md_ctx, t->signature, (size_t)sig_len, token, input_len) == 1;
        break;
    }
    if (!ok) ERR_clear_error();
    return ok;
}

const char *jose_floor_openssl_version(void) {
    return OpenSSL_version(OPENSSL_VERSION);
}
