/* fuel preview: a PNG montage of a split's examples and their labels in grid order. */
#ifndef FUEL_PREVIEW_MONTAGE_H
#define FUEL_PREVIEW_MONTAGE_H

#include <stdbool.h>
#include <stdint.h>

#define PREVIEW_MAX_EXAMPLES 1024
#define PREVIEW_MAX_ZOOM 16
/* Pixels between tiles and around the grid, mid-gray; a tile's unused area is black. */
#define PREVIEW_GAP 2
#define PREVIEW_GAP_LEVEL 128

struct h5py_remote;

struct preview_request {
    const char *input_path;
    const struct h5py_remote *in_place; /* INPUT_PATH an object read in place; NULL: a file */
    const char *output_path; /* "-": standard output */
    const char *split;   /* NULL: the file's first split */
    const char *source;  /* NULL: example_source_default's */
    uint64_t count;      /* examples shown, at most PREVIEW_MAX_EXAMPLES */
    bool seeded;         /* a random choice of examples (else the first COUNT) */
    uint64_t seed;
    unsigned zoom;       /* each pixel drawn ZOOM x ZOOM */
};

/* Writes the montage (published atomically) and calls PRINT_ROW with each grid row's labels,
   space-separated, top to bottom. EXIT_USAGE when the source is not an image. */
int preview_run(const struct preview_request *request,
                void (*print_row)(const char *labels, void *context), void *context);

#endif
