/* Decodes JPEG images held in memory with libjpeg-turbo to the pixels PIL gives for them. */
#include "jpeg_read.h"

#include "common/base/error.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Rows asked of libjpeg at once (it returns at most one row group per call). */
/* A larger scratch buffer is freed once the pixels are split into channels rather than kept for
   the next image: a large image's pixels are not held twice while they are written. */
#define JPEG_KEPT_SCRATCH_BYTES (4u << 20)
#define STRIP_ROWS 16

enum purpose { READ_HEADER, DECODE, CHECK };

/* Everything a decoding owns, kept outside the frame that calls setjmp so that libjpeg's
   longjmp leaves it intact. */
struct decoding {
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr errors;
    struct jpeg_progress_mgr progress;
    jmp_buf failure;
    bool created;
    bool warnings_as_pil;
    bool rows_done; /* every row is out: PIL no longer fails when the data ends */
    uint64_t max_pixels;
    int code;
    char why[JMSG_LENGTH_MAX + 96];
};

static void fail(j_common_ptr common)
{
    struct decoding *decoding = common->client_data;
    (*common->err->format_message)(common, decoding->why);
    decoding->code = common->err->msg_code == JERR_OUT_OF_MEMORY ? EXIT_OTHER : EXIT_CORRUPT_INPUT;
    longjmp(decoding->failure, 1);
}

/* libjpeg reports a warning with level -1 and then carries on with made-up data (zeros for
   missing coefficients, a fake end marker for missing bytes); higher levels are traces. PIL's
   reader suspends instead of making up bytes, and raises when the file ends before the last
   row: that is the warning "Premature end of JPEG file" of libjpeg's memory source. */
static void warn_or_trace(j_common_ptr common, int level)
{
    struct decoding *decoding = common->client_data;
    if (level >= 0)
        return;
    if (decoding->warnings_as_pil &&
        (common->err->msg_code != JWRN_JPEG_EOF || decoding->rows_done))
        return;
    fail(common);
}

/* libjpeg calls this before absorbing each row of blocks of a scan, whichever pass reads it. */
static void count_scans(j_common_ptr common)
{
    struct decoding *decoding = common->client_data;
    int scans = ((j_decompress_ptr)common)->input_scan_number;
    if (scans <= JPEG_MAX_SCANS)
        return;
    snprintf(decoding->why, sizeof decoding->why, "has more than %d scans", JPEG_MAX_SCANS);
    decoding->code = EXIT_CORRUPT_INPUT;
    longjmp(decoding->failure, 1);
}

static bool refuse(struct decoding *decoding, int code, const char *why)
{
    snprintf(decoding->why, sizeof decoding->why, "%s", why);
    decoding->code = code;
    return false;
}

/* The whole-image coefficient buffers libjpeg allocates for a file of several scans: each
   component's blocks, rounded up to its sampling factors, 64 coefficients of a JCOEF each. */
static uint64_t coefficient_bytes(const struct jpeg_decompress_struct *info)
{
    uint64_t bytes = 0;
    for (int index = 0; index < info->num_components; index++) {
        const jpeg_component_info *component = &info->comp_info[index];
        uint64_t across = component->width_in_blocks, down = component->height_in_blocks;
        uint64_t horizontal = (uint64_t)component->h_samp_factor;
        uint64_t vertical = (uint64_t)component->v_samp_factor;
        across = (across + horizontal - 1) / horizontal * horizontal;
        down = (down + vertical - 1) / vertical * vertical;
        bytes += across * down * DCTSIZE2 * sizeof(JCOEF);
    }
    return bytes;
}

/* Reads the markers up to the first scan, then checks what PIL would refuse. Called under the
   setjmp of guarded(). */
static bool read_header(struct decoding *decoding, const void *data, size_t size,
                        struct jpeg_header *header)
{
    struct jpeg_decompress_struct *info = &decoding->info;
    jpeg_create_decompress(info);
    decoding->created = true;
    info->client_data = decoding;
    info->progress = &decoding->progress;
    jpeg_mem_src(info, data, size);
    jpeg_read_header(info, TRUE);
    int components = info->num_components;
    if (components != 1 && components != 3 && components != 4) {
        snprintf(decoding->why, sizeof decoding->why,
                 "has %d components (PIL decodes 1, 3 or 4)", components);
        decoding->code = EXIT_CORRUPT_INPUT;
        return false;
    }
    *header = (struct jpeg_header){.width = info->image_width, .height = info->image_height,
                                   .channels = (uint32_t)components,
                                   .progressive = info->progressive_mode != 0};
    if (jpeg_has_multiple_scans(info))
        header->coefficient_bytes = coefficient_bytes(info);
    return true;
}

static bool within_limit(struct decoding *decoding, const struct jpeg_header *header)
{
    uint64_t pixels = (uint64_t)header->width * header->height;
    if (pixels <= decoding->max_pixels)
        return true;
    snprintf(decoding->why, sizeof decoding->why,
             "declares %" PRIu32 "x%" PRIu32 " pixels, more than the %" PRIu64 " allowed",
             header->width, header->height, decoding->max_pixels);
    decoding->code = EXIT_CORRUPT_INPUT;
    return false;
}

/* PIL's settings: the library's defaults (spelled out), the output color space of its raw mode
   ("L", "RGB" or "CMYK;I" by the component count) and no scaling but for a check. */
static void choose_output(struct decoding *decoding, enum purpose purpose,
                          const struct jpeg_options *options)
{
    struct jpeg_decompress_struct *info = &decoding->info;
    static const J_COLOR_SPACE by_components[5] = {JCS_UNKNOWN, JCS_GRAYSCALE, JCS_UNKNOWN,
                                                   JCS_RGB, JCS_CMYK};
    info->out_color_space = by_components[info->num_components];
    info->dct_method = JDCT_ISLOW;
    info->do_fancy_upsampling = TRUE;
    info->do_block_smoothing = TRUE;
    if (purpose == CHECK) {
        info->scale_num = 1;
        info->scale_denom = 8;
    }
    if (purpose == DECODE && options->luminance && info->num_components == 3)
        info->out_color_space = JCS_GRAYSCALE;
    for (unsigned eighths = 1; purpose == DECODE && options->reduce_to > 0 && eighths < 8;
         eighths++)
        if ((uint64_t)info->image_width * eighths >= 8 * (uint64_t)options->reduce_to &&
            (uint64_t)info->image_height * eighths >= 8 * (uint64_t)options->reduce_to) {
            info->scale_num = eighths;
            info->scale_denom = 8;
            break;
        }
}

static bool grow(struct decoding *decoding, uint8_t **buffer, size_t *capacity, size_t bytes)
{
    if (*capacity >= bytes)
        return true;
    free(*buffer);
    *buffer = malloc(bytes);
    *capacity = *buffer != NULL ? bytes : 0;
    return *buffer != NULL || refuse(decoding, EXIT_OTHER, "out of memory");
}

/* PIL's "CMYK;I" unpacker stores each byte inverted (Adobe's convention). */
static void invert(uint8_t *row, size_t count)
{
    for (size_t index = 0; index < count; index++)
        row[index] = (uint8_t)(255 - row[index]);
}

#ifdef __SSE2__
/* Deinterleaves 16 RGB pixels with SSE2 alone: four rounds of interleaving bytes with the bytes
   8 further on sort the 48 bytes into 16 reds, 16 greens, 16 blues. */
static void split_sixteen(const uint8_t *source, uint8_t *red, uint8_t *green, uint8_t *blue)
{
    __m128i first = _mm_loadu_si128((const __m128i *)source);
    __m128i second = _mm_loadu_si128((const __m128i *)(source + 16));
    __m128i third = _mm_loadu_si128((const __m128i *)(source + 32));
    for (int round = 0; round < 4; round++) {
        __m128i a = _mm_unpacklo_epi8(first, _mm_unpackhi_epi64(second, second));
        __m128i b = _mm_unpacklo_epi8(_mm_unpackhi_epi64(first, first), third);
        __m128i c = _mm_unpacklo_epi8(second, _mm_unpackhi_epi64(third, third));
        first = a, second = b, third = c;
    }
    _mm_storeu_si128((__m128i *)red, first);
    _mm_storeu_si128((__m128i *)green, second);
    _mm_storeu_si128((__m128i *)blue, third);
}
#endif

/* Copies PIXELS interleaved pixels of CHANNELS bytes into the planes at PLANAR, PLANE bytes
   apart. */
static void split_channels(const uint8_t *restrict interleaved, size_t pixels, size_t channels,
                           uint8_t *restrict planar, size_t plane)
{
    size_t pixel = 0;
#ifdef __SSE2__
    if (channels == 3)
        for (; pixel + 16 <= pixels; pixel += 16)
            split_sixteen(interleaved + 3 * pixel, planar + pixel, planar + plane + pixel,
                          planar + 2 * plane + pixel);
#endif
    for (size_t channel = 0; channel < channels; channel++)
        for (size_t rest = pixel; rest < pixels; rest++)
            planar[channel * plane + rest] = interleaved[rest * channels + channel];
}

/* Reads every output row into TARGET (interleaved), or into a strip thrown away when TARGET is
   NULL. */
static bool read_rows(struct decoding *decoding, uint8_t *target)
{
    struct jpeg_decompress_struct *info = &decoding->info;
    size_t row_bytes = (size_t)info->output_width * (size_t)info->output_components;
    JSAMPARRAY strip = NULL;
    if (target == NULL)
        strip = (*info->mem->alloc_sarray)((j_common_ptr)info, JPOOL_IMAGE,
                                           (JDIMENSION)row_bytes, STRIP_ROWS);
    JSAMPROW rows[STRIP_ROWS];
    while (info->output_scanline < info->output_height) {
        uint32_t first = info->output_scanline, left = info->output_height - first;
        JDIMENSION wanted = left < STRIP_ROWS ? left : STRIP_ROWS;
        for (JDIMENSION row = 0; target != NULL && row < wanted; row++)
            rows[row] = target + (size_t)(first + row) * row_bytes;
        JDIMENSION count = jpeg_read_scanlines(info, target != NULL ? rows : strip, wanted);
        if (count == 0)
            return refuse(decoding, EXIT_CORRUPT_INPUT, "libjpeg returned no row");
        if (target != NULL && info->output_components == 4)
            invert(target + (size_t)first * row_bytes, count * row_bytes);
    }
    return true;
}

/* Makes room in IMAGE for the decoded pixels and returns where libjpeg writes them: the pixels
   themselves when interleaved, else the scratch buffer split into channels afterwards (measured
   on photo-like JPEGs: splitting the whole image afterwards adds 2 to 5 percent to a decoding,
   splitting each strip as libjpeg returned it added 25 to 50). */
static uint8_t *make_room(struct decoding *decoding, bool interleaved, struct jpeg_image *image)
{
    const struct jpeg_decompress_struct *info = &decoding->info;
    image->width = info->output_width;
    image->height = info->output_height;
    image->channels = (uint32_t)info->output_components;
    size_t bytes = (size_t)image->width * image->height * image->channels;
    if (!grow(decoding, &image->pixels, &image->capacity, bytes))
        return NULL;
    if (interleaved)
        return image->pixels;
    if (!grow(decoding, &image->scratch, &image->scratch_capacity, bytes))
        return NULL;
    return image->scratch;
}

/* Under PIL's policy a single Huffman-coded scan can only fail by running out of data before
   its last row: libjpeg-turbo only warns about damaged entropy-coded data, and its tables and
   sampling were validated by jpeg_start_decompress. Its reader, even resynchronizing at restart
   markers, stops at the first other marker; so when the bytes after the scan header hold only
   stuffed bytes, fill bytes and restart markers (expected or not) up to an end marker, the scan
   cannot run past the data and jpeg_finish_decompress meets that end marker: the decoding
   would pass. Anything else (no end marker, any other marker, several scans, progressive ones
   included) is decoded. */
static bool ends_at_end_marker(struct jpeg_decompress_struct *info)
{
    if (jpeg_has_multiple_scans(info) || info->arith_code)
        return false;
    const uint8_t *byte = info->src->next_input_byte;
    const uint8_t *end = byte + info->src->bytes_in_buffer;
    while ((byte = memchr(byte, 0xFF, (size_t)(end - byte))) != NULL) {
        while (byte < end && *byte == 0xFF)
            byte++;
        if (byte == end)
            return false;
        uint8_t marker = *byte++;
        if (marker == JPEG_EOI)
            return true;
        if (marker != 0 && (marker < JPEG_RST0 || marker > JPEG_RST0 + 7))
            return false;
    }
    return false;
}

/* Runs the whole decoding up to PURPOSE; false with decoding->why and code set on failure. */
static bool guarded(struct decoding *decoding, const void *data, size_t size, enum purpose purpose,
                    const struct jpeg_options *options, struct jpeg_header *header,
                    struct jpeg_image *image)
{
    if (setjmp(decoding->failure))
        return false;
    if (!read_header(decoding, data, size, header))
        return false;
    if (purpose == READ_HEADER)
        return true;
    if (!within_limit(decoding, header))
        return false;
    choose_output(decoding, purpose, options);
    bool interleaved = options->interleaved;
    jpeg_start_decompress(&decoding->info);
    if (purpose == CHECK && decoding->warnings_as_pil && ends_at_end_marker(&decoding->info))
        return true;
    uint8_t *target = NULL;
    if (purpose == DECODE && (target = make_room(decoding, interleaved, image)) == NULL)
        return false;
    if (!read_rows(decoding, target))
        return false;
    decoding->rows_done = true;
    jpeg_finish_decompress(&decoding->info);
    if (purpose == DECODE && !interleaved)
        split_channels(image->scratch, (size_t)image->height * image->width, image->channels,
                       image->pixels, (size_t)image->height * image->width);
    if (image != NULL && image->scratch_capacity > JPEG_KEPT_SCRATCH_BYTES) {
        free(image->scratch);
        image->scratch = NULL;
        image->scratch_capacity = 0;
    }
    return true;
}

static int run(const void *data, size_t size, const char *name, const struct jpeg_options *options,
               enum purpose purpose, struct jpeg_header *header, struct jpeg_image *image)
{
    struct jpeg_options defaults = {0};
    if (options == NULL)
        options = &defaults;
    struct decoding *decoding = calloc(1, sizeof *decoding);
    if (decoding == NULL)
        return error_set(EXIT_OTHER, "cannot decode JPEG: %s: out of memory", name);
    decoding->info.err = jpeg_std_error(&decoding->errors);
    decoding->errors.error_exit = fail;
    decoding->errors.emit_message = warn_or_trace;
    decoding->progress.progress_monitor = count_scans;
    decoding->info.client_data = decoding;
    decoding->warnings_as_pil = options->warnings_as_pil;
    decoding->max_pixels = options->max_pixels != 0 ? options->max_pixels : JPEG_MAX_PIXELS;
    bool done = guarded(decoding, data, size, purpose, options, header, image);
    if (decoding->created)
        jpeg_destroy_decompress(&decoding->info);
    int code = done ? EXIT_OK
                    : error_set(decoding->code, "cannot decode JPEG: %s: %s", name, decoding->why);
    free(decoding);
    return code;
}

int jpeg_probe(const void *data, size_t size, const char *name, struct jpeg_header *header)
{
    *header = (struct jpeg_header){0};
    return run(data, size, name, NULL, READ_HEADER, header, NULL);
}

int jpeg_decode(const void *data, size_t size, const char *name, const struct jpeg_options *options,
                struct jpeg_image *image)
{
    struct jpeg_header header;
    int code = run(data, size, name, options, DECODE, &header, image);
    if (code != EXIT_OK)
        image->width = image->height = image->channels = 0;
    return code;
}

int jpeg_check(const void *data, size_t size, const char *name, const struct jpeg_options *options)
{
    struct jpeg_header header;
    return run(data, size, name, options, CHECK, &header, NULL);
}

void jpeg_image_free(struct jpeg_image *image)
{
    free(image->pixels);
    free(image->scratch);
    *image = (struct jpeg_image){0};
}

uint64_t jpeg_decode_bytes(const struct jpeg_header *header, bool interleaved)
{
    uint64_t pixels = (uint64_t)header->width * header->height * header->channels;
    return pixels * (interleaved ? 1 : 2) + header->coefficient_bytes;
}

void jpeg_to_channel_major(const uint8_t *interleaved, uint32_t height, uint32_t width,
                           uint32_t channels, uint8_t *planar)
{
    size_t plane = (size_t)height * width;
    split_channels(interleaved, plane, channels, planar, plane);
}
