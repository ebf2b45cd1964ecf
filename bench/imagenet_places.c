/* For bench/imagenet.sh: what the shuffled placement of the training images costs the writes.
   Writes COUNT examples of BYTES bytes each (plus int16 targets and S32 names) into an ILSVRC
   layout in batches of 256, as the converter does, once at places 0, 1, 2, ... and once at numpy's
   RandomState(1).permutation(COUNT), each into a new file in DIRECTORY flushed to the disk, and
   prints both times in seconds.

   usage: imagenet_places DIRECTORY COUNT BYTES */
#include "common/base/error.h"
#include "common/base/numpy_random.h"
#include "common/h5py/h5py_writer.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { BATCH = 256 };

static double now(void)
{
    struct timespec moment;
    clock_gettime(CLOCK_MONOTONIC, &moment);
    return (double)moment.tv_sec + (double)moment.tv_nsec / 1e9;
}

static int declare(struct h5py_writer *writer, uint64_t count, int *sources)
{
    const struct h5py_source_declaration declared[3] = {
        {.name = "encoded_images", .type = ELEMENT_UINT8, .rank = 1, .shape = {count},
         .variable_length = true},
        {.name = "targets", .type = ELEMENT_INT16, .rank = 2, .shape = {count, 1}},
        {.name = "filenames", .type = ELEMENT_STRING, .string_length = 32, .rank = 2,
         .shape = {count, 1}},
    };
    int result = EXIT_OK;
    for (int source = 0; result == EXIT_OK && source < 3; source++)
        result = h5py_writer_add_source(writer, &declared[source], &sources[source]);
    return result == EXIT_OK ? h5py_writer_add_split(writer, "train", NULL, 0, count) : result;
}

static int write_file(const char *path, uint64_t count, size_t bytes, const int64_t *places)
{
    struct h5py_writer *writer;
    int sources[3];
    int result = h5py_writer_create(&writer, path);
    if (result != EXIT_OK)
        return result;
    result = declare(writer, count, sources);
    unsigned char *data = malloc(bytes * BATCH);
    for (size_t byte = 0; data != NULL && byte < bytes * BATCH; byte++)
        data[byte] = (unsigned char)(byte * 7);
    for (uint64_t first = 0; result == EXIT_OK && first < count; first += BATCH) {
        size_t batch = count - first < BATCH ? (size_t)(count - first) : BATCH;
        uint64_t at[BATCH];
        const void *pointers[BATCH];
        size_t lengths[BATCH];
        int16_t targets[BATCH];
        char names[BATCH][32] = {{0}};
        for (size_t index = 0; index < batch; index++) {
            at[index] = places != NULL ? (uint64_t)places[first + index] : first + index;
            pointers[index] = data + index * bytes;
            lengths[index] = bytes;
            targets[index] = (int16_t)(index % 1000);
            snprintf(names[index], 32, "n%08llu.JPEG", (unsigned long long)(first + index));
        }
        result = h5py_writer_write_sequences_at(writer, sources[0], at, batch, pointers, lengths);
        if (result == EXIT_OK)
            result = h5py_writer_write_rows_at(writer, sources[1], at, batch, targets);
        if (result == EXIT_OK)
            result = h5py_writer_write_rows_at(writer, sources[2], at, batch, names);
    }
    free(data);
    if (result != EXIT_OK) {
        h5py_writer_discard(writer);
        return result;
    }
    result = h5py_writer_finish(writer, NULL);
    int descriptor = open(path, O_RDONLY);
    if (descriptor >= 0) {
        fsync(descriptor);
        close(descriptor);
    }
    return result;
}

int main(int argc, char **argv)
{
    if (argc != 4)
        return 2;
    uint64_t count = strtoull(argv[2], NULL, 10);
    size_t bytes = (size_t)strtoull(argv[3], NULL, 10);
    int64_t *places = malloc(count * sizeof *places);
    if (places == NULL)
        return 1;
    numpy_permutation(1, count, places);
    char path[4096];
    snprintf(path, sizeof path, "%s/in_order.hdf5", argv[1]);
    double start = now();
    int result = write_file(path, count, bytes, NULL);
    double in_order = now() - start;
    unlink(path);
    snprintf(path, sizeof path, "%s/permuted.hdf5", argv[1]);
    start = now();
    if (result == EXIT_OK)
        result = write_file(path, count, bytes, places);
    double permuted = now() - start;
    unlink(path);
    free(places);
    if (result != EXIT_OK) {
        error_print("imagenet_places");
        return 1;
    }
    printf("in_order %.3f permuted %.3f\n", in_order, permuted);
    return 0;
}
