/* --decode's pipeline: the main thread reads each stored file (libhdf5 stays on it) and probes its
   header, workers decode (JPEG with libjpeg-turbo's JDCT_ISLOW and fancy upsampling, as PIL does;
   PNG with libpng) and sum each RGB channel exactly into the job's own summaries, which the main
   thread merges as it collects them. Integer sums do not depend on the order, so neither do the
   results on the thread count. The pixels in flight are bounded by IMAGE_DECODING_BUDGET. */
#include "image_decoding.h"

#include "common/base/error.h"
#include "common/base/ordered_pool.h"
#include "common/base/threads.h"
#include "common/formats/jpeg/jpeg_read.h"
#include "common/formats/jpeg/jpeg_rgb.h"
#include "common/formats/png/png_read.h"
#include "statistics_blocks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { JOBS_PER_THREAD = 4, CMYK_RUN = 4096 };

static const struct numeric_type byte_type = {'u', 1};

struct decoded_image {
    unsigned char *bytes;
    size_t size;
    bool png;
    uint32_t channels;        /* as stored: 1, 3 or 4 */
    uint64_t need;            /* bytes held while decoding */
    struct jpeg_image image;
    struct value_summary summaries[3];
    struct value_histogram histograms[3];
    bool counted;             /* histograms wanted */
    char label[160];
};

struct image_decoding {
    struct ordered_pool *pool;
    struct decoded_image *jobs;
    size_t job_count, next_job;
    uint64_t in_flight;
    const char *source;
    struct source_statistics *statistics;
};

/* CMYK pixels made RGB a run at a time, each channel summed. */
static void cmyk_summarise(struct decoded_image *job, size_t pixels)
{
    uint8_t rgb[3 * CMYK_RUN];
    for (size_t first = 0; first < pixels; first += CMYK_RUN) {
        size_t run = pixels - first < CMYK_RUN ? pixels - first : CMYK_RUN;
        jpeg_pixels_to_rgb(job->image.pixels + 4 * first, 4, run, rgb);
        for (int channel = 0; channel < 3; channel++) {
            value_summary_add(&job->summaries[channel], rgb + channel, run, 3, byte_type, NULL);
            if (job->counted)
                value_histogram_add(&job->histograms[channel], rgb + channel, run, 3, byte_type);
        }
    }
}

/* Planes of CHANNELS (1: gray, counted as each of R, G and B) summed. */
static void planes_summarise(struct decoded_image *job, const uint8_t *planes, uint32_t channels,
                             size_t pixels)
{
    for (uint32_t channel = 0; channel < channels; channel++) {
        value_summary_add(&job->summaries[channel], planes + channel * pixels, pixels, 1,
                          byte_type, NULL);
        if (job->counted)
            value_histogram_add(&job->histograms[channel], planes + channel * pixels, pixels, 1,
                                byte_type);
    }
    for (uint32_t channel = channels; channel < 3; channel++) {
        value_summary_merge(&job->summaries[channel], &job->summaries[0]);
        value_histogram_merge(&job->histograms[channel], &job->histograms[0]);
    }
}

static int png_summarise(struct decoded_image *job)
{
    struct png_rgb decoded = {0};
    int result = png_rgb_decode(job->bytes, job->size, job->label, &decoded);
    if (result == EXIT_OK)
        planes_summarise(job, decoded.pixels, 3, (size_t)decoded.height * decoded.width);
    png_rgb_free(&decoded);
    return result;
}

static int decode_job(void *argument)
{
    struct decoded_image *job = argument;
    if (job->png)
        return png_summarise(job);
    struct jpeg_options options = {.max_pixels = JPEG_PIL_MAX_PIXELS,
                                   .interleaved = job->channels == 4, .warnings_as_pil = true};
    int result = jpeg_decode(job->bytes, job->size, job->label, &options, &job->image);
    if (result != EXIT_OK)
        return result;
    size_t pixels = (size_t)job->image.height * job->image.width;
    if (job->image.channels == 4)
        cmyk_summarise(job, pixels);
    else
        planes_summarise(job, job->image.pixels, job->image.channels, pixels);
    return EXIT_OK;
}

int image_decoding_begin(struct image_decoding **decoding, const char *source, unsigned threads,
                         struct source_statistics *statistics)
{
    threads = threads == 0 ? threads_default() : threads;
    struct image_decoding *made = calloc(1, sizeof *made);
    size_t jobs = (size_t)threads * JOBS_PER_THREAD;
    if (made != NULL)
        made->jobs = calloc(jobs, sizeof *made->jobs);
    *decoding = made;
    if (made == NULL || made->jobs == NULL)
        return error_set(EXIT_OTHER, "cannot decode source %s: out of memory", source);
    int result = statistics_channels_reserve(statistics, 3, byte_type);
    if (result != EXIT_OK)
        return result;
    made->job_count = jobs;
    made->source = source;
    made->statistics = statistics;
    for (size_t job = 0; job < jobs; job++)
        for (int channel = 0; channel < 3; channel++) {
            value_summary_begin(&made->jobs[job].summaries[channel], byte_type);
            value_histogram_begin(&made->jobs[job].histograms[channel], byte_type);
            made->jobs[job].counted = statistics->histograms != NULL;
        }
    value_summary_begin(&statistics->overall, byte_type);
    statistics->channel_count = 3;
    statistics->numeric = statistics->decoded = true;
    return ordered_pool_create_shared(&made->pool, threads, jobs, decode_job);
}

static int collect_oldest(struct image_decoding *decoding)
{
    void *argument;
    int result = ordered_pool_collect(decoding->pool, &argument);
    struct decoded_image *job = argument;
    decoding->in_flight -= job->need;
    free(job->bytes);
    job->bytes = NULL;
    for (int channel = 0; result == EXIT_OK && channel < 3; channel++) {
        value_summary_merge(&decoding->statistics->channels[channel], &job->summaries[channel]);
        value_summary_merge(&decoding->statistics->overall, &job->summaries[channel]);
        value_summary_begin(&job->summaries[channel], byte_type);
        if (job->counted)
            value_histogram_merge(&decoding->statistics->histograms[channel],
                                  &job->histograms[channel]);
        value_histogram_begin(&job->histograms[channel], byte_type);
    }
    return result;
}

/* The stored form and the bytes decoding JOB holds, from its header. */
static int job_probe(struct decoded_image *job)
{
    static const unsigned char png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    job->png = job->size >= sizeof png && memcmp(job->bytes, png, sizeof png) == 0;
    if (job->png) {
        uint32_t width, height, channels;
        int result = png_probe(job->bytes, job->size, job->label, &width, &height, &channels);
        job->need = (uint64_t)width * height * 3 * 2;
        return result;
    }
    struct jpeg_header header;
    int result = jpeg_probe(job->bytes, job->size, job->label, &header);
    job->channels = header.channels;
    job->need = (uint64_t)header.width * header.height * header.channels * 2 +
                header.coefficient_bytes;
    return result;
}

int image_decoding_add(struct image_decoding *decoding, void *data, size_t count, uint64_t index)
{
    int result = EXIT_OK;
    while (result == EXIT_OK && ordered_pool_full(decoding->pool))
        result = collect_oldest(decoding);
    struct decoded_image *job = &decoding->jobs[decoding->next_job];
    job->bytes = data;
    job->size = count;
    job->need = 0;
    snprintf(job->label, sizeof job->label, "%s[%llu]", decoding->source,
             (unsigned long long)index);
    if (result == EXIT_OK)
        result = job_probe(job);
    while (result == EXIT_OK && ordered_pool_pending(decoding->pool) > 0 &&
           decoding->in_flight + job->need > IMAGE_DECODING_BUDGET)
        result = collect_oldest(decoding);
    if (result != EXIT_OK) {
        free(job->bytes);
        job->bytes = NULL;
        return result;
    }
    decoding->in_flight += job->need;
    ordered_pool_submit(decoding->pool, job);
    decoding->next_job = (decoding->next_job + 1) % decoding->job_count;
    return EXIT_OK;
}

int image_decoding_finish(struct image_decoding *decoding)
{
    int result = EXIT_OK;
    while (result == EXIT_OK && ordered_pool_pending(decoding->pool) > 0)
        result = collect_oldest(decoding);
    return result;
}

void image_decoding_free(struct image_decoding *decoding)
{
    if (decoding == NULL)
        return;
    ordered_pool_destroy(decoding->pool);
    for (size_t job = 0; decoding->jobs != NULL && job < decoding->job_count; job++) {
        free(decoding->jobs[job].bytes);
        jpeg_image_free(&decoding->jobs[job].image);
    }
    free(decoding->jobs);
    free(decoding);
}
