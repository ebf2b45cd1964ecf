/* CelebA raw fixture: img_align_celeba.zip (the folder img_align_celeba/ then NNNNNN.jpg faces,
   photo-like 178 x 218 JPEGs) and list_attr_celeba.txt in the real layout (the count, the 40
   attribute names, a row of -1/1 per face). The fixture's one "split" counts the faces; the
   converter splits them in Fuel's proportions. */
#include "fixture.h"
#include "downloaders/celeba.h"
#include "photos.h"

#include "common/base/error.h"
#include "common/formats/fixture_marker.h"
#include "common/formats/zip_writer.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

enum { FACE_WIDTH = 178, FACE_HEIGHT = 218, QUALITY = 90, ATTRIBUTES = 40 };

static const char *const splits[] = {"images"};

static const char *const attribute_names[ATTRIBUTES] = {
    "5_o_Clock_Shadow", "Arched_Eyebrows", "Attractive", "Bags_Under_Eyes", "Bald", "Bangs",
    "Big_Lips", "Big_Nose", "Black_Hair", "Blond_Hair", "Blurry", "Brown_Hair", "Bushy_Eyebrows",
    "Chubby", "Double_Chin", "Eyeglasses", "Goatee", "Gray_Hair", "Heavy_Makeup",
    "High_Cheekbones", "Male", "Mouth_Slightly_Open", "Mustache", "Narrow_Eyes", "No_Beard",
    "Oval_Face", "Pale_Skin", "Pointy_Nose", "Receding_Hairline", "Rosy_Cheeks", "Sideburns",
    "Smiling", "Straight_Hair", "Wavy_Hair", "Wearing_Earrings", "Wearing_Hat",
    "Wearing_Lipstick", "Wearing_Necklace", "Wearing_Necktie", "Young"};

static int faces_write(const struct fixture_request *request, const char *directory)
{
    char path[4096];
    fixture_file_path(request, CELEBA_IMAGES, directory, path, sizeof path);
    struct zip_writer *archive;
    int result = zip_writer_open(&archive, path, request->mtime, FIXTURE_MARKER);
    if (result != EXIT_OK)
        return result;
    struct random_state random;
    random_seed(&random, request->seed, CELEBA_IMAGES);
    struct jpeg_bytes jpeg = {0};
    result = zip_writer_add_directory(archive, "img_align_celeba/");
    for (uint64_t face = 1; result == EXIT_OK && face <= request->examples[0]; face++) {
        char name[64];
        snprintf(name, sizeof name, "img_align_celeba/%06" PRIu64 ".jpg", face);
        result = photo_jpeg(&random, FACE_HEIGHT, FACE_WIDTH, 3, QUALITY, &jpeg);
        if (result == EXIT_OK)
            result = zip_writer_add_bytes(archive, name, jpeg.data, jpeg.size);
    }
    free(jpeg.data);
    if (result != EXIT_OK) {
        zip_writer_abandon(archive);
        return result;
    }
    return zip_writer_close(archive);
}

/* Each attribute set with its own frequency, values written as the real file does: "-1" or " 1"
   after a space. */
static void attributes_print(FILE *file, const struct fixture_request *request)
{
    struct random_state random;
    random_seed(&random, request->seed, CELEBA_ATTRIBUTES);
    double frequency[ATTRIBUTES];
    for (int attribute = 0; attribute < ATTRIBUTES; attribute++)
        frequency[attribute] = random_between(&random, 0.02, 0.8);
    fprintf(file, "%" PRIu64 " " FIXTURE_TEXT_LINE, request->examples[0]);
    for (int attribute = 0; attribute < ATTRIBUTES; attribute++)
        fprintf(file, "%s ", attribute_names[attribute]);
    fputc('\n', file);
    for (uint64_t face = 1; face <= request->examples[0]; face++) {
        fprintf(file, "%06" PRIu64 ".jpg", face);
        for (int attribute = 0; attribute < ATTRIBUTES; attribute++)
            fputs(random_between(&random, 0, 1) < frequency[attribute] ? "  1" : " -1", file);
        fputc('\n', file);
    }
}

static int attributes_write(const struct fixture_request *request, const char *directory)
{
    char path[4096];
    fixture_file_path(request, CELEBA_ATTRIBUTES, directory, path, sizeof path);
    FILE *file = fopen(path, "w");
    if (file == NULL)
        return error_set(EXIT_WRITE, "cannot write: %s: %s", path, error_system_reason());
    attributes_print(file, request);
    int failed = ferror(file);
    if (fclose(file) != 0 || failed)
        return error_set(EXIT_WRITE, "cannot write: %s: %s", path, error_system_reason());
    return EXIT_OK;
}

static int celeba_write(const struct fixture_request *request, const char *directory)
{
    int result = attributes_write(request, directory);
    return result == EXIT_OK ? faces_write(request, directory) : result;
}

const struct raw_fixture celeba_aligned_cropped_fixture = {
    .dataset = &celeba_aligned_cropped_dataset, .splits = splits, .split_count = 1,
    .write = celeba_write,
};

const struct raw_fixture celeba_64_fixture = {
    .dataset = &celeba_64_dataset, .splits = splits, .split_count = 1, .write = celeba_write,
};
