#include "jose_base64url.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <tmmintrin.h>

/* Whether the processor has SSSE3: 0 until asked, then 1 (it has) or 2 (it has not). Written
 * once per process with the same answer by whichever threads ask first. */
static int jose_ssse3_state;

static int jose_has_ssse3(void) {
    int state = __atomic_load_n(&jose_ssse3_state, __ATOMIC_RELAXED);
    if (state == 0) {
        unsigned int eax, ebx, ecx, edx;
        state = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_SSSE3) ? 1 : 2;
        __atomic_store_n(&jose_ssse3_state, state, __ATOMIC_RELAXED);
    }
    return state == 1;
}

/*
 * Validation: a byte is in the alphabet exactly when the classes of its high nibble
 * (`high_classes`) share no bit with the classes for which its low nibble is out
 * (`low_nibble_out`). The classes: 0x01 high nibbles with no character of the alphabet
 * (0-1, 8-F: every low nibble is out), 0x02 '-' (high nibble 2: all but D), 0x04 digits (3:
 * A-F), 0x08 letters A-O and a-o (4 and 6: 0), 0x10 P-Z and '_' (5: B-E), 0x20 p-z (7: B-F).
 *
 * Translation: the character plus the offset of its high nibble (`high_offsets`: '-' + 17 = 62,
 * '0' + 4 = 52, 'A' - 65 = 0, 'a' - 71 = 26), but '_' (high nibble 5, like P-Z), which takes
 * 63 - '_'.
 *
 * Packing: each pair of 6-bit values v0 v1 becomes v0 * 64 + v1 (16 bits), each pair of those a
 * 24-bit group (32 bits, little-endian), whose three bytes are taken in big-endian order.
 */
__attribute__((target("ssse3")))
static long jose_decode_blocks_ssse3(const unsigned char *input, long count, unsigned char *output, long capacity) {
    const __m128i low_nibble_out = _mm_setr_epi8(0x0B, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03,
                                                 0x03, 0x03, 0x07, 0x37, 0x37, 0x35, 0x37, 0x27);
    const __m128i high_classes = _mm_setr_epi8(0x01, 0x01, 0x02, 0x04, 0x08, 0x10, 0x08, 0x20,
                                               0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01);
    const __m128i high_offsets = _mm_setr_epi8(0, 0, 17, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m128i nibble = _mm_set1_epi8(0x0F);
    const __m128i underscore = _mm_set1_epi8('_');
    const __m128i underscore_offset = _mm_set1_epi8(63 - '_');
    const __m128i pair_weights = _mm_set1_epi32(0x01400140);
    const __m128i group_weights = _mm_set1_epi32(0x00011000);
    const __m128i group_bytes = _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    long read = 0, written = 0;
    while (count - read >= 16 && capacity - written >= 16) {
        __m128i characters = _mm_loadu_si128((const __m128i *)(input + read));
        __m128i high = _mm_and_si128(_mm_srli_epi32(characters, 4), nibble);
        __m128i low = _mm_and_si128(characters, nibble);
        __m128i out = _mm_and_si128(_mm_shuffle_epi8(low_nibble_out, low), _mm_shuffle_epi8(high_classes, high));
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(out, _mm_setzero_si128())) != 0xFFFF) break;
        __m128i is_underscore = _mm_cmpeq_epi8(characters, underscore);
        __m128i offsets = _mm_or_si128(_mm_andnot_si128(is_underscore, _mm_shuffle_epi8(high_offsets, high)),
                                       _mm_and_si128(is_underscore, underscore_offset));
        __m128i values = _mm_add_epi8(characters, offsets);
        __m128i groups = _mm_madd_epi16(_mm_maddubs_epi16(values, pair_weights), group_weights);
        _mm_storeu_si128((__m128i *)(output + written), _mm_shuffle_epi8(groups, group_bytes));
        read += 16;
        written += 12;
    }
    return read;
}

long jose_base64url_decode_blocks(const unsigned char *input, long count, unsigned char *output, long capacity) {
    if (count < 16 || capacity < 16 || !jose_has_ssse3()) return 0;
    return jose_decode_blocks_ssse3(input, count, output, capacity);
}

#else

long jose_base64url_decode_blocks(const unsigned char *input, long count, unsigned char *output, long capacity) {
    (void)input; (void)count; (void)output; (void)capacity;
    return 0;
}

#endif
