/* What every export form shares: labels as numbers, staged text files, provenance, progress. */
#include "export_form.h"

#include "common/base/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int export_labels_read(const struct export_job *job, uint64_t first, uint64_t count,
                       double *values)
{
    if (job->label == NULL) {
        for (uint64_t index = 0; index < count; index++)
            values[index] = 0;
        return EXIT_OK;
    }
    size_t size = job->label->fixed.element_size;
    unsigned char *raw = malloc(count ? count * size : 1);
    if (raw == NULL)
        return error_set(EXIT_OTHER, "out of memory reading labels");
    int result = example_source_read(job->label, first, count, raw);
    for (uint64_t index = 0; result == EXIT_OK && index < count; index++)
        values[index] = element_value(raw, index, job->label->type);
    free(raw);
    return result;
}

int export_text_write(struct export_job *job, const char *entry, const char *text, size_t length)
{
    char path[4800];
    int result = export_set_path(job->set, entry, path, sizeof path);
    if (result != EXIT_OK)
        return result;
    FILE *stream = fopen(path, "wb");
    int failed = stream == NULL || fwrite(text, 1, length, stream) != length;
    if (stream != NULL && fclose(stream) != 0)
        failed = 1;
    if (failed)
        return error_set(EXIT_WRITE, "cannot write: %s/%s: %s", job->request->directory, entry,
                         strerror(errno));
    return EXIT_OK;
}

int export_provenance_write(struct export_job *job)
{
    char entry[600];
    snprintf(entry, sizeof entry, "%s.provenance.json", job->stem);
    char *text = export_provenance_text(job->provenance, job->split, job->data->name, job->set,
                                        entry);
    if (text == NULL)
        return error_code();
    size_t length = strlen(text);
    text[length] = '\n';
    int result = export_text_write(job, entry, text, length + 1);
    free(text);
    return result;
}

void export_progress(struct export_job *job, uint64_t done, uint64_t total)
{
    progress_update(job->progress, 0, done * job->progress_unit, total * job->progress_unit);
    progress_refresh(job->progress);
}

uint64_t export_block_examples(size_t bytes)
{
    size_t block = ((size_t)4 << 20) / (bytes ? bytes : 1);
    return block ? block : 1;
}
