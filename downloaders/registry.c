/* The list of downloaders, built-in then extra (from manifests), and lookups by name and format
   variant. */
#include "downloader.h"

#include "common/base/error.h"
#include "manifest.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

extern const struct downloader mnist_downloader;
extern const struct downloader fashion_mnist_downloader;
extern const struct downloader binarized_mnist_downloader;
extern const struct downloader cifar10_downloader;
extern const struct downloader cifar100_downloader;
extern const struct downloader svhn_format_1_downloader;
extern const struct downloader svhn_format_2_downloader;
extern const struct downloader iris_downloader;

const struct downloader *const downloaders[] = {
    &binarized_mnist_downloader,
    &cifar10_downloader,
    &cifar100_downloader,
    &fashion_mnist_downloader,
    &iris_downloader,
    &mnist_downloader,
    &svhn_format_1_downloader,
    &svhn_format_2_downloader,
    NULL,
};

/* The manifests loaded and the whole list, built-ins first. */
static struct manifest *manifests;
static size_t manifest_count;
static const struct downloader **everything;

const struct downloader *const *downloader_list(void)
{
    return everything != NULL ? everything : downloaders;
}

void downloader_registry_free(void)
{
    for (size_t index = 0; index < manifest_count; index++)
        manifest_free(&manifests[index]);
    free(manifests);
    free(everything);
    manifests = NULL;
    manifest_count = 0;
    everything = NULL;
}

/* The downloader already listed under NAME, NULL when none. */
static const struct downloader *listed(const char *name)
{
    const struct downloader *const *list = downloader_list();
    for (size_t index = 0; list[index] != NULL; index++)
        if (strcmp(list[index]->name, name) == 0)
            return list[index];
    return NULL;
}

static size_t list_length(const struct downloader *const *list)
{
    size_t count = 0;
    while (list[count] != NULL)
        count++;
    return count;
}

/* Appends MANIFEST's downloaders to the list; a name listed before is a clash, as in Fuel. */
static int list_extend(const struct manifest *manifest)
{
    for (size_t index = 0; index < manifest->downloader_count; index++) {
        const char *name = manifest->downloaders[index].name;
        const struct downloader *other = listed(name);
        if (other != NULL && other->manifest == NULL)
            return error_set(EXIT_USAGE, "name clash: %s: $.datasets.%s: %s is a built-in dataset",
                             manifest->path, name, name);
        if (other != NULL)
            return error_set(EXIT_USAGE, "name clash: %s: $.datasets.%s: %s is declared by %s too",
                             manifest->path, name, name, other->manifest);
    }
    size_t count = list_length(downloader_list());
    const struct downloader **grown =
        malloc((count + manifest->downloader_count + 1) * sizeof *grown);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "cannot load manifests: out of memory");
    memcpy(grown, downloader_list(), count * sizeof *grown);
    for (size_t index = 0; index < manifest->downloader_count; index++)
        grown[count + index] = &manifest->downloaders[index];
    grown[count + manifest->downloader_count] = NULL;
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

int downloader_registry_load(char *const *entries, size_t count)
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

static int variant_matches(const struct downloader *downloader, const char *variant)
{
    if (downloader->variant == NULL || variant == NULL)
        return downloader->variant == NULL && variant == NULL;
    return strcmp(downloader->variant, variant) == 0;
}

const struct downloader *downloader_find(const char *name, const char *variant)
{
    const struct downloader *const *list = downloader_list();
    for (size_t index = 0; list[index] != NULL; index++)
        if (strcmp(list[index]->name, name) == 0 && variant_matches(list[index], variant))
            return list[index];
    return NULL;
}

int downloader_has_variants(const char *name)
{
    const struct downloader *const *list = downloader_list();
    for (size_t index = 0; list[index] != NULL; index++)
        if (strcmp(list[index]->name, name) == 0 && list[index]->variant != NULL)
            return 1;
    return 0;
}
