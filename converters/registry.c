/* The dataset records, each a downloader's file table and a converter, the list of them,
   built-in then extra (from manifests), and the one lookup by name and format. */
#include "registry.h"

#include "common/base/error.h"
#include "downloaders/adult.h"
#include "downloaders/binarized_mnist.h"
#include "downloaders/caltech101_silhouettes.h"
#include "downloaders/celeba.h"
#include "downloaders/cifar10.h"
#include "downloaders/cifar100.h"
#include "downloaders/ilsvrc2010.h"
#include "downloaders/ilsvrc2012.h"
#include "downloaders/dogs_vs_cats.h"
#include "downloaders/iris.h"
#include "downloaders/manifest.h"
#include "downloaders/mnist.h"
#include "downloaders/svhn.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The converters, each in converters/NAME.c. */
extern const struct converter adult_converter, binarized_mnist_converter,
    caltech101_silhouettes_16_converter, caltech101_silhouettes_28_converter, celeba_64_converter,
    celeba_aligned_cropped_converter, cifar10_converter, cifar100_converter, dogs_vs_cats_converter,
    fashion_mnist_converter, ilsvrc2010_converter, ilsvrc2012_converter, iris_converter,
    mnist_converter, svhn_format_1_converter, svhn_format_2_converter;

#define FILES(table) .files = table, .file_count = sizeof table / sizeof table[0]

const struct dataset adult_dataset = {
    .name = "adult",
    .summary = "UCI census income rows, >50K or not, 30162 train + 15060 test",
    FILES(adult_files),
    .converter = &adult_converter,
};

const struct dataset binarized_mnist_dataset = {
    .name = "binarized_mnist",
    .summary = "MNIST thresholded to 0/1, 50000 train + 10000 valid + 10000 test",
    FILES(binarized_mnist_files),
    .converter = &binarized_mnist_converter,
};

const struct dataset caltech101_silhouettes_16_dataset = {
    .name = "caltech101_silhouettes",
    .variant = "16",
    .summary = "CalTech 101 object silhouettes, 16x16, 4082 train + 2257 valid + 2302 test",
    FILES(caltech101_silhouettes_16_files),
    .converter = &caltech101_silhouettes_16_converter,
};

const struct dataset caltech101_silhouettes_28_dataset = {
    .name = "caltech101_silhouettes",
    .variant = "28",
    .summary = "CalTech 101 object silhouettes, 28x28, 4100 train + 2264 valid + 2307 test",
    FILES(caltech101_silhouettes_28_files),
    .converter = &caltech101_silhouettes_28_converter,
};

const struct dataset celeba_aligned_cropped_dataset = {
    .name = "celeba",
    .variant = "aligned_cropped",
    .summary = "202599 celebrity faces, 178x218, with 40 attributes each",
    FILES(celeba_files),
    .converter = &celeba_aligned_cropped_converter,
};

const struct dataset celeba_64_dataset = {
    .name = "celeba",
    .variant = "64",
    .summary = "202599 celebrity faces resized and cropped to 64x64, with 40 attributes each",
    FILES(celeba_files),
    .converter = &celeba_64_converter,
};

const struct dataset cifar10_dataset = {
    .name = "cifar10",
    .summary = "10 classes of 32x32 colour images, 50000 train + 10000 test",
    FILES(cifar10_files),
    .converter = &cifar10_converter,
};

const struct dataset cifar100_dataset = {
    .name = "cifar100",
    .summary = "100 classes of 32x32 colour images, 50000 train + 10000 test",
    FILES(cifar100_files),
    .converter = &cifar100_converter,
};

const struct dataset dogs_vs_cats_dataset = {
    .name = "dogs_vs_cats",
    .summary = "Kaggle's photos of cats and dogs, 25000 labelled + 12500 test, sizes vary",
    FILES(dogs_vs_cats_files),
    .converter = &dogs_vs_cats_converter,
};

const struct dataset fashion_mnist_dataset = {
    .name = "fashion_mnist",
    .summary = "Zalando's article images, 60000 train + 10000 test 28x28, MNIST's layout",
    FILES(fashion_mnist_files),
    .converter = &fashion_mnist_converter,
};

const struct dataset ilsvrc2010_dataset = {
    .name = "ilsvrc2010",
    .summary = "ImageNet 2010: 1,000 classes, 1261406 train + 50000 valid + 150000 test JPEGs "
               "(images not public)",
    FILES(ilsvrc2010_files),
    .converter = &ilsvrc2010_converter,
};

const struct dataset ilsvrc2012_dataset = {
    .name = "ilsvrc2012",
    .summary = "ImageNet 2012: 1,000 classes, 1281167 train + 50000 valid + 100000 test JPEGs "
               "(not public)",
    FILES(ilsvrc2012_files),
    .converter = &ilsvrc2012_converter,
};

const struct dataset iris_dataset = {
    .name = "iris",
    .summary = "Fisher's 150 iris flowers, 4 measurements and a species each",
    FILES(iris_files),
    .converter = &iris_converter,
};

const struct dataset mnist_dataset = {
    .name = "mnist",
    .summary = "handwritten digits, 60000 train + 10000 test 28x28 images",
    FILES(mnist_files),
    .converter = &mnist_converter,
};

const struct dataset svhn_format_1_dataset = {
    .name = "svhn",
    .variant = "1",
    .summary = "street view house numbers, full images with digit boxes (format 1)",
    FILES(svhn_format_1_files),
    .converter = &svhn_format_1_converter,
};

const struct dataset svhn_format_2_dataset = {
    .name = "svhn",
    .variant = "2",
    .summary = "street view house numbers, cropped 32x32 digits (format 2)",
    FILES(svhn_format_2_files),
    .converter = &svhn_format_2_converter,
};

const struct dataset *const datasets[] = {
    &adult_dataset,
    &binarized_mnist_dataset,
    &caltech101_silhouettes_16_dataset,
    &caltech101_silhouettes_28_dataset,
    &celeba_aligned_cropped_dataset,
    &celeba_64_dataset,
    &cifar10_dataset,
    &cifar100_dataset,
    &dogs_vs_cats_dataset,
    &fashion_mnist_dataset,
    &ilsvrc2010_dataset,
    &ilsvrc2012_dataset,
    &iris_dataset,
    &mnist_dataset,
    &svhn_format_1_dataset,
    &svhn_format_2_dataset,
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
