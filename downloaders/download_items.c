/* Builds the download items of a dataset's file table: URLs after mirrors and prefix, checksums
   after the --checksums list. */
#include "download_items.h"

#include "common/base/error.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void item_table_free(struct item_table *table)
{
    for (size_t index = 0; table->urls != NULL && index < table->count; index++)
        url_list_free(&table->urls[index]);
    free(table->urls);
    free(table->items);
    checksum_list_free(&table->checksums);
}

static size_t url_count(const struct dataset_file *file)
{
    size_t count = 0;
    while (count < DATASET_MAX_URLS && file->urls[count] != NULL)
        count++;
    return count;
}

int item_table_build(struct item_table *table, const struct dataset *dataset,
                     const char *url_prefix, const struct fuel_config *config,
                     const char *checksums_path)
{
    if (checksums_path != NULL) {
        int result = checksum_list_load(&table->checksums, checksums_path);
        if (result != EXIT_OK)
            return result;
    }
    table->count = dataset->file_count;
    table->items = calloc(table->count, sizeof *table->items);
    table->urls = calloc(table->count, sizeof *table->urls);
    if (table->items == NULL || table->urls == NULL)
        return error_set(EXIT_OTHER, "cannot download: out of memory");
    for (size_t index = 0; index < table->count; index++) {
        const struct dataset_file *file = &dataset->files[index];
        struct url_sources sources = {
            .builtin = file->urls,
            .builtin_count = url_count(file),
            .mirrors = (const char *const *)config->mirrors.items,
            .mirror_count = config->mirrors.count,
            .prefix = url_prefix != NULL ? url_prefix : config->mirror,
        };
        int result = url_list_build(&table->urls[index], &sources, file->name);
        if (result != EXIT_OK)
            return result;
        /* A checksum given replaces the published size and content too. */
        const char *replacement = checksum_list_find(&table->checksums, file->name);
        table->items[index] = (struct download_item){
            .name = file->name,
            .urls = table->urls[index].items,
            .url_count = table->urls[index].count,
            .size = replacement != NULL ? 0 : file->size,
            .checksum = replacement != NULL ? replacement : file->checksum,
            .content_size = replacement != NULL ? 0 : file->content_size,
            .content_sha256 = replacement != NULL ? NULL : file->content_sha256,
        };
    }
    return EXIT_OK;
}


static int remove_if_present(const char *directory, const char *name, const char *suffix)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s%s", directory, name, suffix) >= (int)sizeof path)
        return error_set(EXIT_WRITE, "cannot remove: %s/%s: name too long", directory, name);
    if (unlink(path) != 0 && errno != ENOENT)
        return error_set(EXIT_WRITE, "cannot remove: %s: %s", path, strerror(errno));
    return EXIT_OK;
}

int dataset_files_remove(const struct dataset *dataset, const char *directory, bool parts)
{
    for (size_t index = 0; index < dataset->file_count; index++) {
        const char *name = dataset->files[index].name;
        int result = remove_if_present(directory, name, "");
        if (result == EXIT_OK && parts)
            result = remove_if_present(directory, name, ".part");
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}
