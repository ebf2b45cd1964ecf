/* ILSVRC2010's patch_images.tar: replacements for blank or "image not available" images, as
   Fuel's extract_patch_images reads them (members ending in .JPEG under a train/, val/ or test/
   directory, keyed by file name), each of which must replace an image of its split. */
#include "ilsvrc_conversion.h"

#include "common/base/error.h"
#include "common/formats/archive/archive_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The real archive holds a few hundred small JPEGs: far more is refused. */
#define MAXIMUM_PATCH_BYTES (256u << 20)
enum { MAXIMUM_PATCHES = 100000 };

static const char *const split_directories[SPLIT_COUNT] = {"train", "val", "test"};

/* The split whose directory holds NAME (its second-to-last component), SPLIT_COUNT for none. */
static enum ilsvrc_split patch_split(const char *name, const char **file)
{
    const char *slash = strrchr(name, '/');
    size_t length = strlen(name);
    if (slash == NULL || length < 5 || strcmp(name + length - 5, ".JPEG") != 0)
        return SPLIT_COUNT;
    *file = slash + 1;
    const char *directory = slash;
    while (directory > name && directory[-1] != '/')
        directory--;
    for (int split = 0; split < SPLIT_COUNT; split++)
        if ((size_t)(slash - directory) == strlen(split_directories[split]) &&
            strncmp(directory, split_directories[split], (size_t)(slash - directory)) == 0)
            return (enum ilsvrc_split)split;
    return SPLIT_COUNT;
}

static int add_patch(struct ilsvrc_conversion *conversion, struct archive_stream *stream,
                     enum ilsvrc_split split, const char *file, size_t *total, const char *path)
{
    if (conversion->patch_count == MAXIMUM_PATCHES)
        return error_set(EXIT_CORRUPT_INPUT, "too many patches: %s: more than %d", path,
                         MAXIMUM_PATCHES);
    struct ilsvrc_patch *grown = realloc(conversion->patches,
                                         (conversion->patch_count + 1) * sizeof *grown);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    conversion->patches = grown;
    struct ilsvrc_patch *patch = &grown[conversion->patch_count];
    *patch = (struct ilsvrc_patch){.split = split, .name = strdup(file)};
    size_t capacity = 0;
    conversion->patch_count++;
    if (patch->name == NULL)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    int result = archive_stream_read_member(stream, &patch->bytes, &capacity, &patch->size,
                                            MAXIMUM_PATCH_BYTES - *total);
    *total += patch->size;
    return result;
}

static int compare_patches(const void *left, const void *right)
{
    const struct ilsvrc_patch *first = left, *second = right;
    if (first->split != second->split)
        return first->split < second->split ? -1 : 1;
    return strcmp(first->name, second->name);
}

int ilsvrc_patches_read(struct ilsvrc_conversion *conversion)
{
    if (conversion->layout->patch_file == ILSVRC_NONE)
        return EXIT_OK;
    char path[4096];
    ilsvrc_path(conversion, conversion->layout->patch_file, path, sizeof path);
    struct archive_stream *stream;
    int result = archive_stream_open(&stream, path, ARCHIVE_STREAM_TAR, 1);
    size_t total = 0;
    while (result == EXIT_OK) {
        const char *name, *file = NULL;
        uint64_t size;
        if ((result = archive_stream_next(stream, &name, &size)) != EXIT_OK || name == NULL)
            break;
        enum ilsvrc_split split = patch_split(name, &file);
        if (split != SPLIT_COUNT)
            result = add_patch(conversion, stream, split, file, &total, path);
    }
    archive_stream_close(stream);
    if (result == EXIT_OK && conversion->patch_count > 1)
        qsort(conversion->patches, conversion->patch_count, sizeof *conversion->patches,
              compare_patches);
    for (size_t index = 1; result == EXIT_OK && index < conversion->patch_count; index++)
        if (compare_patches(&conversion->patches[index - 1], &conversion->patches[index]) == 0)
            result = error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: two patches for "
                               "%s/%s", path, split_directories[conversion->patches[index].split],
                               conversion->patches[index].name);
    return result;
}

struct ilsvrc_patch *ilsvrc_patch_find(struct ilsvrc_conversion *conversion,
                                       enum ilsvrc_split split, const char *name)
{
    struct ilsvrc_patch key = {.split = split, .name = (char *)name};
    if (conversion->patch_count == 0)
        return NULL;
    return bsearch(&key, conversion->patches, conversion->patch_count,
                   sizeof *conversion->patches, compare_patches);
}

int ilsvrc_patches_check_used(const struct ilsvrc_conversion *conversion, enum ilsvrc_split split)
{
    for (size_t index = 0; index < conversion->patch_count; index++) {
        const struct ilsvrc_patch *patch = &conversion->patches[index];
        if (patch->split == split && !patch->used) {
            char path[4096];
            ilsvrc_path(conversion, conversion->layout->patch_file, path, sizeof path);
            return error_set(EXIT_CORRUPT_INPUT, "unused patch: %s: %s/%s replaces no image of "
                             "the %s archive", path, split_directories[split], patch->name,
                             split_directories[split]);
        }
    }
    return EXIT_OK;
}

void ilsvrc_patches_free(struct ilsvrc_conversion *conversion)
{
    for (size_t index = 0; index < conversion->patch_count; index++) {
        free(conversion->patches[index].name);
        free(conversion->patches[index].bytes);
    }
    free(conversion->patches);
    conversion->patches = NULL;
    conversion->patch_count = 0;
}
