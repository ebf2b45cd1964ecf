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

size_t pillow_resample_scratch_size(const struct pillow_resample *plan)
{
    if (!plan->resize_horizontally || !plan->resize_vertically)
        return 0;
    return (size_t)plan->rows * plan->horizontal.output_size * plan->channels;
}

/* Pillow's clip8: the sum's integer part, clamped to 0..255. */
static uint8_t clip8(int32_t sum)
{
    if (sum < 0)
        return 0;
    sum >>= PRECISION_BITS;
    return sum > 255 ? 255 : (uint8_t)sum;
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
        for (uint32_t column = 0; column < axis->output_size; column++) {
            const int32_t *weights = axis->weights + (size_t)column * axis->taps;
            const uint8_t *start = source + (size_t)axis->first[column] * channels;
            for (size_t channel = 0; channel < channels; channel++) {
                int32_t sum = 1 << (PRECISION_BITS - 1);
                for (int32_t x = 0; x < axis->count[column]; x++)
                    sum += start[(size_t)x * channels + channel] * weights[x];
                target[column * channels + channel] = clip8(sum);
            }
        }
    }
}

/* Pillow's ImagingResampleVertical_8bpc; INPUT's row 0 is the input row FIRST_ROW. */
static void resample_columns(const struct pillow_resample *plan, const uint8_t *input,
                             uint32_t width, uint32_t first_row, uint8_t *output)
{
    const struct pillow_axis *axis = &plan->vertical;
    size_t stride = (size_t)width * plan->channels;
    for (uint32_t row = 0; row < axis->output_size; row++) {
        const int32_t *weights = axis->weights + (size_t)row * axis->taps;
        const uint8_t *start = input + (size_t)(axis->first[row] - (int32_t)first_row) * stride;
        uint8_t *target = output + (size_t)row * stride;
        for (size_t index = 0; index < stride; index++) {
            int32_t sum = 1 << (PRECISION_BITS - 1);
            for (int32_t y = 0; y < axis->count[row]; y++)
                sum += start[(size_t)y * stride + index] * weights[y];
            target[index] = clip8(sum);
        }
    }
}

void pillow_resample_run(const struct pillow_resample *plan, const uint8_t *input,
                         uint8_t *scratch, uint8_t *output)
{
    uint32_t input_width = plan->horizontal.input_size, input_height = plan->vertical.input_size;
    if (plan->resize_horizontally && plan->resize_vertically) {
        resample_rows(plan, input, plan->first_row, plan->rows, scratch);
        resample_columns(plan, scratch, plan->horizontal.output_size, plan->first_row, output);
    } else if (plan->resize_horizontally) {
        resample_rows(plan, input, 0, input_height, output);
    } else if (plan->resize_vertically) {
        resample_columns(plan, input, input_width, 0, output);
    } else {
        memcpy(output, input, (size_t)input_width * input_height * plan->channels);
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
