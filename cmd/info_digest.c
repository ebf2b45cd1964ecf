/* fuel-info's content digests: computed once per file, looked up by source, printed as a section. */
#include "info_digest.h"

#include "common/base/error.h"
#include "table.h"

#include <stdio.h>
#include <string.h>

int info_digest_compute(const struct h5py_file *file, bool valid, struct info_digest *digest)
{
    *digest = (struct info_digest){0};
    if (!valid) {
        snprintf(digest->reason, sizeof digest->reason, "the file fails the checks");
        return EXIT_OK;
    }
    int result = content_digest_compute(file, &digest->digest);
    digest->computed = result == EXIT_OK;
    if (result == EXIT_USAGE) {
        snprintf(digest->reason, sizeof digest->reason, "%s", error_message());
        error_clear();
        return EXIT_OK;
    }
    return result;
}

const char *info_digest_whole(const struct info_digest *digest)
{
    return digest->computed ? digest->digest.sha256 : NULL;
}

const char *info_digest_source(const struct info_digest *digest, const char *name)
{
    for (size_t index = 0; digest->computed && index < digest->digest.source_count; index++) {
        const struct content_source_digest *source = &digest->digest.sources[index];
        if (strcmp(source->name, name) == 0)
            return source->present ? source->sha256 : NULL;
    }
    return NULL;
}

int info_digest_print(const struct info_digest *digest, const struct h5py_file *file)
{
    if (!digest->computed) {
        printf("\nContent digest: none: %s\n", digest->reason);
        return EXIT_OK;
    }
    printf("\nContent digest: %s\n\n", digest->digest.sha256);
    struct table table = {.indent = 4, .columns = 2};
    int result = EXIT_OK;
    for (size_t index = 0; index < file->source_count && result == EXIT_OK; index++) {
        const char *sha256 = info_digest_source(digest, file->sources[index].name);
        if (sha256 != NULL)
            result = table_add_texts(&table,
                                     (const char *[]){file->sources[index].name, sha256});
    }
    return table_finish(&table, "", result);
}

void info_digest_free(struct info_digest *digest)
{
    if (digest->computed)
        content_digest_free(&digest->digest);
    *digest = (struct info_digest){0};
}
