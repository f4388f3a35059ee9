// libFuzzer's entry for programs with their own `main` (compiler-rt FuzzerInterface.h):
// declared here so Swift calls it with the C calling convention. The definition comes from the
// libFuzzer runtime that `-sanitize=fuzzer` links.
#ifndef JOSE_LIBFUZZER_DRIVER_H
#define JOSE_LIBFUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Parses libFuzzer's flags from `argc`/`argv` and runs `callback` on each input.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
