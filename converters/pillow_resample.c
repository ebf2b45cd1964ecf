/* Pillow's resize of 8-bit images with the LANCZOS (ANTIALIAS) filter, to the same bytes. */
#include "pillow_resample.h"

#include "common/base/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Pillow's Resample.c: 8 bits of result, 2 for the overshoot of filters with negative lobes. */
#define PRECISION_BITS (32 - 8 - 2)
#define LANCZOS_SUPPORT 3.0
/* Pillow checks outSize * ksize * sizeof(double) against INT_MAX; sizes are kept far below. */
#define MAXIMUM_SIZE (1u << 24)

static double sinc(double x)
{
    if (x == 0.0)
        return 1.0;
    x = x * M_PI;
    return sin(x) / x;
}

static double lanczos(double x)
{
    if (-3.0 <= x && x < 3.0)
        return sinc(x) * sinc(x / 3);
    return 0.0;
}

/* Pillow's normalize_coeffs_8bpc: round half away from zero into fixed point. */
static int32_t fixed_point(double weight)
{
    if (weight < 0)
        return (int32_t)(-0.5 + weight * (1 << PRECISION_BITS));
    return (int32_t)(0.5 + weight * (1 << PRECISION_BITS));
}

/* The weights of output position OUTPUT (Pillow's precompute_coeffs, whose box is the whole
   input: in0 = 0, in1 = the input size, as floats), in double, then in fixed point. */
static void position_weights(struct pillow_axis *axis, uint32_t output, double scale,
                             double filter_scale, double support, double *weights)
{
    float box_start = 0.0f;
    double center = box_start + (output + 0.5) * scale;
    double total = 0.0, inverse_scale = 1.0 / filter_scale;
    int first = (int)(center - support + 0.5);
    if (first < 0)
        first = 0;
    int last = (int)(center + support + 0.5);
    if (last > (int)axis->input_size)
        last = (int)axis->input_size;
    int count = last - first;
    for (int x = 0; x < count; x++) {
        /* x + first is an int sum in Pillow, converted to double only then */
        double weight = lanczos((x + first - center + 0.5) * inverse_scale);
        weights[x] = weight;
        total += weight;
    }
    for (int x = 0; x < count; x++)
        if (total != 0.0)
            weights[x] /= total;
    int32_t *fixed = axis->weights + (size_t)output * axis->taps;
    for (uint32_t x = 0; x < axis->taps; x++)
        fixed[x] = (int)x < count ? fixed_point(weights[x]) : 0;
    axis->first[output] = first;
    axis->count[output] = count;
}

static int plan_axis(struct pillow_axis *axis, uint32_t input_size, uint32_t output_size)
{
    float box_start = 0.0f, box_end = (float)input_size;
    double scale = (double)(box_end - box_start) / output_size;
    double filter_scale = scale < 1.0 ? 1.0 : scale;
    double support = LANCZOS_SUPPORT * filter_scale;
    *axis = (struct pillow_axis){.input_size = input_size, .output_size = output_size,
                                 .taps = (uint32_t)ceil(support) * 2 + 1};
    axis->first = malloc(sizeof *axis->first * output_size);
    axis->count = malloc(sizeof *axis->count * output_size);
    axis->weights = malloc(sizeof *axis->weights * output_size * axis->taps);
    double *weights = malloc(sizeof *weights * axis->taps);
    if (axis->first == NULL || axis->count == NULL || axis->weights == NULL || weights == NULL) {
        free(weights);
        return error_set(EXIT_OTHER, "cannot resize: %u to %u pixels: out of memory", input_size,
                         output_size);
    }
    for (uint32_t output = 0; output < output_size; output++)
        position_weights(axis, output, scale, filter_scale, support, weights);
    free(weights);
    return EXIT_OK;
}

int pillow_resample_prepare(struct pillow_resample *plan, uint32_t input_width,
                            uint32_t input_height, uint32_t output_width, uint32_t output_height,
                            uint32_t channels)
{
    *plan = (struct pillow_resample){.channels = channels};
    if (input_width == 0 || input_height == 0 || output_width == 0 || output_height == 0 ||
        input_width > MAXIMUM_SIZE || input_height > MAXIMUM_SIZE ||
        output_width > MAXIMUM_SIZE || output_height > MAXIMUM_SIZE || channels == 0 ||
        channels > 4)
        return error_set(EXIT_OTHER,
                         "cannot resize: %ux%u to %ux%u pixels of %u channels: sizes must be 1 to "
                         "%u, channels 1 to 4",
                         input_width, input_height, output_width, output_height, channels,
                         MAXIMUM_SIZE);
    if (plan_axis(&plan->horizontal, input_width, output_width) != EXIT_OK ||
        plan_axis(&plan->vertical, input_height, output_height) != EXIT_OK) {
        pillow_resample_free(plan);
        return EXIT_OTHER;
    }
    plan->resize_horizontally = output_width != input_width;
    plan->resize_vertically = output_height != input_height;
    /* Pillow resizes horizontally only the input rows the vertical pass reads. */
    uint32_t last = output_height - 1;
    plan->first_row = (uint32_t)plan->vertical.first[0];
    plan->rows = (uint32_t)(plan->vertical.first[last] + plan->vertical.count[last]) -
                 plan->first_row;
    return EXIT_OK;
}

/* Bytes past each column of the transposed input rows (transpose_gathered stores 8 more). */
enum { COLUMN_PADDING = 8 };

/* The scratch holds the horizontally resized rows; with AVX2, the horizontal pass also uses it
   for the input rows transposed (input width x rows) and its own output transposed. */
size_t pillow_resample_scratch_size(const struct pillow_resample *plan)
{
    if (!plan->resize_horizontally || !plan->resize_vertically)
        return 0;
    size_t rows = (size_t)plan->rows * plan->channels;
    return rows * (2 * (size_t)plan->horizontal.output_size + plan->horizontal.input_size) +
           (size_t)plan->horizontal.input_size * COLUMN_PADDING;
}

/* Pillow's clip8: the sum's integer part, clamped to 0..255. */
static uint8_t clip8(int32_t sum)
{
    if (sum < 0)
        return 0;
    sum >>= PRECISION_BITS;
    return sum > 255 ? 255 : (uint8_t)sum;
}

/* One output pixel of the horizontal pass: CHANNELS sums over the taps at once (integer sums:
   their order does not change them, and Pillow's bounds keep them within 32 bits). */
static void resample_pixel(const uint8_t *start, const int32_t *weights, int32_t count,
                           size_t channels, uint8_t *target)
{
    int32_t sums[4] = {1 << (PRECISION_BITS - 1), 1 << (PRECISION_BITS - 1),
                       1 << (PRECISION_BITS - 1), 1 << (PRECISION_BITS - 1)};
    if (channels == 3) {
        for (int32_t x = 0; x < count; x++, start += 3) {
            sums[0] += start[0] * weights[x];
            sums[1] += start[1] * weights[x];
            sums[2] += start[2] * weights[x];
        }
    } else {
        for (int32_t x = 0; x < count; x++, start += channels)
            for (size_t channel = 0; channel < channels; channel++)
                sums[channel] += start[channel] * weights[x];
    }
    for (size_t channel = 0; channel < channels; channel++)
        target[channel] = clip8(sums[channel]);
}

/* Pillow's ImagingResampleHorizontal_8bpc over ROWS rows of INPUT from FIRST_ROW on. */
static void resample_rows(const struct pillow_resample *plan, const uint8_t *input,
                          uint32_t first_row, uint32_t rows, uint8_t *output)
{
    const struct pillow_axis *axis = &plan->horizontal;
    size_t channels = plan->channels;
    size_t input_stride = (size_t)axis->input_size * channels;
    size_t output_stride = (size_t)axis->output_size * channels;
    for (uint32_t row = 0; row < rows; row++) {
        const uint8_t *source = input + (size_t)(first_row + row) * input_stride;
        uint8_t *target = output + (size_t)row * output_stride;
        for (uint32_t column = 0; column < axis->output_size; column++)
            resample_pixel(source + (size_t)axis->first[column] * channels,
                           axis->weights + (size_t)column * axis->taps, axis->count[column],
                           channels, target + column * channels);
    }
}

/* Bytes of a row the vertical pass sums at once, in 32-bit sums on the stack. */
enum { VERTICAL_CHUNK = 512 };

static bool avx2_allowed = true;

void pillow_resample_use_avx2(bool use)
{
    avx2_allowed = use;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define RESAMPLE_AVX2

static bool avx2(void)
{
    return avx2_allowed && __builtin_cpu_supports("avx2");
}

/* TARGET[INDEX..LENGTH) rounded down to 8 from INDEX, with 32-bit products as the scalar loop
   makes them (any count of taps). Returns where it stopped. */
__attribute__((target("avx2"))) static size_t span_products(const uint8_t *start, size_t stride,
                                                            const int32_t *weights, int32_t count,
                                                            size_t index, size_t length,
                                                            uint8_t *target)
{
    const __m256i half = _mm256_set1_epi32(1 << (PRECISION_BITS - 1));
    for (; index + 8 <= length; index += 8) {
        __m256i sums = half;
        for (int32_t y = 0; y < count; y++) {
            __m128i bytes = _mm_loadl_epi64((const __m128i *)(start + (size_t)y * stride + index));
            __m256i products = _mm256_mullo_epi32(_mm256_cvtepu8_epi32(bytes),
                                                  _mm256_set1_epi32(weights[y]));
            sums = _mm256_add_epi32(sums, products);
        }
        __m256i clipped = _mm256_max_epi32(_mm256_srai_epi32(sums, PRECISION_BITS),
                                           _mm256_setzero_si256());
        __m128i words = _mm_packus_epi32(_mm256_castsi256_si128(clipped),
                                         _mm256_extracti128_si256(clipped, 1));
        _mm_storel_epi64((__m128i *)(target + index), _mm_packus_epi16(words, words));
    }
    return index;
}

/* The taps whose weights span_pairs splits on the stack. */
enum { PAIRED_TAPS_MOST = 128 };

/* Each weight split as HIGH * 2^15 + LOW, LOW in [0, 2^15): both fit 16 bits, so the sums of a
   byte times LOW and times HIGH are exact 16-bit multiply-adds, and HIGH's sum * 2^15 plus
   LOW's is the 32-bit sum Pillow makes (which never overflows). Two taps go in each 32-bit
   lane, the second of an odd count with weight 0. */
static void split_weights(const int32_t *weights, int32_t count, int32_t *low, int32_t *high)
{
    for (int32_t pair = 0; pair < (count + 1) / 2; pair++) {
        int32_t first = weights[2 * pair];
        int32_t second = 2 * pair + 1 < count ? weights[2 * pair + 1] : 0;
        low[pair] = (int32_t)((uint32_t)(first & 0x7fff) | (uint32_t)(second & 0x7fff) << 16);
        high[pair] = (int32_t)((uint32_t)(uint16_t)(first >> 15) |
                               (uint32_t)(uint16_t)(second >> 15) << 16);
    }
}

/* Pillow's clip8 of 8 sums split as above, in the order of their bytes. */
__attribute__((target("avx2"))) static __m128i clip_split(__m256i low, __m256i high)
{
    __m256i sums = _mm256_add_epi32(_mm256_add_epi32(_mm256_slli_epi32(high, 15), low),
                                    _mm256_set1_epi32(1 << (PRECISION_BITS - 1)));
    __m256i clipped = _mm256_max_epi32(_mm256_srai_epi32(sums, PRECISION_BITS),
                                       _mm256_setzero_si256());
    return _mm_packus_epi32(_mm256_castsi256_si128(clipped), _mm256_extracti128_si256(clipped, 1));
}

/* TARGET[0..LENGTH) rounded down to 16, with the taps taken two at a time (each byte of one
   row beside the same byte of the next) in 16-bit multiply-adds. Returns the bytes done. */
__attribute__((target("avx2"))) static size_t span_pairs(const uint8_t *start, size_t stride,
                                                         const int32_t *weights, int32_t count,
                                                         size_t length, uint8_t *target)
{
    int32_t low[PAIRED_TAPS_MOST / 2], high[PAIRED_TAPS_MOST / 2];
    split_weights(weights, count, low, high);
    size_t index = 0;
    for (; index + 16 <= length; index += 16) {
        __m256i low_head = _mm256_setzero_si256(), high_head = low_head;
        __m256i low_tail = low_head, high_tail = low_head;
        for (int32_t pair = 0; pair < (count + 1) / 2; pair++) {
            const uint8_t *row = start + (size_t)(2 * pair) * stride + index;
            __m128i one = _mm_loadu_si128((const __m128i *)row);
            __m128i two = 2 * pair + 1 < count ? _mm_loadu_si128((const __m128i *)(row + stride))
                                               : one;
            __m256i head = _mm256_cvtepu8_epi16(_mm_unpacklo_epi8(one, two));
            __m256i tail = _mm256_cvtepu8_epi16(_mm_unpackhi_epi8(one, two));
            __m256i lows = _mm256_set1_epi32(low[pair]), highs = _mm256_set1_epi32(high[pair]);
            low_head = _mm256_add_epi32(low_head, _mm256_madd_epi16(head, lows));
            high_head = _mm256_add_epi32(high_head, _mm256_madd_epi16(head, highs));
            low_tail = _mm256_add_epi32(low_tail, _mm256_madd_epi16(tail, lows));
            high_tail = _mm256_add_epi32(high_tail, _mm256_madd_epi16(tail, highs));
        }
        _mm_storeu_si128((__m128i *)(target + index),
                         _mm_packus_epi16(clip_split(low_head, high_head),
                                          clip_split(low_tail, high_tail)));
    }
    return index;
}

/* TARGET[0..LENGTH) rounded down to 8: each byte Pillow's clip8 of the sum of the COUNT rows
   from START (STRIDE apart) weighted by WEIGHTS (the same integer sums as the scalar loop).
   Returns the bytes done. */
__attribute__((target("avx2"))) static size_t vertical_span_avx2(const uint8_t *start,
                                                                 size_t stride,
                                                                 const int32_t *weights,
                                                                 int32_t count, size_t length,
                                                                 uint8_t *target)
{
    size_t index = count <= PAIRED_TAPS_MOST
                       ? span_pairs(start, stride, weights, count, length, target)
                       : 0;
    return span_products(start, stride, weights, count, index, length, target);
}
#endif

/* Pillow's ImagingResampleVertical_8bpc for output rows [FIRST_OUTPUT, FIRST_OUTPUT + COUNT);
   INPUT's row 0 is the input row FIRST_ROW. Each tap's row is added to a chunk of sums, so the
   innermost loop runs along a row. */
static void resample_columns(const struct pillow_resample *plan, const uint8_t *input,
                             uint32_t width, uint32_t first_row, uint32_t first_output,
                             uint32_t count, uint8_t *output)
{
    const struct pillow_axis *axis = &plan->vertical;
    size_t stride = (size_t)width * plan->channels;
    int32_t sums[VERTICAL_CHUNK];
    for (uint32_t row = first_output; row < first_output + count; row++) {
        const int32_t *weights = axis->weights + (size_t)row * axis->taps;
        const uint8_t *start = input + (size_t)(axis->first[row] - (int32_t)first_row) * stride;
        uint8_t *target = output + (size_t)(row - first_output) * stride;
        size_t done = 0;
#ifdef RESAMPLE_AVX2
        if (avx2())
            done = vertical_span_avx2(start, stride, weights, axis->count[row], stride, target);
#endif
        for (size_t chunk = done; chunk < stride; chunk += VERTICAL_CHUNK) {
            size_t length = stride - chunk < VERTICAL_CHUNK ? stride - chunk : VERTICAL_CHUNK;
            for (size_t index = 0; index < length; index++)
                sums[index] = 1 << (PRECISION_BITS - 1);
            for (int32_t y = 0; y < axis->count[row]; y++) {
                const uint8_t *line = start + (size_t)y * stride + chunk;
                int32_t weight = weights[y];
                for (size_t index = 0; index < length; index++)
                    sums[index] += line[index] * weight;
            }
            for (size_t index = 0; index < length; index++)
                target[chunk + index] = clip8(sums[index]);
        }
    }
}

#ifdef RESAMPLE_AVX2
/* COUNT pixels of CHANNELS bytes from SOURCE (SOURCE_STEP bytes apart) to TARGET (TARGET_STEP
   apart): a row into a column of the transposed image, or back. When WIDE, a 3-byte pixel moves
   as 4 bytes, the 4th landing where the next pixel along the target is written later; the last
   pixel, whose 4th byte would land or be read past the rows, moves as 3. */
static void copy_pixels(const uint8_t *source, size_t source_step, uint8_t *target,
                        size_t target_step, uint32_t count, size_t channels, bool wide)
{
    if (channels == 3) {
        uint32_t pixel = 0;
        for (; wide && pixel + 1 < count; pixel++, source += source_step, target += target_step)
            memcpy(target, source, 4);
        for (; pixel < count; pixel++, source += source_step, target += target_step) {
            target[0] = source[0];
            target[1] = source[1];
            target[2] = source[2];
        }
        return;
    }
    for (uint32_t pixel = 0; pixel < count; pixel++, source += source_step, target += target_step)
        for (size_t channel = 0; channel < channels; channel++)
            target[channel] = source[channel];
}

/* ROWS input rows of 3-byte pixels (INPUT_STRIDE apart, COLUMNS pixels each) transposed into
   columns COLUMN_STRIDE apart: a pixel of 8 rows gathered at once (4 bytes each), packed into
   24 bytes and stored as 32, the 8 past them landing on rows written later or on the column's
   padding. The last pixel of each row (its 4th byte may lie past the input) and the rows past
   a multiple of 8 move one by one, after. */
__attribute__((target("avx2"))) static void transpose_gathered(const uint8_t *input,
                                                               size_t input_stride, uint32_t rows,
                                                               uint32_t columns,
                                                               uint8_t *transposed,
                                                               size_t column_stride)
{
    const __m256i offsets = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                                               _mm256_set1_epi32((int)input_stride));
    const __m256i pack = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                          0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    const __m256i join = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
    uint32_t gathered = rows / 8 * 8;
    for (uint32_t block = 0; block < gathered; block += 8) {
        const uint8_t *source = input + block * input_stride;
        uint8_t *target = transposed + block * 3;
        for (uint32_t column = 0; column + 1 < columns; column++) {
            __m256i pixels = _mm256_i32gather_epi32((const int *)(source + column * 3), offsets, 1);
            pixels = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(pixels, pack), join);
            _mm256_storeu_si256((__m256i *)(target + column * column_stride), pixels);
        }
    }
    for (uint32_t row = 0; row < rows; row++)
        for (uint32_t column = row < gathered ? columns - 1 : 0; column < columns; column++)
            memcpy(transposed + column * column_stride + row * 3,
                   input + row * input_stride + column * 3, 3);
}

/* resample_rows through the vertical kernel: the ROWS input rows from FIRST_ROW transposed into
   TRANSPOSED (each input column a row of ROWS pixels, COLUMN_PADDING bytes apart), each output
   column summed over its input columns as the vertical pass sums rows (the same sums, pixel by
   pixel), then transposed back into OUTPUT. */
static void resample_rows_transposed(const struct pillow_resample *plan, const uint8_t *input,
                                     uint32_t first_row, uint32_t rows, uint8_t *output,
                                     uint8_t *transposed)
{
    const struct pillow_axis *axis = &plan->horizontal;
    size_t channels = plan->channels, column_bytes = (size_t)rows * channels;
    size_t column_stride = column_bytes + COLUMN_PADDING;
    size_t input_stride = (size_t)axis->input_size * channels;
    size_t output_stride = (size_t)axis->output_size * channels;
    uint8_t *columns = transposed + (size_t)axis->input_size * column_stride;
    if (channels == 3)
        transpose_gathered(input + (size_t)first_row * input_stride, input_stride, rows,
                           axis->input_size, transposed, column_stride);
    else
        for (uint32_t row = 0; row < rows; row++)
            copy_pixels(input + (size_t)(first_row + row) * input_stride, channels,
                        transposed + row * channels, column_stride, axis->input_size, channels,
                        false);
    for (uint32_t column = 0; column < axis->output_size; column++) {
        const int32_t *weights = axis->weights + (size_t)column * axis->taps;
        uint8_t *target = columns + column * column_bytes;
        const uint8_t *start = transposed + (size_t)axis->first[column] * column_stride;
        size_t done = vertical_span_avx2(start, column_stride, weights, axis->count[column],
                                         column_bytes, target);
        for (; done < column_bytes; done++) {
            int32_t sum = 1 << (PRECISION_BITS - 1);
            for (int32_t x = 0; x < axis->count[column]; x++)
                sum += start[(size_t)x * column_stride + done] * weights[x];
            target[done] = clip8(sum);
        }
    }
    for (uint32_t row = 0; row < rows; row++)
        copy_pixels(columns + row * channels, column_bytes, output + row * output_stride, channels,
                    axis->output_size, channels, true);
}
#endif

void pillow_resample_run(const struct pillow_resample *plan, const uint8_t *input,
                         uint8_t *scratch, uint8_t *output)
{
    pillow_resample_run_rows(plan, input, scratch, 0, plan->vertical.output_size, output);
}

void pillow_resample_run_rows(const struct pillow_resample *plan, const uint8_t *input,
                              uint8_t *scratch, uint32_t first, uint32_t count, uint8_t *output)
{
    uint32_t input_width = plan->horizontal.input_size, output_width = plan->horizontal.output_size;
    if (plan->resize_horizontally && plan->resize_vertically) {
        /* Only the input rows these output rows read, at their place in the scratch rows. */
        const struct pillow_axis *axis = &plan->vertical;
        uint32_t top = (uint32_t)axis->first[first];
        uint32_t bottom = (uint32_t)(axis->first[first + count - 1] + axis->count[first + count - 1]);
        size_t scratch_stride = (size_t)output_width * plan->channels;
        uint8_t *rows = scratch + (size_t)(top - plan->first_row) * scratch_stride;
#ifdef RESAMPLE_AVX2
        if (avx2())
            resample_rows_transposed(plan, input, top, bottom - top, rows,
                                     scratch + (size_t)plan->rows * scratch_stride);
        else
#endif
            resample_rows(plan, input, top, bottom - top, rows);
        resample_columns(plan, scratch, output_width, plan->first_row, first, count, output);
    } else if (plan->resize_horizontally) {
        resample_rows(plan, input, first, count, output);
    } else if (plan->resize_vertically) {
        resample_columns(plan, input, input_width, 0, first, count, output);
    } else {
        size_t stride = (size_t)input_width * plan->channels;
        memcpy(output, input + first * stride, count * stride);
    }
}

void pillow_resample_free(struct pillow_resample *plan)
{
    struct pillow_axis *axes[] = {&plan->horizontal, &plan->vertical};
    for (size_t index = 0; index < 2; index++) {
        free(axes[index]->first);
        free(axes[index]->count);
        free(axes[index]->weights);
    }
    *plan = (struct pillow_resample){0};
}
