#include "jose_base64url.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>

/* What the processor has: 0 until asked, then 1 (neither), 2 (SSSE3) or 3 (SSSE3 and AVX2, with
 * the operating system saving the AVX registers). Written once per process with the same answer
 * by whichever threads ask first. */
static int jose_vector_state;

static int jose_vector_level(void) {
    int state = __atomic_load_n(&jose_vector_state, __ATOMIC_RELAXED);
    if (state == 0) {
        unsigned int eax, ebx, ecx, edx;
        state = 1;
        if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_SSSE3)) {
            state = 2;
            /* AVX2 needs the processor's flag and the OS's saving of the YMM state (XCR0 bits 1
             * and 2, read with xgetbv, which OSXSAVE says is available). */
            if ((ecx & bit_OSXSAVE) && (ecx & bit_AVX) && __get_cpuid_max(0, 0) >= 7) {
                unsigned int xcr0_low, xcr0_high;
                __asm__ volatile("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
                __cpuid_count(7, 0, eax, ebx, ecx, edx);
                if ((xcr0_low & 6) == 6 && (ebx & bit_AVX2)) state = 3;
            }
        }
        __atomic_store_n(&jose_vector_state, state, __ATOMIC_RELAXED);
    }
    return state;
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

/* The same method as jose_decode_blocks_ssse3, thirty-two characters at a time: the tables are
 * repeated in both 128-bit lanes (a shuffle stays within its lane), each lane packs its twelve
 * bytes as there, and a permutation of 32-bit words puts the two lanes' bytes side by side. */
__attribute__((target("avx2")))
static long jose_decode_blocks_avx2(const unsigned char *input, long count, unsigned char *output, long capacity) {
    const __m256i low_nibble_out = _mm256_setr_epi8(
        0x0B, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x07, 0x37, 0x37, 0x35, 0x37, 0x27,
        0x0B, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x07, 0x37, 0x37, 0x35, 0x37, 0x27);
    const __m256i high_classes = _mm256_setr_epi8(
        0x01, 0x01, 0x02, 0x04, 0x08, 0x10, 0x08, 0x20, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
        0x01, 0x01, 0x02, 0x04, 0x08, 0x10, 0x08, 0x20, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01);
    const __m256i high_offsets = _mm256_setr_epi8(
        0, 0, 17, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 17, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    const __m256i underscore = _mm256_set1_epi8('_');
    const __m256i underscore_offset = _mm256_set1_epi8(63 - '_');
    const __m256i pair_weights = _mm256_set1_epi32(0x01400140);
    const __m256i group_weights = _mm256_set1_epi32(0x00011000);
    const __m256i group_bytes = _mm256_setr_epi8(
        2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
        2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    const __m256i lanes_together = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
    long read = 0, written = 0;
    while (count - read >= 32 && capacity - written >= 32) {
        __m256i characters = _mm256_loadu_si256((const __m256i *)(input + read));
        __m256i high = _mm256_and_si256(_mm256_srli_epi32(characters, 4), nibble);
        __m256i low = _mm256_and_si256(characters, nibble);
        __m256i out = _mm256_and_si256(_mm256_shuffle_epi8(low_nibble_out, low), _mm256_shuffle_epi8(high_classes, high));
        if ((unsigned int)_mm256_movemask_epi8(_mm256_cmpeq_epi8(out, _mm256_setzero_si256())) != 0xFFFFFFFFu) break;
        __m256i is_underscore = _mm256_cmpeq_epi8(characters, underscore);
        __m256i offsets = _mm256_or_si256(_mm256_andnot_si256(is_underscore, _mm256_shuffle_epi8(high_offsets, high)),
                                          _mm256_and_si256(is_underscore, underscore_offset));
        __m256i values = _mm256_add_epi8(characters, offsets);
        __m256i groups = _mm256_madd_epi16(_mm256_maddubs_epi16(values, pair_weights), group_weights);
        __m256i packed = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(groups, group_bytes), lanes_together);
        _mm256_storeu_si256((__m256i *)(output + written), packed);
        read += 32;
        written += 24;
    }
    return read;
}

long jose_base64url_decode_blocks(const unsigned char *input, long count, unsigned char *output, long capacity) {
    if (count < 16 || capacity < 16) return 0;
    int level = jose_vector_level();
    if (level < 2) return 0;
    long read = level == 3 ? jose_decode_blocks_avx2(input, count, output, capacity) : 0;
    /* Sixteen at a time after the last whole 32 (or from the start without AVX2); a block the
     * AVX2 loop stopped at for a byte outside the alphabet stops this one too. */
    return read + jose_decode_blocks_ssse3(input + read, count - read, output + read / 4 * 3, capacity - read / 4 * 3);
}

#else

long jose_base64url_decode_blocks(const unsigned char *input, long count, unsigned char *output, long capacity) {
    (void)input; (void)count; (void)output; (void)capacity;
    return 0;
}

#endif
