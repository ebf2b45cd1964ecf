/* SVHN format 1's digitStruct.mat: opened from its archive member, read one image at a time. */
#ifndef FUEL_SVHN_FORMAT_1_BOXES_H
#define FUEL_SVHN_FORMAT_1_BOXES_H

#include "common/formats/archive/archive_read.h"
#include "downloaders/svhn.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { SVHN_FIELD_COUNT = SVHN_BOX_FIELD_COUNT, SVHN_LABEL_FIELD = 0 };

struct svhn_boxes;

/* The boxes of one image: COUNT values per field, as Fuel stores them (negative values 0,
   truncated to integers, label 10 as 0); valid until the next read. */
struct svhn_image_boxes {
    size_t count;
    uint16_t *values[SVHN_FIELD_COUNT]; /* label, height, width, left, top */
};

/* Opens the current member of STREAM (SIZE bytes), named LABEL in messages, through a scratch
   file in SCRATCH_DIRECTORY; EXIT_CORRUPT_INPUT when it is not a digitStruct.mat. IN_CHILD: a
   child process reads it (libhdf5 is not thread-safe: this lets the reading run beside the
   caller's own HDF5 work), and the images must then be read in order, each once. */
int svhn_boxes_open(struct svhn_boxes **boxes, struct archive_stream *stream, uint64_t size,
                    const char *scratch_directory, const char *label, bool in_child);

/* The number of images (rows of digitStruct/bbox and digitStruct/name). */
uint64_t svhn_boxes_images(const struct svhn_boxes *boxes);

/* Reads image IMAGE's (from 0) boxes, checking that digitStruct/name names it IMAGE+1.png. */
int svhn_boxes_read(struct svhn_boxes *boxes, uint64_t image, struct svhn_image_boxes **read);

void svhn_boxes_close(struct svhn_boxes *boxes);

/* The reading process of svhn_boxes_open's IN_CHILD (`fuel __svhn-boxes PATH LABEL DESCRIPTOR`):
   sends the boxes of PATH's images through DESCRIPTOR, then exits. */
void svhn_boxes_serve(const char *path, const char *label, int descriptor) __attribute__((noreturn));

#endif
