/* Writes and reads an export set's manifest: "INODE NAME" lines, one per top-level entry. */
#include "set_manifest.h"

#include "common/base/error.h"
#include "common/base/staging.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { NAME_MAX_LENGTH = 4095 };

bool set_entry_name_valid(const char *name)
{
    return name[0] != '\0' && strcmp(name, ".") != 0 && strcmp(name, "..") != 0 &&
           strcmp(name, STAGING_LOCK_NAME) != 0 && strcmp(name, SET_MANIFEST_NAME) != 0 &&
           strncmp(name, SET_EARLIER_NAME, strlen(SET_EARLIER_NAME)) != 0 &&
           strpbrk(name, "/\n") == NULL && strlen(name) <= NAME_MAX_LENGTH;
}

int set_manifest_write(int directory, const char *path, char *const *names, size_t count)
{
    int descriptor = openat(directory, SET_MANIFEST_NAME,
                            O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    FILE *stream = descriptor >= 0 ? fdopen(descriptor, "w") : NULL;
    int failed = stream == NULL;
    for (size_t index = 0; !failed && index < count; index++) {
        struct stat status;
        failed = fstatat(directory, names[index], &status, AT_SYMLINK_NOFOLLOW) != 0 ||
                 fprintf(stream, "%" PRIu64 " %s\n", (uint64_t)status.st_ino, names[index]) < 0;
    }
    int failure = errno;
    if (stream != NULL && fclose(stream) != 0 && !failed) {
        failed = 1;
        failure = errno;
    } else if (stream == NULL && descriptor >= 0) {
        close(descriptor);
    }
    if (failed)
        return error_set(EXIT_WRITE, "cannot write: %s/%s: %s", path, SET_MANIFEST_NAME,
                         strerror(failure));
    return EXIT_OK;
}

int set_manifest_add(struct set_manifest *manifest, uint64_t inode, const char *name)
{
    if (manifest->count == manifest->capacity) {
        size_t capacity = manifest->capacity ? 2 * manifest->capacity : 16;
        struct set_entry *grown = realloc(manifest->entries, capacity * sizeof *grown);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "out of memory reading a set manifest");
        manifest->entries = grown;
        manifest->capacity = capacity;
    }
    char *copy = strdup(name);
    if (copy == NULL)
        return error_set(EXIT_OTHER, "out of memory reading a set manifest");
    manifest->entries[manifest->count++] = (struct set_entry){inode, copy};
    return EXIT_OK;
}

/* Writes the "INODE NAME" lines of MANIFEST into the new file DIRECTORY/NAME, synced. */
static int lines_write(int directory, const char *name, const struct set_manifest *manifest)
{
    int descriptor = openat(directory, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    FILE *stream = descriptor >= 0 ? fdopen(descriptor, "w") : NULL;
    int failed = stream == NULL;
    for (size_t index = 0; !failed && index < manifest->count; index++)
        failed = fprintf(stream, "%" PRIu64 " %s\n", manifest->entries[index].inode,
                         manifest->entries[index].name) < 0;
    failed = failed || fflush(stream) != 0 || fsync(descriptor) != 0;
    int failure = errno;
    if (stream != NULL)
        failed = fclose(stream) != 0 || failed;
    else if (descriptor >= 0)
        close(descriptor);
    errno = failure;
    return failed ? -1 : 0;
}

int set_manifest_save(int directory, const char *path, const char *name,
                      const struct set_manifest *manifest)
{
    char part[4200];
    snprintf(part, sizeof part, "%s.new", name);
    if (lines_write(directory, part, manifest) != 0 || renameat(directory, part, directory, name) != 0)
        return error_set(EXIT_WRITE, "cannot write: %s/%s: %s", path, name, strerror(errno));
    return EXIT_OK;
}

static int lines_read(FILE *stream, struct set_manifest *manifest)
{
    char line[NAME_MAX_LENGTH + 32];
    int result = EXIT_OK;
    while (result == EXIT_OK && fgets(line, sizeof line, stream) != NULL) {
        char *end = NULL;
        line[strcspn(line, "\n")] = '\0';
        errno = 0;
        uint64_t inode = strtoull(line, &end, 10);
        if (errno == 0 && end != line && *end == ' ' && set_entry_name_valid(end + 1))
            result = set_manifest_add(manifest, inode, end + 1);
    }
    return result;
}

static int names_compare(const void *left, const void *right)
{
    return strcmp(*(char *const *)left, *(char *const *)right);
}

int set_manifest_index(struct set_manifest *manifest)
{
    free(manifest->sorted);
    manifest->sorted = malloc((manifest->count ? manifest->count : 1) * sizeof *manifest->sorted);
    if (manifest->sorted == NULL)
        return error_set(EXIT_OTHER, "out of memory reading a set manifest");
    for (size_t index = 0; index < manifest->count; index++)
        manifest->sorted[index] = manifest->entries[index].name;
    qsort(manifest->sorted, manifest->count, sizeof *manifest->sorted, names_compare);
    return EXIT_OK;
}

int set_manifest_read(int directory, const char *name, struct set_manifest *manifest,
                      bool *found)
{
    *manifest = (struct set_manifest){0};
    int descriptor = openat(directory, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    *found = descriptor >= 0;
    if (descriptor < 0)
        return errno == ENOENT ? set_manifest_index(manifest)
                               : error_set(EXIT_WRITE, "cannot read: %s: %s", name, strerror(errno));
    FILE *stream = fdopen(descriptor, "r");
    if (stream == NULL) {
        close(descriptor);
        return error_set(EXIT_OTHER, "cannot read: %s: %s", name, strerror(errno));
    }
    int result = lines_read(stream, manifest);
    if (result == EXIT_OK)
        result = set_manifest_index(manifest);
    if (result == EXIT_OK && ferror(stream))
        result = error_set(EXIT_WRITE, "cannot read: %s: %s", name, strerror(errno));
    fclose(stream);
    if (result != EXIT_OK)
        set_manifest_free(manifest);
    return result;
}

bool set_manifest_has(const struct set_manifest *manifest, const char *name)
{
    return manifest->count != 0 && bsearch(&name, manifest->sorted, manifest->count,
                                           sizeof *manifest->sorted, names_compare) != NULL;
}

void set_manifest_free(struct set_manifest *manifest)
{
    for (size_t index = 0; index < manifest->count; index++)
        free(manifest->entries[index].name);
    free(manifest->entries);
    free(manifest->sorted);
    *manifest = (struct set_manifest){0};
}
