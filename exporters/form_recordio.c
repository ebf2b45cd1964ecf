/* The recordio form (MXNet's ImageRecordIter): NAME_SPLIT.rec of image records (header, PNG, or a
   stored JPEG as it is, as im2rec --pass-through), the
   .idx of record offsets for MXIndexedRecordIO and the .lst of id, label and path lines. */
#include "common/base/error.h"
#include "common/base/write_behind.h"
#include "exporters/recordio_write.h"
#include "export_form.h"
#include "png_blocks.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RECORDIO_FILES = 3, STREAM_BUFFER = 1 << 20 };
static const char *const extensions[RECORDIO_FILES] = {"rec", "idx", "lst"};

struct recordio_output {
    struct export_job *job;
    FILE *streams[RECORDIO_FILES]; /* .rec, .idx, .lst */
    char *buffers[RECORDIO_FILES];  /* theirs, 1 MiB each (glibc ignores a size without one) */
    char entries[RECORDIO_FILES][600];
    uint64_t offset;
    struct write_behind behind; /* of the .rec */
    uint8_t *payload;
    size_t capacity;
};

static int recordio_failed(const struct recordio_output *output, int file)
{
    return error_set(EXIT_WRITE, "cannot write: %s/%s: %s", output->job->request->directory,
                     output->entries[file], strerror(errno));
}

static int recordio_payload(struct recordio_output *output, const struct encoded_example *example)
{
    size_t size = RECORDIO_IMAGE_HEADER_SIZE + example->size;
    if (size > output->capacity) {
        uint8_t *grown = realloc(output->payload, size);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "out of memory");
        output->payload = grown;
        output->capacity = size;
    }
    recordio_image_header(output->payload, 0, (float)example->label, example->number, 0);
    memcpy(output->payload + RECORDIO_IMAGE_HEADER_SIZE, example->png, example->size);
    return EXIT_OK;
}

static int recordio_consume(void *context, const struct encoded_example *example)
{
    struct recordio_output *output = context;
    int result = recordio_payload(output, example);
    uint64_t start = output->offset;
    char shown[4800];
    snprintf(shown, sizeof shown, "%s/%s", output->job->request->directory, output->entries[0]);
    if (result == EXIT_OK)
        result = recordio_write(output->streams[0], shown, output->payload,
                                RECORDIO_IMAGE_HEADER_SIZE + example->size, &output->offset);
    if (result != EXIT_OK)
        return result;
    write_behind_note(&output->behind, output->offset - start);
    char label[64];
    element_label_text(example->label, label, sizeof label);
    if (fprintf(output->streams[1], "%" PRIu64 "\t%" PRIu64 "\n", example->number, start) < 0)
        return recordio_failed(output, 1);
    if (fprintf(output->streams[2], "%" PRIu64 "\t%s\t%s/%s/%" PRIu64 ".%s\n", example->number,
                label, output->job->split, label, example->number, example->extension) < 0)
        return recordio_failed(output, 2);
    return EXIT_OK;
}

static int recordio_open(struct recordio_output *output)
{
    struct export_job *job = output->job;
    for (int file = 0; file < RECORDIO_FILES; file++) {
        char path[4800];
        snprintf(output->entries[file], sizeof output->entries[file], "%s.%s", job->stem,
                 extensions[file]);
        int result = export_set_path(job->set, output->entries[file], path, sizeof path);
        if (result != EXIT_OK)
            return result;
        if ((output->streams[file] = fopen(path, "wb")) == NULL)
            return recordio_failed(output, file);
        output->buffers[file] = malloc(STREAM_BUFFER);
        if (output->buffers[file] != NULL)
            setvbuf(output->streams[file], output->buffers[file], _IOFBF, STREAM_BUFFER);
    }
    write_behind_start(&output->behind, fileno(output->streams[0]));
    return EXIT_OK;
}

static int recordio_form_write(struct export_job *job)
{
    struct recordio_output output = {.job = job, .behind = {.descriptor = -1}};
    int result = recordio_open(&output);
    if (result == EXIT_OK)
        result = png_blocks_run(job, recordio_consume, &output);
    for (int file = 0; file < RECORDIO_FILES; file++) {
        if (output.streams[file] != NULL && fclose(output.streams[file]) != 0 &&
            result == EXIT_OK)
            result = recordio_failed(&output, file);
        free(output.buffers[file]);
    }
    free(output.payload);
    snprintf(job->main_file, sizeof job->main_file, "%s", output.entries[0]);
    return result;
}

const struct export_form export_form_recordio = {
    .name = "recordio", .images = true, .variable = true, .write = recordio_form_write,
    .listing = export_provenance_write};
