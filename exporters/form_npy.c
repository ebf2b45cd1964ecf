/* The npy form: one NAME_SPLIT_SOURCE.npy (format 1.0) per split and source, streamed in blocks. */
#include "common/base/disk_space.h"
#include "common/base/error.h"
#include "common/base/write_behind.h"
#include "common/formats/npy/npy.h"
#include "export_form.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct npy_output {
    FILE *stream;
    struct write_behind behind;
    char entry[700];
    bool convert;
    bool double_precision;
    size_t in_bytes;  /* per example */
    size_t out_bytes;
};

static int npy_failed(const struct export_job *job, const struct npy_output *output)
{
    return error_set(EXIT_WRITE, "cannot write: %s/%s: %s", job->request->directory,
                     output->entry, strerror(errno));
}

static int npy_header_write(struct export_job *job, const struct example_source *source,
                            struct npy_output *output, bool is_data)
{
    const char *dtype = is_data ? job->request->dtype : NULL;
    output->convert = dtype != NULL;
    output->double_precision = dtype != NULL && strcmp(dtype, "float64") == 0;
    uint64_t shape[NPY_MAX_RANK] = {source->selection.count};
    int rank = source->fixed.rank;
    for (int axis = 1; axis < rank && axis < NPY_MAX_RANK; axis++)
        shape[axis] = source->fixed.shape[axis];
    output->in_bytes = source->fixed.example_bytes;
    output->out_bytes = output->convert ? source->example_elements *
                                              (output->double_precision ? 8 : 4)
                                        : output->in_bytes;
    char header[NPY_HEADER_MAX];
    size_t length = npy_header(header,
                               !output->convert ? source->fixed.descr
                               : output->double_precision ? "<f8" : "<f4", shape, rank);
    if (length == 0)
        return error_set(EXIT_USAGE, "source %s has too many axes for .npy", source->name);
    if (fwrite(header, 1, length, output->stream) != length)
        return npy_failed(job, output);
    return EXIT_OK;
}

static int npy_blocks_write(struct export_job *job, const struct example_source *source,
                            struct npy_output *output, bool is_data)
{
    uint64_t count = source->selection.count;
    size_t larger = output->in_bytes > output->out_bytes ? output->in_bytes : output->out_bytes;
    uint64_t block = export_block_examples(larger);
    unsigned char *raw = malloc(block * output->in_bytes + 1);
    unsigned char *converted = output->convert ? malloc(block * output->out_bytes + 1) : raw;
    int result = raw && converted ? EXIT_OK : error_set(EXIT_OTHER, "out of memory");
    double scale = is_data ? job->request->scale : 1.0;
    for (uint64_t first = 0; result == EXIT_OK && first < count; first += block) {
        uint64_t size = count - first < block ? count - first : block;
        result = example_source_read(source, first, size, raw);
        if (result == EXIT_OK && output->convert)
            elements_to_float(raw, source->type, size * source->example_elements, scale,
                              output->double_precision, converted);
        if (result == EXIT_OK &&
            fwrite(converted, output->out_bytes, size, output->stream) != size)
            result = npy_failed(job, output);
        write_behind_note(&output->behind, size * output->out_bytes);
        if (is_data)
            export_progress(job, first + size, count);
    }
    if (converted != raw)
        free(converted);
    free(raw);
    return result;
}

static int npy_source_write(struct export_job *job, const struct example_source *source,
                            bool is_data)
{
    struct npy_output output = {0};
    snprintf(output.entry, sizeof output.entry, "%s_%s.npy", job->stem, source->name);
    char path[4800];
    int result = export_set_path(job->set, output.entry, path, sizeof path);
    if (result == EXIT_OK && (output.stream = fopen(path, "wb")) == NULL)
        result = npy_failed(job, &output);
    write_behind_start(&output.behind, output.stream != NULL ? fileno(output.stream) : -1);
    if (result == EXIT_OK)
        result = npy_header_write(job, source, &output, is_data);
    if (result == EXIT_OK)
        result = npy_blocks_write(job, source, &output, is_data);
    if (output.stream != NULL && fclose(output.stream) != 0 && result == EXIT_OK)
        result = npy_failed(job, &output);
    if (is_data)
        snprintf(job->main_file, sizeof job->main_file, "%s", output.entry);
    return result;
}

static int npy_write(struct export_job *job)
{
    int result = npy_source_write(job, job->data, true);
    if (result == EXIT_OK && job->label != NULL)
        result = npy_source_write(job, job->label, false);
    return result;
}

/* The examples' bytes in SOURCE's file, without its header. */
static uint64_t npy_data_bytes(const struct export_job *job, const struct example_source *source,
                               bool is_data)
{
    const char *dtype = is_data ? job->request->dtype : NULL;
    uint64_t example = dtype == NULL ? source->fixed.example_bytes
                       : disk_space_product(source->example_elements,
                                            strcmp(dtype, "float64") == 0 ? 8 : 4);
    return disk_space_product(source->selection.count, example);
}

static void npy_need(const struct export_job *job, uint64_t *bytes, uint64_t *largest)
{
    uint64_t data = npy_data_bytes(job, job->data, true);
    uint64_t label = job->label != NULL ? npy_data_bytes(job, job->label, false) : 0;
    *bytes = disk_space_sum(data, label);
    *largest = data > label ? data : label;
}

const struct export_form export_form_npy = {
    .name = "npy", .write = npy_write, .need = npy_need, .listing = export_provenance_write};
