/* CelebA's faces as Fuel stores them: aligned_cropped as PIL decodes them, channel-major; 64 as
   PIL's resize((64, 78), ANTIALIAS) then crop((0, 7, 64, 71)) makes them (pillow_resample, to the
   byte). Fuel's numpy transpose needs 3 channels, and aligned_cropped's features need 178 x 218:
   any other face is refused, where Fuel would crash. */
#include "celeba.h"

#include "common/base/error.h"
#include "downloaders/celeba.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Fuel's resize: 64 wide, 78 high, then rows 7 to 70. */
enum { RESIZED_HEIGHT = 78, CROP_TOP = 7 };

uint64_t celeba_image_number(const char *name)
{
    static const char folder[] = CELEBA_FACES_FOLDER;
    if (strncmp(name, folder, sizeof folder - 1) != 0)
        return 0;
    const char *digits = name + sizeof folder - 1, *cursor = digits;
    uint64_t number = 0;
    for (; *cursor >= '0' && *cursor <= '9' && cursor - digits < 18; cursor++)
        number = number * 10 + (uint64_t)(*cursor - '0');
    char formatted[32];
    snprintf(formatted, sizeof formatted, CELEBA_FACE_NAME, number);
    return number > 0 && strcmp(digits, formatted) == 0 ? number : 0;
}

int celeba_faces_prepare(struct celeba_faces *faces, const struct celeba_layout *layout)
{
    *faces = (struct celeba_faces){.layout = layout};
    if (!layout->resize)
        return EXIT_OK;
    return pillow_resample_prepare(&faces->plan, CELEBA_WIDTH, CELEBA_HEIGHT, CELEBA_SIDE,
                                   RESIZED_HEIGHT, 3);
}

void celeba_faces_free(struct celeba_faces *faces)
{
    if (faces->layout != NULL && faces->layout->resize)
        pillow_resample_free(&faces->plan);
}

static int refuse(const struct zip_image *image, const char *expected)
{
    const struct jpeg_image *face = &image->image;
    return error_set(EXIT_CORRUPT_INPUT, "not a CelebA face: %s: %" PRIu32 "x%" PRIu32
                     " pixels of %" PRIu32 " channel%s, expected %s", image->label, face->width,
                     face->height, face->channels, face->channels == 1 ? "" : "s", expected);
}

/* The resize and crop into image->output: the row of features, then the cropped face
   (interleaved: the resize's output rows 7 to 70 alone) and the resize's scratch. */
static int resize(const struct celeba_faces *faces, struct zip_image *image)
{
    const struct jpeg_image *face = &image->image;
    struct pillow_resample own;
    const struct pillow_resample *plan = &faces->plan;
    bool standard = face->width == CELEBA_WIDTH && face->height == CELEBA_HEIGHT;
    int result = standard ? EXIT_OK
                          : pillow_resample_prepare(&own, face->width, face->height, CELEBA_SIDE,
                                                    RESIZED_HEIGHT, 3);
    if (result != EXIT_OK)
        return result;
    plan = standard ? plan : &own;
    size_t row = (size_t)3 * CELEBA_SIDE * CELEBA_SIDE;
    result = zip_image_reserve(image, 2 * row + pillow_resample_scratch_size(plan));
    if (result == EXIT_OK) {
        uint8_t *features = image->output, *cropped = features + row;
        pillow_resample_run_rows(plan, face->pixels, cropped + row, CROP_TOP, CELEBA_SIDE, cropped);
        jpeg_to_channel_major(cropped, CELEBA_SIDE, CELEBA_SIDE, 3, features);
    }
    if (!standard)
        pillow_resample_free(&own);
    return result;
}

int celeba_face_decode(const struct celeba_faces *faces, struct zip_image *image)
{
    bool resizing = faces->layout->resize;
    int result = zip_image_decode(image, resizing);
    if (result != EXIT_OK)
        return result;
    const struct jpeg_image *face = &image->image;
    if (face->channels != 3)
        return refuse(image, resizing ? "3 channels" : "178x218 pixels of 3 channels");
    if (resizing)
        return resize(faces, image);
    if (face->width != CELEBA_WIDTH || face->height != CELEBA_HEIGHT)
        return refuse(image, "178x218 pixels of 3 channels");
    return EXIT_OK;
}

const uint8_t *celeba_face_row(const struct celeba_faces *faces, const struct zip_image *image)
{
    return faces->layout->resize ? image->output : image->image.pixels;
}
