#ifndef SWIFT_JOSE_COPENSSL_SHIM_H
#define SWIFT_JOSE_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/decoder.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/* Function forms of OpenSSL macros that Swift cannot import. */

/** `EVP_PKEY_PUBLIC_KEY`: the selection for EVP_PKEY_fromdata of a public key. */
static inline int jose_EVP_PKEY_PUBLIC_KEY(void) { return EVP_PKEY_PUBLIC_KEY; }

/** `EVP_PKEY_KEYPAIR`: the selection for EVP_PKEY_fromdata of a private key. */
static inline int jose_EVP_PKEY_KEYPAIR(void) { return EVP_PKEY_KEYPAIR; }

/** `BIO_get_mem_data`: the bytes written so far to a memory BIO. */
static inline long jose_BIO_get_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }

/** `RSA_PSS_SALTLEN_DIGEST`: a PSS salt exactly as long as the digest. */
static inline int jose_RSA_PSS_SALTLEN_DIGEST(void) { return RSA_PSS_SALTLEN_DIGEST; }

#endif
