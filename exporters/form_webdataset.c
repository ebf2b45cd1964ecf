/* The webdataset form (WebDataset, Hugging Face's "webdataset", DALI's fn.readers.webdataset):
   SPLIT-000000.tar, ... POSIX ustar shards written with libarchive, each example a group of
   members named by its key (%08d of its index in the split): the image as KEY.png (or KEY.jpg,
   the stored JPEG bytes), the label as KEY.cls (decimal ASCII), any other source as
   KEY.SOURCE.npy; owner 0:0, mode 0644 and one fixed mtime, so the same input gives the same
   bytes. */
#include "common/base/error.h"
#include "common/formats/npy/npy.h"
#include "shard_export.h"

#include <archive.h>
#include <archive_entry.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAR_BLOCK = 512 };

struct tar_state {
    struct archive *archive;
    bool failed; /* the shard file refused a write: its message is the one set */
};

static void webdataset_shard_name(char *name, size_t size, const char *split, uint64_t index,
                                  uint64_t count)
{
    (void)count;
    snprintf(name, size, "%s-%06" PRIu64 ".tar", split, index);
}

/* The member name's part after the key: ".png", ".cls", ".SOURCE.npy". */
static void member_suffix(const struct shard_source *item, char *suffix, size_t size)
{
    const char *extension = item->role == SHARD_PNG ? "png" : item->role == SHARD_JPEG ? "jpg"
                            : item->role == SHARD_LABEL ? "cls" : "npy";
    if (item->primary || item->role == SHARD_LABEL)
        snprintf(suffix, size, ".%s", extension);
    else
        snprintf(suffix, size, ".%s.%s", item->source.name, extension);
}

/* A write the shard file refused is reported to libarchive as done, and seen by the caller in
   STATE: an archive in its fatal state leaks its client buffer when freed (libarchive 3.6). */
static la_ssize_t tar_write(struct archive *archive, void *context, const void *data, size_t size)
{
    (void)archive;
    struct shard_writer *writer = context;
    struct tar_state *state = writer->state;
    if (!state->failed && shard_file_write(&writer->file, data, size) != EXIT_OK)
        state->failed = true;
    return (la_ssize_t)size;
}

static int tar_failed(struct shard_writer *writer, const char *what)
{
    struct tar_state *state = writer->state;
    if (state->failed)
        return error_code();
    return error_set(EXIT_WRITE, "cannot write: %s: %s: %s", writer->file.shown, what,
                     archive_error_string(state->archive));
}

static int webdataset_shard_begin(struct shard_writer *writer)
{
    struct tar_state *state = calloc(1, sizeof *state);
    if (state == NULL || (state->archive = archive_write_new()) == NULL) {
        free(state);
        return error_set(EXIT_OTHER, "out of memory");
    }
    writer->state = state;
    if (archive_write_set_format_ustar(state->archive) != ARCHIVE_OK ||
        archive_write_set_bytes_per_block(state->archive, 0) != ARCHIVE_OK ||
        archive_write_open(state->archive, writer, NULL, tar_write, NULL) != ARCHIVE_OK) {
        int result = tar_failed(writer, "cannot start the archive");
        archive_write_free(state->archive);
        free(state);
        writer->state = NULL;
        return result;
    }
    return EXIT_OK;
}

static int member_write(struct shard_writer *writer, const char *name, const void *header,
                        size_t header_size, const void *data, size_t size)
{
    struct tar_state *state = writer->state;
    struct archive_entry *entry = archive_entry_new();
    if (entry == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    archive_entry_set_pathname(entry, name);
    archive_entry_set_filetype(entry, AE_IFREG);
    archive_entry_set_perm(entry, 0644);
    archive_entry_set_size(entry, (la_int64_t)(header_size + size));
    archive_entry_set_mtime(entry, (time_t)writer->mtime, 0);
    archive_entry_set_uid(entry, 0);
    archive_entry_set_gid(entry, 0);
    int status = archive_write_header(state->archive, entry);
    archive_entry_free(entry);
    if (status != ARCHIVE_OK)
        return tar_failed(writer, name);
    if (header_size > 0 &&
        archive_write_data(state->archive, header, header_size) != (la_ssize_t)header_size)
        return tar_failed(writer, name);
    if (size > 0 && archive_write_data(state->archive, data, size) != (la_ssize_t)size)
        return tar_failed(writer, name);
    return state->failed ? error_code() : EXIT_OK;
}

/* The npy header of an array payload (its length, 0 for other roles), and a label's text. */
static size_t member_header(const struct shard_source *item, const struct shard_payload *payload,
                            char header[NPY_HEADER_MAX])
{
    if (item->role == SHARD_LABEL)
        return (size_t)snprintf(header, NPY_HEADER_MAX, "%" PRId64, payload->label);
    if (item->role == SHARD_ARRAY)
        return npy_header(header, item->descr, payload->shape, payload->rank);
    return 0;
}

static int webdataset_example_write(struct shard_writer *writer, const struct shard_block *block,
                                    size_t index)
{
    const struct shard_sources *sources = writer->sources;
    int result = EXIT_OK;
    for (size_t source = 0; result == EXIT_OK && source < sources->count; source++) {
        const struct shard_source *item = &sources->items[source];
        if (!item->present)
            continue;
        const struct shard_payload *payload = shard_block_payload(block, index, source);
        char name[600], suffix[300], header[NPY_HEADER_MAX];
        member_suffix(item, suffix, sizeof suffix);
        snprintf(name, sizeof name, "%08" PRIu64 "%s", block->keys[index], suffix);
        size_t header_size = member_header(item, payload, header);
        bool text = item->role == SHARD_LABEL;
        result = member_write(writer, name, header, header_size, text ? NULL : payload->data,
                              text ? 0 : payload->size);
    }
    return result;
}

static void tar_free(struct shard_writer *writer)
{
    struct tar_state *state = writer->state;
    if (state == NULL)
        return;
    archive_write_free(state->archive);
    free(state);
    writer->state = NULL;
}

static int webdataset_shard_end(struct shard_writer *writer)
{
    struct tar_state *state = writer->state;
    int result = archive_write_close(state->archive) == ARCHIVE_OK && !state->failed
                     ? EXIT_OK : tar_failed(writer, "cannot finish the archive");
    tar_free(writer);
    return result;
}

static uint64_t webdataset_example_bytes(const struct shard_sources *sources,
                                         const struct shard_block *block, size_t index)
{
    uint64_t bytes = 0;
    for (size_t source = 0; source < sources->count; source++) {
        const struct shard_source *item = &sources->items[source];
        if (!item->present)
            continue;
        const struct shard_payload *payload = shard_block_payload(block, index, source);
        char header[NPY_HEADER_MAX];
        size_t size = member_header(item, payload, header);
        size += item->role == SHARD_LABEL ? 0 : payload->size;
        bytes += TAR_BLOCK + (size + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK;
    }
    return bytes;
}

static void webdataset_source_describe(const struct shard_sources *sources, size_t index,
                                       json_t *entry)
{
    char suffix[300], member[320];
    member_suffix(&sources->items[index], suffix, sizeof suffix);
    snprintf(member, sizeof member, "KEY%s", suffix);
    json_object_set_new(entry, "member", json_string(member));
}

static const struct shard_format webdataset_format = {
    .name = "webdataset",
    .shard_name = webdataset_shard_name,
    .example_bytes = webdataset_example_bytes,
    .shard_begin = webdataset_shard_begin,
    .example_write = webdataset_example_write,
    .shard_end = webdataset_shard_end,
    .shard_abandon = tar_free,
    .source_describe = webdataset_source_describe,
};

static int webdataset_prepare(struct export_job *job)
{
    return shard_export_prepare(job, &webdataset_format);
}

static int webdataset_write(struct export_job *job)
{
    return shard_export_write(job, &webdataset_format);
}

const struct export_form export_form_webdataset = {
    .name = "webdataset", .variable = true, .write = webdataset_write,
    .prepare = webdataset_prepare, .finish = shard_export_finish,
    .listing = shard_export_listing};
