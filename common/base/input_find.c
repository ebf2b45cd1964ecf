/* Finds the file holding a recorded size and sha256 among directories, by name, then by size. */
#include "input_find.h"

#include "common/base/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Hashes the open DESCRIPTOR to its end. */
static int descriptor_hash(int descriptor, const char *path, char hex[HASH_HEX_SIZE],
                           uint64_t *size)
{
    struct hash *hash;
    int result = hash_begin(&hash, HASH_SHA256);
    unsigned char buffer[1 << 16];
    *size = 0;
    for (ssize_t got; result == EXIT_OK && (got = read(descriptor, buffer, sizeof buffer)) != 0;) {
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            hash_discard(hash);
            return error_set(EXIT_OTHER, "cannot read: %s: %s", path, strerror(errno));
        }
        hash_update(hash, buffer, (size_t)got);
        *size += (uint64_t)got;
    }
    if (result == EXIT_OK)
        hash_finish(hash, hex);
    return result;
}

/* Whether PATH is a regular file of WANTED's size and bytes: opened without blocking (a FIFO never
   holds it up), read only once fstat shows a regular file of the recorded size; its size into
   SEARCH, and its sha256 when it was read. */
static int candidate_check(const struct input_wanted *wanted, const char *path,
                           struct input_search *search, bool *matches, bool *hashed)
{
    struct stat status;
    *matches = *hashed = false;
    search->sha256[0] = '\0';
    int descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (descriptor < 0)
        return EXIT_OK; /* unreadable, or gone meanwhile: not this one */
    int result = EXIT_OK;
    if (fstat(descriptor, &status) == 0 && S_ISREG(status.st_mode)) {
        search->size = (uint64_t)status.st_size;
        if (search->size == wanted->size)
            result = descriptor_hash(descriptor, path, search->sha256, &search->size);
        *hashed = result == EXIT_OK && search->sha256[0] != '\0';
    }
    close(descriptor);
    *matches = *hashed && search->size == wanted->size &&
               strcmp(search->sha256, wanted->sha256) == 0;
    return result;
}

/* A recorded name that climbs ("../") or is absolute is never joined to a searched folder: only
   its last part is, so no name leads out of the folders given. */
static const char *contained_name(const char *name)
{
    bool climbs = name[0] == '/' || strcmp(name, "..") == 0 || strncmp(name, "../", 3) == 0 ||
                  strstr(name, "/../") != NULL ||
                  (strlen(name) >= 3 && strcmp(name + strlen(name) - 3, "/..") == 0);
    const char *last = strrchr(name, '/');
    return climbs && last != NULL ? last + 1 : name;
}

/* DIRECTORY/NAME for each directory; the first of them noted as changed when none matches. */
static int by_name(const struct input_wanted *wanted, const char *const *directories,
                   size_t count, struct input_search *search)
{
    struct input_search changed = {.state = INPUT_SEARCH_NOT_FOUND};
    for (size_t index = 0; index < count; index++) {
        char path[PATH_MAX];
        bool matches, hashed;
        struct stat status;
        const char *name = contained_name(wanted->name);
        if (name[0] == '\0' || strcmp(name, "..") == 0 ||
            snprintf(path, sizeof path, "%s/%s", directories[index], name) >= (int)sizeof path ||
            stat(path, &status) != 0 || S_ISDIR(status.st_mode))
            continue;
        int result = candidate_check(wanted, path, search, &matches, &hashed);
        if (result != EXIT_OK)
            return result;
        if (matches) {
            snprintf(search->path, sizeof search->path, "%s", path);
            search->state = INPUT_SEARCH_FOUND;
            return EXIT_OK;
        }
        if (changed.state == INPUT_SEARCH_NOT_FOUND && S_ISREG(status.st_mode)) {
            changed = *search; /* another size: not read, its sha256 left empty */
            changed.state = INPUT_SEARCH_CHANGED;
            snprintf(changed.path, sizeof changed.path, "%s", path);
        }
    }
    *search = changed;
    return EXIT_OK;
}

/* Every regular file of DIRECTORY of WANTED's size but its recorded name. */
static int by_size(const struct input_wanted *wanted, const char *directory,
                   struct input_search *search, bool *found)
{
    DIR *listing = opendir(directory);
    struct dirent *entry;
    int result = EXIT_OK;
    *found = false;
    while (listing != NULL && !*found && result == EXIT_OK &&
           (entry = readdir(listing)) != NULL) {
        char path[PATH_MAX];
        struct input_search candidate;
        bool hashed;
        if (strcmp(entry->d_name, contained_name(wanted->name)) == 0 ||
            strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0 ||
            snprintf(path, sizeof path, "%s/%s", directory, entry->d_name) >= (int)sizeof path)
            continue;
        result = candidate_check(wanted, path, &candidate, found, &hashed);
        if (*found) {
            *search = candidate;
            search->state = INPUT_SEARCH_FOUND;
            snprintf(search->path, sizeof search->path, "%s", path);
        }
    }
    if (listing != NULL)
        closedir(listing);
    return result;
}

int input_find(const struct input_wanted *wanted, const char *const *directories, size_t count,
               struct input_search *search)
{
    int result = by_name(wanted, directories, count, search);
    for (size_t index = 0; result == EXIT_OK && search->state != INPUT_SEARCH_FOUND &&
                           index < count; index++) {
        bool found;
        struct input_search changed = *search;
        result = by_size(wanted, directories[index], search, &found);
        if (!found)
            *search = changed;
    }
    return result;
}
