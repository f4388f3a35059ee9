// OpenSSL fault injection for the CLI tests (issue #12, finding 7).
//
// Built by Tests/JOSECLITests/OpenSSLFaultTests.swift into a shared object and loaded into the
// `jose` binary with LD_PRELOAD, it stands in front of libcrypto's SHA256_Final, the last step
// of each half of an HMAC-SHA-256 (Sources/COpenSSL/hmac_sha2.h):
//
//   SHA256_Final  with JOSE_FAULT_SHA256_FINAL=N, the first N calls fail: nothing is written,
//                 an error is raised on OpenSSL's error queue, as a real failure would, and 0 is
//                 returned.
//
// Every SHA256_Final first checks that the calling thread's error queue is empty: an error left
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

typedef int (*sha256_final_function)(unsigned char *, SHA256_CTX *);

static atomic_long final_failures_left = -1;
static atomic_long final_failures_injected = 0;

__attribute__((destructor)) static void report_injected_faults(void) {
    fprintf(stderr, "openssl-faults: injected sha256-final=%ld\n", atomic_load(&final_failures_injected));
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

int SHA256_Final(unsigned char *digest, SHA256_CTX *context) {
    sha256_final_function real = (sha256_final_function)dlsym(RTLD_NEXT, "SHA256_Final");
    if (ERR_peek_error() != 0) {
        fputs("openssl-faults: the OpenSSL error queue was not empty when a SHA-256 computation ended\n", stderr);
        _exit(97);
    }
    if (take_failure(&final_failures_left, "JOSE_FAULT_SHA256_FINAL")) {
        atomic_fetch_add(&final_failures_injected, 1);
        ERR_raise(ERR_LIB_EVP, ERR_R_INTERNAL_ERROR);
        return 0;
    }
    return real(digest, context);
}
