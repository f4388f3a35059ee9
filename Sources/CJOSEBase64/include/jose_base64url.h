#ifndef SWIFT_JOSE_BASE64URL_H
#define SWIFT_JOSE_BASE64URL_H

/*
 * The bulk of strict base64url decoding (RFC 4648 section 5), thirty-two characters at a time
 * with AVX2 vector instructions, then sixteen at a time with SSSE3, for JOSE's `Base64URL`,
 * which decodes the rest and reports errors.
 *
 * No system header is included and only C's own types appear, so that the module imports the
 * same way for every target the package is type-checked for.
 */

/**
 * Decodes whole blocks of base64url characters from the start of `input` (`count` characters)
 * into `output` (room for `capacity` bytes), three bytes per four characters: blocks of
 * thirty-two where the processor has AVX2, then of sixteen. It stops before the first block
 * that holds a byte outside the alphabet (A-Z, a-z, 0-9, '-', '_'), before fewer than sixteen
 * characters are left, and before a block's store would pass the end of the room (a block of
 * thirty-two stores thirty-two bytes and one of sixteen sixteen, of which the next block
 * overwrites all but the twenty-four or twelve decoded).
 *
 * Returns the number of characters decoded, a multiple of sixteen (their bytes are the first
 * three quarters as many of `output`); 0 where the processor lacks SSSE3 or is not x86.
 */
long jose_base64url_decode_blocks(const unsigned char *input, long count, unsigned char *output, long capacity);

#endif
