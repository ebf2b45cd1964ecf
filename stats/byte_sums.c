/* Exact sums of bytes and of their squares, vectorised by hand (byte_sums.h). Each vector step
   sums its bytes into 64-bit lanes at once (psadbw against zero), and their squares in pairs of
   16-bit lanes into 32-bit ones (pmaddwd of the bytes widened with themselves, low and high halves
   apart): a 32-bit lane grows by at most 2 * 255^2 = 130,050 a step, so runs of SQUARE_RUN steps
   (< 2^32 / 130,050 = 33,025) are emptied into 64-bit lanes before any can wrap. */
#include "byte_sums.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BYTE_SUMS_VECTORS 1
#include <immintrin.h>
#endif

enum { SQUARE_RUN = 32768 };

void byte_sums_begin(struct byte_sums *sums)
{
    *sums = (struct byte_sums){.minimum = 255, .maximum = 0};
}

static void add_plain(struct byte_sums *sums, const uint8_t *bytes, size_t count)
{
    uint64_t sum = 0, square_sum = 0;
    uint8_t minimum = sums->minimum, maximum = sums->maximum;
    for (size_t index = 0; index < count; index++) {
        uint32_t value = bytes[index];
        sum += value;
        square_sum += value * value;
        minimum = bytes[index] < minimum ? bytes[index] : minimum;
        maximum = bytes[index] > maximum ? bytes[index] : maximum;
    }
    sums->sum += sum;
    sums->square_sum += square_sum;
    sums->minimum = minimum;
    sums->maximum = maximum;
}

#ifdef BYTE_SUMS_VECTORS
/* The lanes' totals into SUMS: LANES bytes of MINIMUM and MAXIMUM, LANES / 8 64-bit lanes of SUM
   and SQUARE_SUM, as stored from the registers. */
static void lanes_fold(struct byte_sums *sums, const uint8_t *minimum, const uint8_t *maximum,
                       const uint64_t *sum, const uint64_t *square_sum, size_t lanes)
{
    for (size_t lane = 0; lane < lanes; lane++) {
        sums->minimum = minimum[lane] < sums->minimum ? minimum[lane] : sums->minimum;
        sums->maximum = maximum[lane] > sums->maximum ? maximum[lane] : sums->maximum;
    }
    for (size_t lane = 0; lane < lanes / 8; lane++) {
        sums->sum += sum[lane];
        sums->square_sum += square_sum[lane];
    }
}

/* The whole 32-byte steps of COUNT bytes at BYTES; returns how many bytes they took. */
__attribute__((target("avx2"))) static size_t add_avx2(struct byte_sums *sums,
                                                       const uint8_t *bytes, size_t count)
{
    const __m256i zero = _mm256_setzero_si256();
    __m256i minimum = _mm256_set1_epi8((char)-1), maximum = zero, sum = zero, square_sum = zero;
    size_t steps = count / 32, step = 0;
    while (step < steps) {
        size_t stop = steps - step < SQUARE_RUN ? steps : step + SQUARE_RUN;
        __m256i low_squares = zero, high_squares = zero;
        for (; step < stop; step++) {
            const void *at = bytes + step * 32;
            __m256i value = _mm256_loadu_si256((const __m256i *)at);
            minimum = _mm256_min_epu8(minimum, value);
            maximum = _mm256_max_epu8(maximum, value);
            sum = _mm256_add_epi64(sum, _mm256_sad_epu8(value, zero));
            __m256i low = _mm256_unpacklo_epi8(value, zero);
            __m256i high = _mm256_unpackhi_epi8(value, zero);
            low_squares = _mm256_add_epi32(low_squares, _mm256_madd_epi16(low, low));
            high_squares = _mm256_add_epi32(high_squares, _mm256_madd_epi16(high, high));
        }
        square_sum = _mm256_add_epi64(square_sum, _mm256_unpacklo_epi32(low_squares, zero));
        square_sum = _mm256_add_epi64(square_sum, _mm256_unpackhi_epi32(low_squares, zero));
        square_sum = _mm256_add_epi64(square_sum, _mm256_unpacklo_epi32(high_squares, zero));
        square_sum = _mm256_add_epi64(square_sum, _mm256_unpackhi_epi32(high_squares, zero));
    }
    uint8_t minimums[32], maximums[32];
    uint64_t sums_out[4], squares_out[4];
    _mm256_storeu_si256((__m256i *)(void *)minimums, minimum);
    _mm256_storeu_si256((__m256i *)(void *)maximums, maximum);
    _mm256_storeu_si256((__m256i *)(void *)sums_out, sum);
    _mm256_storeu_si256((__m256i *)(void *)squares_out, square_sum);
    if (steps > 0)
        lanes_fold(sums, minimums, maximums, sums_out, squares_out, 32);
    return steps * 32;
}

/* As add_avx2 in 16-byte steps of SSE2, which every x86-64 processor has. */
static size_t add_sse2(struct byte_sums *sums, const uint8_t *bytes, size_t count)
{
    const __m128i zero = _mm_setzero_si128();
    __m128i minimum = _mm_set1_epi8((char)-1), maximum = zero, sum = zero, square_sum = zero;
    size_t steps = count / 16, step = 0;
    while (step < steps) {
        size_t stop = steps - step < SQUARE_RUN ? steps : step + SQUARE_RUN;
        __m128i low_squares = zero, high_squares = zero;
        for (; step < stop; step++) {
            const void *at = bytes + step * 16;
            __m128i value = _mm_loadu_si128((const __m128i *)at);
            minimum = _mm_min_epu8(minimum, value);
            maximum = _mm_max_epu8(maximum, value);
            sum = _mm_add_epi64(sum, _mm_sad_epu8(value, zero));
            __m128i low = _mm_unpacklo_epi8(value, zero), high = _mm_unpackhi_epi8(value, zero);
            low_squares = _mm_add_epi32(low_squares, _mm_madd_epi16(low, low));
            high_squares = _mm_add_epi32(high_squares, _mm_madd_epi16(high, high));
        }
        square_sum = _mm_add_epi64(square_sum, _mm_unpacklo_epi32(low_squares, zero));
        square_sum = _mm_add_epi64(square_sum, _mm_unpackhi_epi32(low_squares, zero));
        square_sum = _mm_add_epi64(square_sum, _mm_unpacklo_epi32(high_squares, zero));
        square_sum = _mm_add_epi64(square_sum, _mm_unpackhi_epi32(high_squares, zero));
    }
    uint8_t minimums[16], maximums[16];
    uint64_t sums_out[2], squares_out[2];
    _mm_storeu_si128((__m128i *)(void *)minimums, minimum);
    _mm_storeu_si128((__m128i *)(void *)maximums, maximum);
    _mm_storeu_si128((__m128i *)(void *)sums_out, sum);
    _mm_storeu_si128((__m128i *)(void *)squares_out, square_sum);
    if (steps > 0)
        lanes_fold(sums, minimums, maximums, sums_out, squares_out, 16);
    return steps * 16;
}
#endif

bool byte_sums_path_available(enum byte_sums_path path)
{
#ifdef BYTE_SUMS_VECTORS
    return path != BYTE_SUMS_AVX2 || __builtin_cpu_supports("avx2");
#else
    return path == BYTE_SUMS_PLAIN;
#endif
}

void byte_sums_add_on(struct byte_sums *sums, const uint8_t *bytes, size_t count,
                      enum byte_sums_path path)
{
    size_t done = 0;
#ifdef BYTE_SUMS_VECTORS
    done = path == BYTE_SUMS_AVX2   ? add_avx2(sums, bytes, count)
           : path == BYTE_SUMS_SSE2 ? add_sse2(sums, bytes, count)
                                    : 0;
#endif
    add_plain(sums, bytes + done, count - done);
}

void byte_sums_add(struct byte_sums *sums, const uint8_t *bytes, size_t count)
{
    byte_sums_add_on(sums, bytes, count,
                     byte_sums_path_available(BYTE_SUMS_AVX2)   ? BYTE_SUMS_AVX2
                     : byte_sums_path_available(BYTE_SUMS_SSE2) ? BYTE_SUMS_SSE2
                                                                : BYTE_SUMS_PLAIN);
}
