/* The images of a folder in the order torchvision's ImageFolder visits them, and the class of
   each: {images: DIR} and {classes: DIR} of the same folder line up example for example. */
#ifndef FUEL_PACK_IMAGE_WALK_H
#define FUEL_PACK_IMAGE_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most images a walk lists and the deepest folder it enters. */
#define IMAGE_WALK_MAX_IMAGES (1u << 26)
#define IMAGE_WALK_MAX_DEPTH 64

struct image_walk {
    char **paths;      /* each image file, ROOT/... */
    uint32_t *classes; /* with CLASSES: each image's class, the index of its subfolder */
    size_t count;
    char **class_names; /* with CLASSES: the subfolders of ROOT, sorted */
    size_t class_count;
};

/* Lists the images under ROOT: files whose name ends, in any case, in one of ImageFolder's
   extensions (.jpg .jpeg .png .ppm .bmp .pgm .tif .tiff .webp). Each subfolder of ROOT in sorted
   order is walked as os.walk(followlinks=True) does, its folders in the order of their sorted
   paths and each one's files sorted by name; images directly in ROOT come first, unless CLASSES,
   where only subfolders count, each a class numbered in sorted order. EXIT_MISSING_INPUT when
   ROOT is not a folder; EXIT_CORRUPT_INPUT for a folder cycle, a tree deeper than
   IMAGE_WALK_MAX_DEPTH, more than IMAGE_WALK_MAX_IMAGES images, with CLASSES no subfolder or
   one without images (ImageFolder refuses both). */
int image_walk(const char *root, bool classes, struct image_walk *walk);

void image_walk_free(struct image_walk *walk);

#endif
