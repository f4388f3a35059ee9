// OpenSSL fault injection for the CLI tests (issue #12, finding 7).
//
// Built by Tests/JOSECLITests/OpenSSLFaultTests.swift into a shared object and loaded into the
// `jose` binary with LD_PRELOAD, it stands in front of two libcrypto functions:
//
//   EVP_MAC_init   with JOSE_FAULT_MAC_REINIT=N, the first N re-initialisations of a keyed
//                  context (key == NULL: how a pooled HMAC context is reused) fail with an
//                  error raised on OpenSSL's error queue, as a real failure would.
//   EVP_MAC_final  with JOSE_FAULT_MAC_FINAL=N, the first N calls fail for real (libcrypto is
//                  asked to write into a zero-byte buffer and raises "buffer too small").
//
// Every EVP_MAC_final first checks that the calling thread's error queue is empty: an error
// left behind by an earlier failure would be read as the cause of a later one. A non-empty queue
// ends the process at once with exit status 97 and a line on stderr. When the process exits
// normally, one line on stderr says how many faults were injected, so a test can tell that the
// failure path it meant to reach was reached.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <openssl/err.h>
#include <openssl/evp.h>

typedef int (*mac_init_function)(EVP_MAC_CTX *, const unsigned char *, size_t, const OSSL_PARAM[]);
typedef int (*mac_final_function)(EVP_MAC_CTX *, unsigned char *, size_t *, size_t);

static atomic_long reinit_failures_left = -1;
static atomic_long final_failures_left = -1;
static atomic_long reinit_failures_injected = 0;
static atomic_long final_failures_injected = 0;

__attribute__((destructor)) static void report_injected_faults(void) {
    fprintf(stderr, "openssl-faults: injected reinit=%ld final=%ld\n",
            atomic_load(&reinit_failures_injected), atomic_load(&final_failures_injected));
}

// Takes one failure from `counter` (read from `variable` on first use); true if this call fails.
static int take_failure(atomic_long *counter, const char *variable) {
    long unset = -1;
    const char *text = getenv(variable);
    atomic_compare_exchange_strong(counter, &unset, text ? strtol(text, NULL, 10) : 0);
    long left = atomic_load(counter);
    while (left > 0) {
        if (atomic_compare_exchange_weak(counter, &left, left - 1)) return 1;
    }
    return 0;
}

int EVP_MAC_init(EVP_MAC_CTX *context, const unsigned char *key, size_t key_length, const OSSL_PARAM parameters[]) {
    mac_init_function real = (mac_init_function)dlsym(RTLD_NEXT, "EVP_MAC_init");
    if (key == NULL && take_failure(&reinit_failures_left, "JOSE_FAULT_MAC_REINIT")) {
        atomic_fetch_add(&reinit_failures_injected, 1);
        ERR_raise(ERR_LIB_EVP, ERR_R_INTERNAL_ERROR);
        return 0;
    }
    return real(context, key, key_length, parameters);
}

int EVP_MAC_final(EVP_MAC_CTX *context, unsigned char *out, size_t *out_length, size_t out_size) {
    mac_final_function real = (mac_final_function)dlsym(RTLD_NEXT, "EVP_MAC_final");
    if (ERR_peek_error() != 0) {
        fputs("openssl-faults: the OpenSSL error queue was not empty when a MAC computation ended\n", stderr);
        _exit(97);
    }
    if (take_failure(&final_failures_left, "JOSE_FAULT_MAC_FINAL")) {
        atomic_fetch_add(&final_failures_injected, 1);
        return real(context, out, out_length, 0);
    }
    return real(context, out, out_length, out_size);
}
