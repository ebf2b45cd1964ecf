/* Finds the file holding a recorded size and sha256 among directories, by name, then by size. */
#include "input_find.h"

#include "common/base/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
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

bool input_find_occupied(const struct input_wanted *wanted, const char *const *directories,
                         size_t count, char path[PATH_MAX], struct stat *status)
{
    const char *name = contained_name(wanted->name);
    for (size_t index = 0; index < count; index++)
        if (name[0] != '\0' && strcmp(name, "..") != 0 &&
            snprintf(path, PATH_MAX, "%s/%s", directories[index], name) < PATH_MAX &&
            stat(path, status) == 0 && !S_ISREG(status->st_mode))
            return true;
    return false;
}

struct listed_file {
    uint64_t size;
    size_t order; /* its place in the directory's listing: ties keep readdir's order */
    char *name;
};

struct listed_directory {
    struct listed_file *files;
    size_t count;
    struct listed_file **named; /* the same files, sorted by name */
    char **others;              /* the names of what is there but not a regular file, sorted */
    size_t other_count;
};

struct input_listing {
    const char *const *directories;
    size_t count;
    struct listed_directory *listed;
};

static int compare_files(const void *left, const void *right)
{
    const struct listed_file *a = left, *b = right;
    if (a->size != b->size)
        return a->size < b->size ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

static int compare_names(const void *left, const void *right)
{
    return strcmp((*(struct listed_file *const *)left)->name,
                  (*(struct listed_file *const *)right)->name);
}

static int compare_strings(const void *left, const void *right)
{
    return strcmp(*(char *const *)left, *(char *const *)right);
}

/* NAME kept among LISTED's other entries (a directory, a FIFO): false when memory runs out. */
static bool other_keep(struct listed_directory *listed, const char *name, size_t *capacity)
{
    if (listed->other_count == *capacity) {
        size_t grown = *capacity == 0 ? 16 : 2 * *capacity;
        char **others = realloc(listed->others, grown * sizeof *others);
        if (others == NULL)
            return false;
        listed->others = others;
        *capacity = grown;
    }
    if ((listed->others[listed->other_count] = strdup(name)) == NULL)
        return false;
    listed->other_count++;
    return true;
}

/* DIRECTORY's regular files (as stat sees them), sorted by size and by name; none when it cannot
   be read. */
static int directory_list(const char *directory, struct listed_directory *listed)
{
    DIR *listing = opendir(directory);
    size_t capacity = 0, other_capacity = 0;
    int result = EXIT_OK;
    for (struct dirent *entry; listing != NULL && result == EXIT_OK &&
                               (entry = readdir(listing)) != NULL;) {
        struct stat status;
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0 ||
            fstatat(dirfd(listing), entry->d_name, &status, 0) != 0)
            continue;
        if (!S_ISREG(status.st_mode)) {
            if (!other_keep(listed, entry->d_name, &other_capacity))
                result = error_set(EXIT_OTHER, "cannot list: %s: out of memory", directory);
            continue;
        }
        if (listed->count == capacity) {
            capacity = capacity == 0 ? 16 : 2 * capacity;
            struct listed_file *grown = realloc(listed->files, capacity * sizeof *grown);
            if (grown == NULL) {
                result = error_set(EXIT_OTHER, "cannot list: %s: out of memory", directory);
                break;
            }
            listed->files = grown;
        }
        struct listed_file *file = &listed->files[listed->count];
        *file = (struct listed_file){(uint64_t)status.st_size, listed->count,
                                     strdup(entry->d_name)};
        if (file->name == NULL)
            result = error_set(EXIT_OTHER, "cannot list: %s: out of memory", directory);
        else
            listed->count++;
    }
    if (listing != NULL)
        closedir(listing);
    if (listed->count > 0)
        qsort(listed->files, listed->count, sizeof *listed->files, compare_files);
    if (result == EXIT_OK &&
        (listed->named = calloc(listed->count + 1, sizeof *listed->named)) == NULL)
        result = error_set(EXIT_OTHER, "cannot list: %s: out of memory", directory);
    for (size_t index = 0; result == EXIT_OK && index < listed->count; index++)
        listed->named[index] = &listed->files[index];
    if (result == EXIT_OK && listed->count > 0)
        qsort(listed->named, listed->count, sizeof *listed->named, compare_names);
    if (listed->other_count > 0)
        qsort(listed->others, listed->other_count, sizeof *listed->others, compare_strings);
    return result;
}

/* Whether NAME may stand in LISTED's directory as a regular file: listed there, or a path below
   it (not listed, looked at). */
static bool maybe_listed(const struct listed_directory *listed, const char *name)
{
    if (strchr(name, '/') != NULL || listed->named == NULL)
        return true;
    struct listed_file wanted = {.name = (char *)name};
    const struct listed_file *key = &wanted;
    return bsearch(&key, listed->named, listed->count, sizeof *listed->named, compare_names) !=
           NULL;
}

int input_listing_create(struct input_listing **listing, const char *const *directories,
                         size_t count)
{
    *listing = calloc(1, sizeof **listing);
    struct listed_directory *listed = calloc(count > 0 ? count : 1, sizeof *listed);
    if (*listing == NULL || listed == NULL) {
        free(*listing);
        free(listed);
        *listing = NULL;
        return error_set(EXIT_OTHER, "out of memory");
    }
    **listing = (struct input_listing){directories, count, listed};
    int result = EXIT_OK;
    for (size_t index = 0; result == EXIT_OK && index < count; index++)
        result = directory_list(directories[index], &listed[index]);
    return result;
}

void input_listing_free(struct input_listing *listing)
{
    for (size_t index = 0; listing != NULL && index < listing->count; index++) {
        for (size_t file = 0; file < listing->listed[index].count; file++)
            free(listing->listed[index].files[file].name);
        free(listing->listed[index].files);
        free(listing->listed[index].named);
        for (size_t other = 0; other < listing->listed[index].other_count; other++)
            free(listing->listed[index].others[other]);
        free(listing->listed[index].others);
    }
    if (listing != NULL)
        free(listing->listed);
    free(listing);
}

/* DIRECTORY/NAME for each directory; the first of them noted as changed when none matches. A
   plain NAME the directory's listing lacks is not looked at again (a provenance may record a
   million inputs: a million stat calls). */
static int by_name(const struct input_wanted *wanted, const struct input_listing *listing,
                   struct input_search *search)
{
    struct input_search changed = {.state = INPUT_SEARCH_NOT_FOUND};
    const char *const *directories = listing->directories;
    for (size_t index = 0; index < listing->count; index++) {
        char path[PATH_MAX];
        bool matches, hashed;
        struct stat status;
        const char *name = contained_name(wanted->name);
        if (name[0] == '\0' || !maybe_listed(&listing->listed[index], name) ||
            strcmp(name, "..") == 0 ||
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

/* Every file of DIRECTORY listed of WANTED's size but its recorded name. */
static int by_size(const struct input_wanted *wanted, const char *directory,
                   const struct listed_directory *listed, struct input_search *search,
                   bool *found)
{
    size_t low = 0, high = listed->count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (listed->files[middle].size < wanted->size)
            low = middle + 1;
        else
            high = middle;
    }
    int result = EXIT_OK;
    *found = false;
    for (size_t index = low; !*found && result == EXIT_OK && index < listed->count &&
                             listed->files[index].size == wanted->size; index++) {
        const char *name = listed->files[index].name;
        char path[PATH_MAX];
        struct input_search candidate;
        bool hashed;
        if (strcmp(name, contained_name(wanted->name)) == 0 ||
            snprintf(path, sizeof path, "%s/%s", directory, name) >= (int)sizeof path)
            continue;
        result = candidate_check(wanted, path, &candidate, found, &hashed);
        if (*found) {
            *search = candidate;
            search->state = INPUT_SEARCH_FOUND;
            snprintf(search->path, sizeof search->path, "%s", path);
        }
    }
    return result;
}

int input_find_listed(const struct input_wanted *wanted, const struct input_listing *listing,
                      struct input_search *search)
{
    int result = by_name(wanted, listing, search);
    for (size_t index = 0; result == EXIT_OK && search->state != INPUT_SEARCH_FOUND &&
                           index < listing->count; index++) {
        bool found;
        struct input_search changed = *search;
        result = by_size(wanted, listing->directories[index], &listing->listed[index], search,
                         &found);
        if (!found)
            *search = changed;
    }
    return result;
}

bool input_find_listed_occupied(const struct input_wanted *wanted,
                                const struct input_listing *listing, char path[PATH_MAX],
                                struct stat *status)
{
    const char *name = contained_name(wanted->name);
    for (size_t index = 0; index < listing->count; index++) {
        const struct listed_directory *listed = &listing->listed[index];
        bool maybe = strchr(name, '/') != NULL ||
                     (listed->other_count > 0 &&
                      bsearch(&name, listed->others, listed->other_count, sizeof *listed->others,
                              compare_strings) != NULL);
        if (maybe && input_find_occupied(wanted, &listing->directories[index], 1, path, status))
            return true;
    }
    return false;
}

int input_find(const struct input_wanted *wanted, const char *const *directories, size_t count,
               struct input_search *search)
{
    struct input_listing *listing;
    int result = input_listing_create(&listing, directories, count);
    if (result == EXIT_OK)
        result = input_find_listed(wanted, listing, search);
    else
        search->state = INPUT_SEARCH_NOT_FOUND;
    input_listing_free(listing);
    return result;
}
