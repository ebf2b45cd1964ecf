/* For bench/imagenet.sh: how much faster checking a JPEG (jpeg_check) is than decoding it whole
   (jpeg_decode), both with PIL's warning policy as the ILSVRC converters use them, and whether it
   is as strict: both are run on every file given and on damaged copies of each (cut at 30%, 60%
   and 95%, a byte of the entropy-coded data changed at 40%, 70% and 90%), and every verdict that
   differs is counted.

   usage: jpeg_check REPEATS FILE... ; prints "full MS check MS ratio R verdicts N differ D". */
#include "common/base/error.h"
#include "common/formats/jpeg/jpeg_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec moment;
    clock_gettime(CLOCK_MONOTONIC, &moment);
    return (double)moment.tv_sec + (double)moment.tv_nsec / 1e9;
}

static unsigned char *load(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    if (file == NULL)
        return NULL;
    fseek(file, 0, SEEK_END);
    *size = (size_t)ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *bytes = malloc(*size + 1);
    if (bytes != NULL && fread(bytes, 1, *size, file) != *size) {
        free(bytes);
        bytes = NULL;
    }
    fclose(file);
    return bytes;
}

static const struct jpeg_options options = {.warnings_as_pil = true};

static int decode(const unsigned char *bytes, size_t size, struct jpeg_image *image)
{
    int result = jpeg_decode(bytes, size, "bench", &options, image);
    error_clear();
    return result;
}

static int check(const unsigned char *bytes, size_t size)
{
    int result = jpeg_check(bytes, size, "bench", &options);
    error_clear();
    return result;
}

/* The verdicts of both on damaged copies of BYTES: *COUNT compared, *DIFFER that differ. */
static void compare(const unsigned char *bytes, size_t size, struct jpeg_image *image,
                    int *count, int *differ)
{
    static const double cuts[3] = {0.30, 0.60, 0.95}, flips[3] = {0.40, 0.70, 0.90};
    unsigned char *copy = malloc(size);
    for (int variant = 0; copy != NULL && variant < 6; variant++) {
        memcpy(copy, bytes, size);
        size_t length = size;
        if (variant < 3)
            length = (size_t)(cuts[variant] * (double)size);
        else
            copy[(size_t)(flips[variant - 3] * (double)size)] ^= 0x5A;
        (*count)++;
        *differ += (decode(copy, length, image) == EXIT_OK) != (check(copy, length) == EXIT_OK);
    }
    free(copy);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int repeats = atoi(argv[1]), files = argc - 2, count = 0, differ = 0;
    unsigned char **bytes = calloc((size_t)files, sizeof *bytes);
    size_t *sizes = calloc((size_t)files, sizeof *sizes);
    for (int file = 0; file < files; file++)
        if ((bytes[file] = load(argv[file + 2], &sizes[file])) == NULL)
            return 1;
    struct jpeg_image image = {0};
    double start = now();
    for (int repeat = 0; repeat < repeats; repeat++)
        for (int file = 0; file < files; file++)
            decode(bytes[file], sizes[file], &image);
    double full = (now() - start) / (repeats * files);
    start = now();
    for (int repeat = 0; repeat < repeats; repeat++)
        for (int file = 0; file < files; file++)
            check(bytes[file], sizes[file]);
    double checked = (now() - start) / (repeats * files);
    for (int file = 0; file < files; file++)
        compare(bytes[file], sizes[file], &image, &count, &differ);
    printf("full %.3f check %.3f ratio %.2f verdicts %d differ %d\n", full * 1000, checked * 1000,
           full / checked, count, differ);
    jpeg_image_free(&image);
    return 0;
}
