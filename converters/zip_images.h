/* What the JPEG datasets' converters share: a zip's JPEG members streamed, decoded on --threads
   threads and written in the archive's order, each at the row its converter places it. */
#ifndef FUEL_ZIP_IMAGES_H
#define FUEL_ZIP_IMAGES_H

#include "converter.h"

#include "common/formats/jpeg/jpeg_read.h"

#include <stddef.h>
#include <stdint.h>

/* Members larger than this are refused (real ones are well under a megabyte). */
#define ZIP_IMAGES_MAX_MEMBER_BYTES (16u << 20)
/* Images of more pixels are refused before their pixels are allocated (16 MiB per channel). */
#define ZIP_IMAGES_MAX_PIXELS (UINT64_C(1) << 24)

/* The regular-file entries of a zip's central directory (directories passed over), in its order:
   Python's zipfile.namelist() without the directory entries. */
struct zip_names {
    char *text;      /* the names, each NUL-terminated */
    size_t used;
    size_t text_capacity;
    size_t *offsets; /* where each name starts in TEXT */
    size_t count;
    size_t offsets_capacity;
};

/* Lists PATH's central directory into NAMES (zeroed first; freed with zip_names_free whatever the
   result). */
int zip_names_read(const char *path, struct zip_names *names);

static inline const char *zip_names_at(const struct zip_names *names, size_t index)
{
    return names->text + names->offsets[index];
}

void zip_names_free(struct zip_names *names);

/* One JPEG member on its way: read by the main thread, decoded by a worker (or the main thread
   while it waits), written in order. */
struct zip_image {
    const struct zip_images_pass *pass;
    unsigned char *bytes;
    size_t size;
    size_t capacity;
    uint64_t row;
    char label[4200];        /* "ARCHIVE: MEMBER", what messages name */
    struct jpeg_image image; /* the decoded pixels */
    uint8_t *output;         /* what a converter's decode made of them, if anything */
    size_t output_capacity;
    uint64_t charged;        /* what it takes of the memory budget while on its way */
};

struct zip_images_pass {
    const struct converter_arguments *arguments;
    const char *path;   /* the zip archive */
    const struct zip_names *names; /* its central directory: the members must stream in its order */
    uint64_t total;     /* the images it must hold: each placed once, all written */
    size_t job_bytes;   /* what one image on its way holds at most, about: its pixels and output */
    /* In the main thread, for each regular-file member in the archive's order (INDEX into NAMES):
       its row in [0, TOTAL), or false in *KEEP to pass it over; an exit code, error_set on
       failure. */
    int (*place)(void *context, size_t index, const char *name, uint64_t *row, bool *keep);
    /* In any thread: decodes IMAGE's bytes (zip_image_decode) and makes what is written of them. */
    int (*decode)(void *context, struct zip_image *image);
    /* In the main thread, in the archive's order: writes IMAGE at its row. */
    int (*write)(void *context, struct zip_image *image);
    void *context;
};

/* Streams PASS's archive through its callbacks on the arguments' threads and reports progress.
   EXIT_CORRUPT_INPUT naming the archive when its members stream in another order than its central
   directory lists them, or it holds another count of images than TOTAL. */
int zip_images_run(const struct zip_images_pass *pass);

/* Decodes IMAGE's bytes as PIL does (its warning policy: the pixels Fuel stores), channel-major
   unless INTERLEAVED, refusing images over ZIP_IMAGES_MAX_PIXELS. */
int zip_image_decode(struct zip_image *image, bool interleaved);

/* Makes IMAGE's output hold at least SIZE bytes. */
int zip_image_reserve(struct zip_image *image, size_t size);

#endif
