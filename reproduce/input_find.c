/* Finds the file holding a recorded size and sha256 among directories, by name, then by size. */
#include "input_find.h"

#include "common/base/error.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Whether PATH is a regular file of WANTED's size and bytes; its sha256 into SEARCH when hashed. */
static int candidate_check(const struct input_wanted *wanted, const char *path,
                           struct input_search *search, bool *matches, bool *hashed)
{
    struct stat status;
    *matches = *hashed = false;
    if (stat(path, &status) != 0 || !S_ISREG(status.st_mode))
        return EXIT_OK;
    search->size = (uint64_t)status.st_size;
    search->sha256[0] = '\0';
    if (search->size != wanted->size)
        return EXIT_OK;
    int result = hash_file(path, HASH_SHA256, search->sha256, &search->size);
    if (result == EXIT_MISSING_INPUT) { /* unreadable, or gone meanwhile: not this one */
        error_clear();
        return EXIT_OK;
    }
    *hashed = result == EXIT_OK;
    *matches = *hashed && search->size == wanted->size &&
               strcmp(search->sha256, wanted->sha256) == 0;
    return result;
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
        if (snprintf(path, sizeof path, "%s/%s", directories[index], wanted->name) >=
                (int)sizeof path ||
            stat(path, &status) != 0 || !S_ISREG(status.st_mode))
            continue;
        int result = candidate_check(wanted, path, search, &matches, &hashed);
        if (result != EXIT_OK)
            return result;
        if (matches) {
            snprintf(search->path, sizeof search->path, "%s", path);
            search->state = INPUT_SEARCH_FOUND;
            return EXIT_OK;
        }
        if (changed.state == INPUT_SEARCH_NOT_FOUND) {
            changed = *search;
            changed.state = INPUT_SEARCH_CHANGED;
            snprintf(changed.path, sizeof changed.path, "%s", path);
            if (!hashed) /* another size: its sha256 is not needed to tell */
                hash_file(path, HASH_SHA256, changed.sha256, &changed.size);
            error_clear();
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
        if (strcmp(entry->d_name, wanted->name) == 0 ||
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
