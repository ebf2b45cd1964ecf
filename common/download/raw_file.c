/* Tells what a download directory holds of one raw file, hashing it only when asked. */
#include "raw_file.h"

#include "common/base/error.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

const char *raw_file_state_name(enum raw_file_state state)
{
    static const char *const names[] = {"missing", "partial", "present",
                                        "wrong size", "verified", "corrupt"};
    return names[state];
}

static bool regular_file_size(const char *directory, const char *name, const char *suffix,
                              uint64_t *size)
{
    char path[PATH_MAX];
    struct stat status;
    if (snprintf(path, sizeof path, "%s/%s%s", directory, name, suffix) >= (int)sizeof path ||
        stat(path, &status) != 0 || !S_ISREG(status.st_mode))
        return false;
    *size = (uint64_t)status.st_size;
    return true;
}

static int checksum_compare(const char *directory, const char *name, const char *checksum,
                            struct raw_file *file)
{
    int algorithm = hash_algorithm_for_length(strlen(checksum));
    char path[PATH_MAX], hex[HASH_HEX_SIZE];
    uint64_t size;
    if (algorithm < 0)
        return EXIT_OK;
    snprintf(path, sizeof path, "%s/%s", directory, name);
    int result = hash_file(path, (enum hash_algorithm)algorithm, hex, &size);
    if (result != EXIT_OK)
        return result;
    file->state = strcasecmp(hex, checksum) == 0 ? RAW_VERIFIED : RAW_CORRUPT;
    return EXIT_OK;
}

int raw_file_inspect(const char *directory, const char *name, uint64_t expected_size,
                     const char *checksum, bool verify, struct raw_file *file)
{
    *file = (struct raw_file){.state = RAW_MISSING};
    if (!regular_file_size(directory, name, "", &file->size)) {
        if (regular_file_size(directory, name, ".part", &file->size))
            file->state = RAW_PARTIAL;
        return EXIT_OK;
    }
    file->state = expected_size == 0 || file->size == expected_size ? RAW_PRESENT : RAW_WRONG_SIZE;
    if (file->state == RAW_PRESENT && verify && checksum != NULL)
        return checksum_compare(directory, name, checksum, file);
    return EXIT_OK;
}
