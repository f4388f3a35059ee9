#ifndef SWIFT_JOSE_BASE64URL_H
#define SWIFT_JOSE_BASE64URL_H

/*
 * The bulk of strict base64url decoding (RFC 4648 section 5), sixteen characters at a time with
 * SSSE3 vector instructions, for JOSE's `Base64URL`, which decodes the rest and reports errors.
 *
 * No system header is included and only C's own types appear, so that the module imports the
 * same way for every target the package is type-checked for.
 */

/**
 * Decodes whole blocks of sixteen base64url characters from the start of `input` (`count`
 * characters) into `output` (room for `capacity` bytes), twelve bytes per block, and stops
 * before the first block that holds a byte outside the alphabet (A-Z, a-z, 0-9, '-', '_'),
 * before fewer than sixteen characters are left, and before fewer than sixteen bytes of room are
 * left (each block stores sixteen bytes, of which the next block overwrites the last four).
 *
 * Returns the number of characters decoded, a multiple of sixteen (their bytes are the first
 * three quarters as many of `output`); 0 where the processor lacks SSSE3 or is not x86.
 */
long jose_base64url_decode_blocks(const unsigned char *input, long count, unsigned char *output, long capacity);

#endif
