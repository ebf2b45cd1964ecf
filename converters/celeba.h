/* What CelebA's two formats share: the faces' size, how a face becomes a row of features, and
   which zip members are faces. */
#ifndef FUEL_CELEBA_H
#define FUEL_CELEBA_H

#include "pillow_resample.h"
#include "zip_images.h"

#include <stdbool.h>
#include <stdint.h>

/* img_align_celeba's faces: 178 wide, 218 high. */
enum { CELEBA_WIDTH = 178, CELEBA_HEIGHT = 218, CELEBA_SIDE = 64 };

/* A format: aligned_cropped keeps the faces, 64 resizes them as Fuel does. */
struct celeba_layout {
    bool resize;
    uint32_t height, width; /* of a row of features */
};

/* What the workers read: the layout, and the resize of a 178 x 218 face planned once. */
struct celeba_faces {
    const struct celeba_layout *layout;
    struct pillow_resample plan;
};

int celeba_faces_prepare(struct celeba_faces *faces, const struct celeba_layout *layout);
void celeba_faces_free(struct celeba_faces *faces);

/* In a worker: IMAGE's JPEG decoded and made a row of features, 3 x height x width. */
int celeba_face_decode(const struct celeba_faces *faces, struct zip_image *image);

/* The row of features celeba_face_decode made of IMAGE. */
const uint8_t *celeba_face_row(const struct celeba_faces *faces, const struct zip_image *image);

/* The number N of a member img_align_celeba/NNNNNN.jpg (six digits or more, as Fuel formats
   them, from 1), or 0 when NAME is not one. */
uint64_t celeba_image_number(const char *name);

#endif
