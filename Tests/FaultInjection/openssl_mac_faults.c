// OpenSSL fault injection for the CLI tests (issue #12, finding 7).
//
// Built by Tests/JOSECLITests/OpenSSLFaultTests.swift into a shared object and loaded into the
// `jose` binary with LD_PRELOAD, it stands in front of libcrypto's SHA256_Update, the one step of
// an HMAC-SHA-256 that reports failure (Sources/COpenSSL/hmac_sha2.h: the inner hash absorbs the
// message's whole blocks with it, right after the keyed pad block):
//
//   SHA256_Update  with JOSE_FAULT_SHA256_UPDATE=N, the first N calls that continue a keyed pad
//                  state (512 bits absorbed: a MAC, not the keying) fail: nothing is absorbed, an
//                  error is raised on OpenSSL's error queue, as a real failure would, and 0 is
//                  returned.
//
// Every SHA256_Update first checks that the calling thread's error queue is empty: an error left
// behind by an earlier failure would be read as the cause of a later one. A non-empty queue ends
// the process at once with exit status 97 and a line on stderr. When the process exits
// normally, one line on stderr says how many faults were injected, so a test can tell that the
// failure path it meant to reach was reached.
#define _GNU_SOURCE
#define OPENSSL_SUPPRESS_DEPRECATED
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <openssl/err.h>
#include <openssl/sha.h>

typedef int (*sha256_update_function)(SHA256_CTX *, const void *, size_t);

static atomic_long update_failures_left = -1;
static atomic_long update_failures_injected = 0;

__attribute__((destructor)) static void report_injected_faults(void) {
    fprintf(stderr, "openssl-faults: injected sha256-update=%ld\n", atomic_load(&update_failures_injected));
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

int SHA256_Update(SHA256_CTX *context, const void *data, size_t length) {
    sha256_update_function real = (sha256_update_function)dlsym(RTLD_NEXT, "SHA256_Update");
    if (ERR_peek_error() != 0) {
        fputs("openssl-faults: the OpenSSL error queue was not empty when a SHA-256 computation went on\n", stderr);
        _exit(97);
    }
    int continuesPadBlock = context->Nl == 512 && context->Nh == 0;
    if (continuesPadBlock && take_failure(&update_failures_left, "JOSE_FAULT_SHA256_UPDATE")) {
        atomic_fetch_add(&update_failures_injected, 1);
        ERR_raise(ERR_LIB_EVP, ERR_R_INTERNAL_ERROR);
        return 0;
    }
    return real(context, data, length);
}
