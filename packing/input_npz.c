/* FILE.npz:MEMBER entries: a member of numpy's zip of arrays (savez: stored, savez_compressed:
   deflated), streamed through libarchive; a Fortran-order member is spooled to an unnamed
   temporary file first, since its examples are strided across the whole member. */
#include "common/base/error.h"
#include "common/formats/archive/archive_read.h"
#include "element_convert.h"
#include "input_kinds.h"
#include "npy_file.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct input_reader {
    struct archive_stream *stream;
    char name[4200]; /* FILE.npz:MEMBER for messages */
    struct npy_array array;
    struct npy_file spooled; /* Fortran order: the member as a .npy file */
    bool is_spooled;
    bool finished; /* read to its end, its size and CRC checked */
    uint64_t next;
    uint64_t examples_per_block;
    size_t example_bytes;
    unsigned char *buffer;
};

static bool member_matches(const char *name, const char *member)
{
    size_t length = strlen(member);
    return strcmp(name, member) == 0 ||
           (strncmp(name, member, length) == 0 && strcmp(name + length, ".npy") == 0);
}

/* Opens the archive at the member INPUT names, its header read into *ARRAY (and *HEADER, its
   bytes, when HEADER is not NULL: the caller frees). */
static int member_open(const struct pack_input *input, struct archive_stream **stream,
                       const char *name, struct npy_array *array, unsigned char **header)
{
    int result = archive_stream_open(stream, input->path, ARCHIVE_STREAM_ZIP, 1);
    const char *member = NULL;
    uint64_t size = 0;
    bool found = false;
    while (result == EXIT_OK && !found) {
        result = archive_stream_next(*stream, &member, &size);
        found = result == EXIT_OK && (member == NULL || member_matches(member, input->member));
    }
    if (result == EXIT_OK && member == NULL)
        return error_set(EXIT_MISSING_INPUT, "not found: %s: no member %s in the archive",
                         input->path, input->member);
    unsigned char preamble[NPY_PREAMBLE_MAX];
    size_t length = 0;
    if (result == EXIT_OK)
        result = archive_stream_read_exactly(*stream, preamble, 10);
    if (result == EXIT_OK && preamble[6] >= 2)
        result = archive_stream_read_exactly(*stream, preamble + 10, 2);
    if (result == EXIT_OK)
        result = npy_header_length(preamble, preamble[6] >= 2 ? 12 : 10, name, &length);
    unsigned char *bytes = result == EXIT_OK ? malloc(length) : NULL;
    if (result == EXIT_OK && bytes == NULL)
        result = error_set(EXIT_OTHER, "out of memory");
    size_t preamble_length = result == EXIT_OK && preamble[6] >= 2 ? 12 : 10;
    if (result == EXIT_OK) {
        memcpy(bytes, preamble, preamble_length);
        result = archive_stream_read_exactly(*stream, bytes + preamble_length,
                                             length - preamble_length);
    }
    if (result == EXIT_OK)
        result = npy_header_parse(bytes, length, name, array);
    if (result == EXIT_OK && size != ARCHIVE_STREAM_SIZE_UNKNOWN &&
        array->data_bytes > size - length)
        result = error_set(EXIT_CORRUPT_INPUT, "truncated array: %s: the header declares %" PRIu64
                           " bytes of data, %" PRIu64 " follow it", name, array->data_bytes,
                           size - length);
    if (result == EXIT_OK && header != NULL)
        *header = bytes;
    else
        free(bytes);
    return result;
}

static int npz_probe(const struct input_context *context, const struct pack_input *input,
                     struct input_facts *facts)
{
    char name[4200];
    snprintf(name, sizeof name, "%s:%s", input->path, input->member);
    struct archive_stream *stream = NULL;
    struct npy_array array;
    int result = member_open(input, &stream, name, &array, NULL);
    if (stream != NULL)
        archive_stream_close(stream);
    if (result == EXIT_OK)
        result = npy_array_facts(&array, name, facts);
    char *relative = result == EXIT_OK ? input_relative_name(context->spec, input->path) : NULL;
    if (result == EXIT_OK)
        result = relative == NULL ? error_set(EXIT_OTHER, "out of memory")
                                  : input_facts_add_file(facts, input->path, relative);
    free(relative);
    return result;
}

/* Reads exactly SIZE bytes of the member; "truncated array" when it ends first. */
static int member_read(struct input_reader *reader, void *buffer, size_t size)
{
    unsigned char *cursor = buffer;
    while (size > 0) {
        size_t got;
        int result = archive_stream_read(reader->stream, cursor, size, &got);
        if (result != EXIT_OK)
            return result;
        if (got == 0)
            return error_set(EXIT_CORRUPT_INPUT, "truncated array: %s: the member ends before "
                             "its data does", reader->name);
        cursor += got;
        size -= got;
    }
    return EXIT_OK;
}

/* Reads the member to its end, where libarchive checks the zip entry's size and CRC: its data
   counts only once they match, and once nothing follows the data the .npy header declares (a
   member that inflates to gigabytes more is refused at its first byte too many). */
static int member_finish(struct input_reader *reader)
{
    unsigned char extra;
    size_t got = 0;
    if (reader->finished)
        return EXIT_OK;
    reader->finished = true;
    int result = archive_stream_read(reader->stream, &extra, 1, &got);
    if (result == EXIT_OK && got != 0)
        result = error_set(EXIT_CORRUPT_INPUT, "malformed archive member: %s: more data than "
                           "its .npy header declares", reader->name);
    return result;
}

/* Copies the member (HEADER, then its data) into an unnamed temporary file read as a .npy. */
static int spool(struct input_reader *reader, const unsigned char *header)
{
    FILE *temporary = tmpfile();
    int descriptor = temporary != NULL ? dup(fileno(temporary)) : -1;
    if (temporary != NULL)
        fclose(temporary);
    if (descriptor < 0)
        return error_set(EXIT_WRITE, "cannot write: a temporary file for %s: %s", reader->name,
                         error_system_reason());
    int result = write(descriptor, header, reader->array.header_length) ==
                         (ssize_t)reader->array.header_length
                     ? EXIT_OK
                     : error_set(EXIT_WRITE, "cannot write: a temporary file for %s: %s",
                                 reader->name, error_system_reason());
    for (uint64_t left = reader->array.data_bytes; result == EXIT_OK && left > 0;) {
        size_t part = left < INPUT_BLOCK_BYTES ? (size_t)left : INPUT_BLOCK_BYTES;
        result = member_read(reader, reader->buffer, part);
        if (result == EXIT_OK && write(descriptor, reader->buffer, part) != (ssize_t)part)
            result = error_set(EXIT_WRITE, "cannot write: a temporary file for %s: %s",
                               reader->name, error_system_reason());
        left -= part;
    }
    if (result == EXIT_OK)
        result = member_finish(reader);
    if (result != EXIT_OK) {
        close(descriptor);
        return result;
    }
    reader->is_spooled = true;
    return npy_file_open_descriptor(&reader->spooled, descriptor, reader->name);
}

static int npz_open(const struct input_context *context, const struct pack_input *input,
                    const struct input_facts *facts, struct input_reader **reader)
{
    (void)context;
    *reader = calloc(1, sizeof **reader);
    if (*reader == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    struct input_reader *opened = *reader;
    opened->spooled.descriptor = -1;
    snprintf(opened->name, sizeof opened->name, "%s:%s", input->path, input->member);
    unsigned char *header = NULL;
    int result = member_open(input, &opened->stream, opened->name, &opened->array, &header);
    if (result == EXIT_OK)
        result = npy_facts_agree(&opened->array, opened->name, facts);
    uint64_t elements = 1;
    for (int axis = 1; result == EXIT_OK && axis < opened->array.rank; axis++)
        elements *= opened->array.shape[axis];
    opened->example_bytes = (size_t)(elements * opened->array.item_size);
    opened->examples_per_block = opened->example_bytes == 0 ? facts->examples + 1
                                 : opened->example_bytes >= INPUT_BLOCK_BYTES
                                     ? 1 : INPUT_BLOCK_BYTES / opened->example_bytes;
    size_t capacity = opened->example_bytes * (size_t)opened->examples_per_block;
    opened->buffer = malloc((capacity > INPUT_BLOCK_BYTES ? capacity : INPUT_BLOCK_BYTES) + 1);
    if (result == EXIT_OK && opened->buffer == NULL)
        result = error_set(EXIT_OTHER, "out of memory");
    if (result == EXIT_OK && opened->array.fortran_order && opened->array.rank > 1)
        result = spool(opened, header);
    free(header);
    return result;
}

static int npz_next(struct input_reader *reader, struct example_block *block)
{
    uint64_t left = reader->array.shape[0] - reader->next;
    uint64_t count = left < reader->examples_per_block ? left : reader->examples_per_block;
    *block = (struct example_block){.data = reader->buffer, .count = count};
    if (count == 0)
        return reader->is_spooled ? EXIT_OK : member_finish(reader);
    int result;
    if (reader->is_spooled) {
        result = npy_file_read(&reader->spooled, reader->next, count, reader->buffer);
    } else {
        result = member_read(reader, reader->buffer, (size_t)count * reader->example_bytes);
        if (result == EXIT_OK && reader->array.big_endian && reader->array.item_size > 1)
            element_swap(reader->buffer, reader->array.item_size,
                         (size_t)count * reader->example_bytes / reader->array.item_size);
    }
    reader->next += count;
    if (result == EXIT_OK && !reader->is_spooled && reader->next == reader->array.shape[0])
        result = member_finish(reader);
    return result;
}

static void npz_close(struct input_reader *reader)
{
    if (reader == NULL)
        return;
    if (reader->stream != NULL)
        archive_stream_close(reader->stream);
    npy_file_close(&reader->spooled);
    free(reader->buffer);
    free(reader);
}

const struct input_kind_reader npz_input_reader = {npz_probe, npz_open, npz_next, npz_close, NULL};
