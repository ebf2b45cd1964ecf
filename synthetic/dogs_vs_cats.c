/* Dogs vs Cats raw fixture: dogs_vs_cats.train.zip (train/ then cat.N.jpg and dog.N.jpg) and
   dogs_vs_cats.test1.zip (test1/ then N.jpg from 1), members in name order as a zip tool adds a
   folder's files, photo-like JPEGs of the real sizes (most 500 wide or high, the other side
   around three quarters of it), all RGB; with --quirks the second member of each archive is
   grayscale, which fuel's converter stores with one channel and Python Fuel's cannot transpose. */
#include "fixture.h"
#include "downloaders/dogs_vs_cats.h"
#include "photos.h"

#include "common/base/error.h"
#include "common/formats/fixture_marker.h"
#include "common/formats/zip_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { QUALITY = 85, NAME_SIZE = 64, GRAYSCALE_MEMBER = 1 };

static const char *const splits[] = {"train", "test"};
static const char *const folders[] = {"train/", "test1/"};
static const enum dogs_vs_cats_file split_files[] = {DOGS_VS_CATS_TRAIN, DOGS_VS_CATS_TEST};

static int compare_names(const void *left, const void *right)
{
    return strcmp(left, right);
}

/* The members' names of SPLIT, sorted: cat.N.jpg / dog.N.jpg each numbered from 0, or N.jpg. */
static char (*member_names(const struct fixture_request *request, size_t split,
                           struct random_state *random))[NAME_SIZE]
{
    uint64_t count = request->examples[split], cats = 0, dogs = 0;
    char (*names)[NAME_SIZE] = calloc(count > 0 ? count : 1, NAME_SIZE);
    if (names == NULL)
        return NULL;
    for (uint64_t index = 0; index < count; index++) {
        if (split == 1)
            snprintf(names[index], NAME_SIZE, "%s%llu.jpg", folders[split],
                     (unsigned long long)index + 1);
        else if (random_below(random, 2) == 0)
            snprintf(names[index], NAME_SIZE, "%scat.%llu.jpg", folders[split],
                     (unsigned long long)cats++);
        else
            snprintf(names[index], NAME_SIZE, "%sdog.%llu.jpg", folders[split],
                     (unsigned long long)dogs++);
    }
    qsort(names, count, NAME_SIZE, compare_names);
    return names;
}

/* Most photos are 500 on their long side; landscape more often than portrait. */
static void photo_size(struct random_state *random, uint32_t *height, uint32_t *width)
{
    uint32_t along = random_below(random, 5) < 3 ? 500 : 300 + (uint32_t)random_below(random, 200);
    uint32_t across = (uint32_t)(along * random_between(random, 0.6, 0.8));
    bool landscape = random_below(random, 10) < 7;
    *width = landscape ? along : across;
    *height = landscape ? across : along;
}

static int members_write(const struct fixture_request *request, size_t split,
                         struct zip_writer *archive)
{
    struct random_state random;
    random_seed(&random, request->seed, split_files[split]);
    char (*names)[NAME_SIZE] = member_names(request, split, &random);
    if (names == NULL)
        return error_set(EXIT_OTHER, "cannot write the fixture: out of memory");
    struct jpeg_bytes jpeg = {0};
    int result = zip_writer_add_directory(archive, folders[split]);
    for (uint64_t index = 0; result == EXIT_OK && index < request->examples[split]; index++) {
        uint32_t height, width;
        photo_size(&random, &height, &width);
        uint32_t channels = request->quirks && index == GRAYSCALE_MEMBER ? 1 : 3;
        result = photo_jpeg(&random, height, width, channels, QUALITY, &jpeg);
        if (result == EXIT_OK)
            result = zip_writer_add_bytes(archive, names[index], jpeg.data, jpeg.size);
    }
    free(jpeg.data);
    free(names);
    return result;
}

static int archive_write(const struct fixture_request *request, const char *directory,
                         size_t split)
{
    char path[4096];
    fixture_file_path(request, split_files[split], directory, path, sizeof path);
    struct zip_writer *archive;
    int result = zip_writer_open(&archive, path, request->mtime, FIXTURE_MARKER);
    if (result != EXIT_OK)
        return result;
    result = members_write(request, split, archive);
    if (result != EXIT_OK) {
        zip_writer_abandon(archive);
        return result;
    }
    return zip_writer_close(archive);
}

static int dogs_vs_cats_write(const struct fixture_request *request, const char *directory)
{
    return fixture_write_splits(request, directory, 2, archive_write);
}

const struct raw_fixture dogs_vs_cats_fixture = {
    .dataset = &dogs_vs_cats_dataset, .splits = splits, .split_count = 2,
    .write = dogs_vs_cats_write,
    .quirks = "a grayscale JPEG, the second member of each archive",
};
