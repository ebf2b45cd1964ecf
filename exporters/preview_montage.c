/* fuel preview: chooses a split's examples, lays them out in a grid of equal tiles and streams the
   montage to a PNG one grid row at a time; prints the labels in the same order. */
#include "preview_montage.h"

#include "common/base/error.h"
#include "common/base/random.h"
#include "common/formats/png/png_encode.h"
#include "common/h5py/h5py_input.h"
#include "common/base/publish.h"
#include "preview_grid.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int number_compare(const void *left, const void *right)
{
    uint64_t a = *(const uint64_t *)left, b = *(const uint64_t *)right;
    return a < b ? -1 : a > b;
}

/* The first COUNT examples, or COUNT distinct ones drawn with the seed (Floyd's algorithm), in
   the split's order. */
static int examples_choose(struct preview_grid *grid, const struct preview_request *request,
                           uint64_t available)
{
    uint64_t count = request->count < available ? request->count : available;
    grid->numbers = malloc((count ? count : 1) * sizeof *grid->numbers);
    if (grid->numbers == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    grid->count = count;
    struct random_state state;
    random_seed(&state, request->seed, 0);
    for (uint64_t index = 0; index < count; index++) {
        if (!request->seeded) {
            grid->numbers[index] = index;
            continue;
        }
        uint64_t candidate_limit = available - count + index;
        uint64_t candidate = random_below(&state, candidate_limit + 1);
        for (uint64_t earlier = 0; earlier < index; earlier++)
            if (grid->numbers[earlier] == candidate)
                candidate = candidate_limit;
        grid->numbers[index] = candidate;
    }
    qsort(grid->numbers, count, sizeof *grid->numbers, number_compare);
    return EXIT_OK;
}

/* Creates the directory OUTPUT_PATH is to be written in, as mkdir -p does. */
static int parent_create(const char *output_path)
{
    char directory[PATH_MAX];
    if (snprintf(directory, sizeof directory, "%s", output_path) >= (int)sizeof directory)
        return error_set(EXIT_WRITE, "cannot write: %s: name too long", output_path);
    char *slash = strrchr(directory, '/');
    if (slash == NULL || slash == directory)
        return EXIT_OK;
    *slash = '\0';
    return publish_directory_create(directory);
}

/* "-": the PNG on standard output, for a pipe. */
static int montage_stream(struct preview_grid *grid)
{
    int result = png_encode_stream(stdout, "standard output", grid->width, grid->height,
                                   grid->channels, preview_grid_row, grid);
    if (result == EXIT_OK && (fflush(stdout) != 0 || ferror(stdout)))
        result = error_set(EXIT_WRITE, "cannot write: standard output");
    return result;
}

static int montage_write(struct preview_grid *grid, const char *output_path)
{
    if (strcmp(output_path, "-") == 0)
        return montage_stream(grid);
    struct publication publication;
    int result = parent_create(output_path);
    if (result != EXIT_OK)
        return result;
    result = publish_begin(&publication, ".", output_path);
    if (result != EXIT_OK)
        return result;
    FILE *stream = fopen(publication.temporary_path, "wb");
    if (stream == NULL)
        result = error_set(EXIT_WRITE, "cannot write: %s: %s", output_path, strerror(errno));
    if (result == EXIT_OK)
        result = png_encode_stream(stream, output_path, grid->width, grid->height, grid->channels,
                                   preview_grid_row, grid);
    if (stream != NULL && fclose(stream) != 0 && result == EXIT_OK)
        result = error_set(EXIT_WRITE, "cannot write: %s: %s", output_path, strerror(errno));
    if (result == EXIT_OK)
        result = publish_commit(&publication);
    if (result != EXIT_OK)
        publish_abort(&publication);
    return result;
}

static int labels_print(struct preview_grid *grid,
                        void (*print_row)(const char *labels, void *context), void *context)
{
    char line[PREVIEW_MAX_EXAMPLES * 16];
    for (uint32_t row = 0; row < grid->rows && grid->has_labels; row++) {
        size_t length = 0;
        line[0] = '\0';
        for (uint32_t column = 0; column < grid->columns; column++) {
            uint64_t index = (uint64_t)row * grid->columns + column;
            if (index >= grid->count)
                break;
            char label[256]; /* CelebA's 40 attributes: 79 characters; 32 columns at most */
            int result = preview_grid_label(grid, index, label, sizeof label);
            if (result != EXIT_OK)
                return result;
            length += (size_t)snprintf(line + length, sizeof line - length, "%s%s",
                                       column ? " " : "", label);
        }
        print_row(line, context);
    }
    return EXIT_OK;
}

int preview_run(const struct preview_request *request,
                void (*print_row)(const char *labels, void *context), void *context)
{
    struct preview_grid grid;
    struct h5py_file *file = NULL;
    int result = request->in_place != NULL
                     ? h5py_input_open_remote(&file, request->input_path, request->in_place)
                     : h5py_input_open(&file, request->input_path);
    if (result == EXIT_OK)
        result = preview_grid_open(&grid, file, request);
    uint64_t available = result == EXIT_OK ? grid.data.selection.count : 0;
    if (result == EXIT_OK)
        result = examples_choose(&grid, request, available);
    if (result == EXIT_OK)
        result = preview_grid_measure(&grid);
    if (result == EXIT_OK)
        result = montage_write(&grid, request->output_path);
    if (result == EXIT_OK)
        result = labels_print(&grid, print_row, context);
    if (file != NULL)
        preview_grid_close(&grid);
    h5py_reader_close(file);
    return result;
}
