/* Resolves the FILE|NAME argument of info, path, serve, export, preview, cache and fixture --from;
   a name found in an s3:// data path entry is read through its verified local copy, or in place
   by the commands that read a few blocks. */
#include "file_resolve.h"

#include "common/base/config.h"
#include "common/base/error.h"
#include "common/base/suggest.h"
#include "s3/s3_cache.h"
#include "s3/s3_data_path.h"
#include "common/download/s3_location.h"
#include "converters/conversion.h"
#include "downloaders/dataset_registry.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { CANDIDATE_MAX = 8, NAME_BYTES = 256 };

struct candidates {
    char names[CANDIDATE_MAX][NAME_BYTES];
    size_t count;
};

/* Whether NAME ends in .hdf5, .hdf or .h5 (publish_file_name's extensions). */
static bool has_extension(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot != NULL && (strcmp(dot, ".hdf5") == 0 || strcmp(dot, ".hdf") == 0 ||
                           strcmp(dot, ".h5") == 0);
}

/* The default output names of the datasets called ARGUMENT (one per format), else ARGUMENT.hdf5. */
static void candidates_list(const char *argument, struct candidates *candidates)
{
    const struct dataset *const *list = dataset_list();
    for (size_t index = 0; list[index] != NULL && candidates->count < CANDIDATE_MAX; index++) {
        const struct dataset *dataset = list[index];
        if (strcmp(dataset->name, argument) != 0 || !dataset_converts(dataset))
            continue;
        struct conversion_request defaults;
        conversion_request_init(&defaults, dataset);
        conversion_output_name(&defaults, candidates->names[candidates->count++], NAME_BYTES);
    }
    if (candidates->count == 0 && !has_extension(argument))
        snprintf(candidates->names[candidates->count++], NAME_BYTES, "%s.hdf5", argument);
}

/* The names of CANDIDATES, ", "-joined, into TEXT. */
static void candidates_join(const struct candidates *candidates, const bool *found, char *text,
                       size_t size)
{
    size_t used = 0;
    text[0] = '\0';
    for (size_t index = 0; index < candidates->count && used < size; index++)
        if (found == NULL || found[index])
            used += (size_t)snprintf(text + used, size - used, "%s%s", used > 0 ? ", " : "",
                                     candidates->names[index]);
}

/* Whether a file of the dataset NAME's candidates is in CONFIG's data path. */
static bool converted(const struct fuel_config *config, const char *name)
{
    struct candidates candidates = {.count = 0};
    candidates_list(name, &candidates);
    char match[4096];
    for (size_t index = 0; index < candidates.count; index++)
        if (data_path_search(config, candidates.names[index], match, sizeof match, NULL) == EXIT_OK)
            return true;
    return false;
}

/* Offers SUGGESTION the data path's HDF5 file names, copied into NAMES (room for MAXIMUM). */
static void offer_files(const struct fuel_config *config, struct suggestion *suggestion,
                        char (*names)[NAME_BYTES], size_t maximum)
{
    size_t count = 0;
    for (size_t index = 0; index < config->data_path.count; index++) {
        DIR *listing = opendir(config->data_path.items[index]);
        for (struct dirent *entry; listing != NULL && (entry = readdir(listing)) != NULL;)
            if (count < maximum && entry->d_name[0] != '.' && has_extension(entry->d_name) &&
                strlen(entry->d_name) < NAME_BYTES) {
                snprintf(names[count], NAME_BYTES, "%s", entry->d_name);
                suggestion_offer(suggestion, names[count++]);
            }
        if (listing != NULL)
            closedir(listing);
    }
}

/* "; did you mean `mnist.hdf5`?" for ARGUMENT, which resolves nowhere: the closest of the data
   path's HDF5 files and of the datasets converted there; "" when none is close. */
static void closest_names(const struct fuel_config *config, const char *argument, char *text,
                          size_t size)
{
    enum { OFFERED_MAX = 256 };
    char(*names)[NAME_BYTES] = malloc(OFFERED_MAX * sizeof *names);
    struct suggestion suggestion;
    suggestion_begin(&suggestion, argument);
    if (names != NULL)
        offer_files(config, &suggestion, names, OFFERED_MAX);
    const struct dataset *const *list = dataset_list();
    for (size_t index = 0; list[index] != NULL; index++)
        if ((index == 0 || strcmp(list[index - 1]->name, list[index]->name) != 0) &&
            converted(config, list[index]->name))
            suggestion_offer(&suggestion, list[index]->name);
    char mean[512];
    text[0] = '\0';
    if (suggestion_text(&suggestion, mean, sizeof mean))
        snprintf(text, size, "; %s", mean);
    free(names);
    error_clear();
}

/* Why ARGUMENT resolved nowhere, from data_path_find's message. Given as a FILE, a name with an
   HDF5 extension is a path the user meant: "no such file", and the data path advised only for
   dataset names. */
static void missing_describe(const struct fuel_config *config, const char *argument, bool file,
                             char *reason, size_t size)
{
    const char *searched = strstr(error_message(), ": searched ");
    if (!file || !has_extension(argument))
        snprintf(reason, size, "%s", error_message());
    else if (config->data_path.count == 0 || searched == NULL)
        snprintf(reason, size, "no such file: %s", argument);
    else
        snprintf(reason, size, "no such file: %s, nor in the data path%s", argument, searched);
}

static int find_candidates(const struct fuel_config *config, const char *argument, bool file,
                           char *path, size_t size)
{
    struct candidates candidates = {.count = 0};
    candidates_list(argument, &candidates);
    bool found[CANDIDATE_MAX] = {false};
    size_t found_count = 0;
    char first[4096] = "";
    for (size_t index = 0; index < candidates.count; index++) {
        char match[4096];
        int code = data_path_search(config, candidates.names[index], match, sizeof match, NULL);
        if (code != EXIT_OK && code != EXIT_MISSING_INPUT)
            return code;
        if (code != EXIT_OK)
            continue;
        found[index] = true;
        if (found_count++ == 0)
            snprintf(first, sizeof first, "%s", match);
    }
    error_clear();
    char names[1024];
    if (found_count > 1) {
        candidates_join(&candidates, found, names, sizeof names);
        return error_set(EXIT_USAGE, "ambiguous: %s names several files in the data path: %s",
                         argument, names);
    }
    if (found_count == 1) {
        if (snprintf(path, size, "%s", first) >= (int)size)
            return error_set(EXIT_USAGE, "path too long: %s", first);
        return EXIT_OK;
    }
    candidates_join(&candidates, NULL, names, sizeof names);
    int result = data_path_search(config, argument, path, size, NULL);
    if (result == EXIT_MISSING_INPUT) {
        char reason[2048], closest[600];
        missing_describe(config, argument, file, reason, sizeof reason);
        closest_names(config, argument, closest, sizeof closest);
        if (candidates.count > 0)
            result = error_set(EXIT_MISSING_INPUT, "%s (also looked for %s)%s", reason, names,
                               closest);
        else
            result = error_set(EXIT_MISSING_INPUT, "%s%s", reason, closest);
    }
    return result;
}

/* An s3:// ARGUMENT: its verified copy in the local data path (else ~/.cache/fuel). */
void local_copies_directory(const struct fuel_config *config, char *directory, size_t size)
{
    const char *home = getenv("HOME");
    if (config->local_data_path != NULL && config->local_data_path[0] != '\0')
        snprintf(directory, size, "%s", config->local_data_path);
    else
        snprintf(directory, size, "%s/.cache/fuel", home != NULL ? home : "");
}

static int object_resolve(const char *argument, char *path, size_t size)
{
    struct fuel_config config = {0};
    int result = config_load(&config);
    char local[4096];
    local_copies_directory(&config, local, sizeof local);
    bool copied;
    if (result == EXIT_OK)
        result = s3_cache(argument, local, PROGRESS_QUIET, path, size, &copied);
    config_free(&config);
    return result;
}

static int data_path_resolve_name(const char *argument, bool file, char *path, size_t size)
{
    struct fuel_config config = {0};
    int result = config_load(&config);
    if (result != EXIT_OK)
        return result;
    result = data_path_search(&config, argument, path, size, NULL);
    if (result == EXIT_MISSING_INPUT) {
        error_clear();
        result = find_candidates(&config, argument, file, path, size);
    }
    config_free(&config);
    return result;
}

/* ARGUMENT's file; an object (given, or found in an s3:// data path entry) is its verified local
   copy when COPY, else its s3:// URL. */
static int resolve(const char *argument, bool copy, char *path, size_t size)
{
    if (s3_is_url(argument) && copy)
        return object_resolve(argument, path, size);
    struct stat status;
    bool exists = s3_is_url(argument) || stat(argument, &status) == 0 || errno != ENOENT;
    if (!exists && strchr(argument, '/') != NULL)
        return error_set(EXIT_MISSING_INPUT, "no such file: %s", argument);
    if (exists) {
        if (snprintf(path, size, "%s", argument) >= (int)size)
            return error_set(EXIT_USAGE, "path too long: %s", argument);
        return EXIT_OK;
    }
    int result = data_path_resolve_name(argument, true, path, size);
    if (result != EXIT_OK || !copy || !s3_is_url(path))
        return result;
    char url[4096];
    snprintf(url, sizeof url, "%s", path);
    return object_resolve(url, path, size);
}

int file_resolve(const char *argument, char *path, size_t size)
{
    return resolve(argument, true, path, size);
}

int file_resolve_in_data_path(const char *argument, char *path, size_t size)
{
    return data_path_resolve_name(argument, false, path, size);
}

int file_resolves(const char *argument)
{
    char path[4096];
    int resolves = resolve(argument, false, path, sizeof path) == EXIT_OK;
    error_clear();
    return resolves;
}

int file_resolve_in_place(const char *program, const char *argument, struct s3_in_place *place,
                          bool *in_place, char *path, size_t size)
{
    char why[64], url[4096];
    *in_place = false;
    /* A name found in an s3:// data path entry is read as the object it names. */
    int result = resolve(argument, false, url, sizeof url);
    if (result == EXIT_OK && !s3_is_url(url) && snprintf(path, size, "%s", url) >= (int)size)
        result = error_set(EXIT_USAGE, "path too long: %s", url);
    if (result != EXIT_OK || !s3_is_url(url))
        return result;
    result = s3_in_place_prepare(place, url, in_place, why, sizeof why);
    if (result == EXIT_OK && *in_place)
        snprintf(path, size, "%s", url);
    else if (result == EXIT_OK)
        fprintf(stderr, "%s: reading the local copy of %s: HDF5's S3 driver cannot use %s\n",
                program, url, why);
    if (result != EXIT_OK || *in_place)
        return result;
    s3_in_place_free(place);
    return object_resolve(url, path, size);
}
