/* Tells what a download directory holds of one raw file, hashing or decoding it only when asked. */
#include "raw_file.h"

#include "common/base/error.h"
#include "common/base/input_file.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

const char *raw_file_state_name(enum raw_file_state state)
{
    static const char *const names[] = {"missing",  "partial", "present",
                                        "wrong size", "verified", "corrupt",
                                        "verified by content", "not a regular file"};
    return names[state];
}

/* Whether DIRECTORY/NAME SUFFIX exists: its size into FILE when a regular file, else FILE's state
   is not regular (of NAME.part when SUFFIX is ".part"). */
static bool entry_look(const char *directory, const char *name, const char *suffix,
                       struct raw_file *file)
{
    char path[PATH_MAX];
    struct stat status;
    if (snprintf(path, sizeof path, "%s/%s%s", directory, name, suffix) >= (int)sizeof path ||
        stat(path, &status) != 0)
        return false;
    if (S_ISREG(status.st_mode))
        file->size = (uint64_t)status.st_size;
    else
        *file = (struct raw_file){.state = RAW_NOT_REGULAR,
                                  .kind = input_kind_name(status.st_mode),
                                  .part = suffix[0] != '\0'};
    return true;
}

bool raw_file_content_matches(const char *path, const struct raw_file_expectation *expected)
{
    if (expected->content_sha256 == NULL || expected->content_size == 0 ||
        expected->content_digest == NULL)
        return false;
    char hex[HASH_HEX_SIZE];
    uint64_t size;
    if (expected->content_digest(path, hex, &size) != EXIT_OK) {
        error_clear();
        return false;
    }
    return size == expected->content_size && strcasecmp(hex, expected->content_sha256) == 0;
}

/* Hashes the file: verified or corrupt; a checksum of unknown length leaves it present. */
static int checksum_compare(const char *path, const char *checksum, struct raw_file *file)
{
    int algorithm = hash_algorithm_for_length(strlen(checksum));
    char hex[HASH_HEX_SIZE];
    uint64_t size;
    if (algorithm < 0)
        return EXIT_OK;
    int result = hash_file(path, (enum hash_algorithm)algorithm, hex, &size);
    if (result != EXIT_OK)
        return result;
    file->state = strcasecmp(hex, checksum) == 0 ? RAW_VERIFIED : RAW_CORRUPT;
    return EXIT_OK;
}

/* The bytes did not decide (another size, another checksum, or none published): the content
   does, when it is known. */
static void content_compare(const char *path, const struct raw_file_expectation *expected,
                            bool size_matches, struct raw_file *file)
{
    if (raw_file_content_matches(path, expected))
        file->state = RAW_CONTENT_VERIFIED;
    else
        file->state = size_matches ? RAW_CORRUPT : RAW_WRONG_SIZE;
}

int raw_file_inspect(const char *directory, const char *name,
                     const struct raw_file_expectation *expected, bool verify,
                     struct raw_file *file)
{
    *file = (struct raw_file){.state = RAW_MISSING};
    /* A NAME.part that is not a regular file stops the next download even beside a sound NAME
       (download refuses it first): said so here too. */
    struct raw_file part = {.state = RAW_MISSING};
    if (entry_look(directory, name, ".part", &part) && part.state == RAW_NOT_REGULAR) {
        *file = part;
        return EXIT_OK;
    }
    if (!entry_look(directory, name, "", file)) {
        if (entry_look(directory, name, ".part", file) && file->state != RAW_NOT_REGULAR)
            file->state = RAW_PARTIAL;
        return EXIT_OK;
    }
    if (file->state == RAW_NOT_REGULAR)
        return EXIT_OK;
    bool size_matches = expected->size == 0 || file->size == expected->size;
    bool content_known = expected->content_sha256 != NULL && expected->content_digest != NULL;
    file->state = size_matches || content_known ? RAW_PRESENT : RAW_WRONG_SIZE;
    if (!verify)
        return EXIT_OK;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", directory, name);
    if (size_matches && expected->checksum != NULL) {
        int result = checksum_compare(path, expected->checksum, file);
        if (result != EXIT_OK || file->state == RAW_VERIFIED)
            return result;
    }
    if (content_known)
        content_compare(path, expected, size_matches, file);
    return EXIT_OK;
}
