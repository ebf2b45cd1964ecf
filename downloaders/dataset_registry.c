/* The list of dataset records (each beside its downloader's files), built-in (from
   downloaders/datasets.def) then extra (from manifests), and the one lookup by name and format. */
#include "dataset_registry.h"

#include "common/base/error.h"
#include "downloaders/manifest.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const struct dataset *const datasets[] = {
#define DATASET(identifier, fixture_place, card) &identifier##_dataset,
#include "downloaders/datasets.def"
#undef DATASET
    NULL,
};

/* The manifests loaded and the whole list, built-ins first. */
static struct manifest *manifests;
static size_t manifest_count;
static const struct dataset **everything;

const struct dataset *const *dataset_list(void)
{
    return everything != NULL ? everything : datasets;
}

void dataset_registry_free(void)
{
    for (size_t index = 0; index < manifest_count; index++)
        manifest_free(&manifests[index]);
    free(manifests);
    free(everything);
    manifests = NULL;
    manifest_count = 0;
    everything = NULL;
}

/* The dataset already listed under NAME, NULL when none. */
static const struct dataset *listed(const char *name)
{
    const struct dataset *const *list = dataset_list();
    for (size_t index = 0; list[index] != NULL; index++)
        if (strcmp(list[index]->name, name) == 0)
            return list[index];
    return NULL;
}

static size_t list_length(const struct dataset *const *list)
{
    size_t count = 0;
    while (list[count] != NULL)
        count++;
    return count;
}

/* Appends MANIFEST's datasets to the list; a name listed before is a clash, as in Fuel. */
static int list_extend(const struct manifest *manifest)
{
    for (size_t index = 0; index < manifest->dataset_count; index++) {
        const char *name = manifest->datasets[index].name;
        const struct dataset *other = listed(name);
        if (other != NULL && other->manifest == NULL)
            return error_set(EXIT_USAGE, "name clash: %s: $.datasets.%s: %s is a built-in dataset",
                             manifest->path, name, name);
        if (other != NULL)
            return error_set(EXIT_USAGE, "name clash: %s: $.datasets.%s: %s is declared by %s too",
                             manifest->path, name, name, other->manifest);
    }
    size_t count = list_length(dataset_list());
    const struct dataset **grown =
        malloc((count + manifest->dataset_count + 1) * sizeof *grown);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "cannot load manifests: out of memory");
    memcpy(grown, dataset_list(), count * sizeof *grown);
    for (size_t index = 0; index < manifest->dataset_count; index++)
        grown[count + index] = &manifest->datasets[index];
    grown[count + manifest->dataset_count] = NULL;
    free(everything);
    everything = grown;
    return EXIT_OK;
}

static int manifest_add(const char *path)
{
    struct manifest *grown = realloc(manifests, (manifest_count + 1) * sizeof *grown);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "cannot load manifests: out of memory");
    manifests = grown;
    int result = manifest_load(&manifests[manifest_count], path);
    if (result != EXIT_OK)
        return result;
    manifest_count++;
    result = list_extend(&manifests[manifest_count - 1]);
    return result;
}

static int json_file(const struct dirent *entry)
{
    size_t length = strlen(entry->d_name);
    return entry->d_name[0] != '.' && length > 5 &&
           strcmp(entry->d_name + length - 5, ".json") == 0;
}

static int directory_add(const char *directory)
{
    struct dirent **entries;
    int count = scandir(directory, &entries, json_file, alphasort), result = EXIT_OK;
    if (count < 0)
        return error_set(EXIT_USAGE, "cannot read manifests: %s: %s", directory, strerror(errno));
    for (int index = 0; index < count; index++) {
        char path[4096];
        const char *separator = directory[strlen(directory) - 1] == '/' ? "" : "/";
        if (result == EXIT_OK &&
            snprintf(path, sizeof path, "%s%s%s", directory, separator, entries[index]->d_name) >=
                (int)sizeof path)
            result = error_set(EXIT_USAGE, "cannot read manifest: %s/%s: name too long",
                               directory, entries[index]->d_name);
        if (result == EXIT_OK)
            result = manifest_add(path);
        free(entries[index]);
    }
    free(entries);
    return result;
}

int dataset_registry_load(char *const *entries, size_t count)
{
    for (size_t index = 0; index < count; index++) {
        struct stat status;
        bool directory = stat(entries[index], &status) == 0 && S_ISDIR(status.st_mode);
        int result = directory ? directory_add(entries[index]) : manifest_add(entries[index]);
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}

bool dataset_has_formats(const char *name)
{
    const struct dataset *const *list = dataset_list();
    for (size_t index = 0; list[index] != NULL; index++)
        if (strcmp(list[index]->name, name) == 0 && list[index]->variant != NULL)
            return true;
    return false;
}

void dataset_format_list(const char *name, const char *separator, char *text, size_t size)
{
    const struct dataset *const *list = dataset_list();
    text[0] = '\0';
    for (size_t index = 0; list[index] != NULL; index++) {
        if (strcmp(list[index]->name, name) != 0 || list[index]->variant == NULL)
            continue;
        size_t used = strlen(text);
        snprintf(text + used, size - used, "%s%s", used > 0 ? separator : "", list[index]->variant);
    }
}

/* A dataset without formats matches only when no format is given, one with formats its own. */
static bool format_matches(const struct dataset *dataset, const char *variant)
{
    if (dataset->variant == NULL || variant == NULL)
        return dataset->variant == NULL && variant == NULL;
    return strcmp(dataset->variant, variant) == 0;
}

enum dataset_lookup dataset_find(const char *name, const char *variant,
                                 const struct dataset **found)
{
    const struct dataset *const *list = dataset_list();
    bool known = false;
    *found = NULL;
    for (size_t index = 0; list[index] != NULL; index++) {
        const struct dataset *dataset = list[index];
        if (strcmp(dataset->name, name) != 0)
            continue;
        known = true;
        if (dataset->variant == NULL && variant != NULL)
            return DATASET_FORMAT_UNEXPECTED;
        if (format_matches(dataset, variant)) {
            *found = dataset;
            return DATASET_FOUND;
        }
    }
    if (!known)
        return DATASET_UNKNOWN;
    return variant == NULL ? DATASET_FORMAT_MISSING : DATASET_FORMAT_UNKNOWN;
}

bool dataset_converts(const struct dataset *dataset)
{
    return dataset->converter != NULL;
}
