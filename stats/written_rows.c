/* The rows of a chunked source that were never written, from its allocated chunks. */
#include "written_rows.h"

#include "common/base/error.h"

#include <stdlib.h>

static int row_chunk_compare(const void *left, const void *right)
{
    uint64_t a = *(const uint64_t *)left, b = *(const uint64_t *)right;
    return a < b ? -1 : a > b;
}

/* Fills WRITTEN's row chunks from the COUNT allocated chunks of DATASET, whose file space is
   SPACE. */
static int chunks_list(hid_t dataset, hid_t space, size_t count, struct written_rows *written)
{
    written->row_chunks = malloc(count * sizeof *written->row_chunks + 1);
    if (written->row_chunks == NULL)
        return error_set(EXIT_OTHER, "cannot list chunks: out of memory");
    for (size_t chunk = 0; chunk < count; chunk++) {
        hsize_t offset[H5S_MAX_RANK];
        unsigned filter_mask;
        haddr_t address;
        hsize_t size;
        if (H5Dget_chunk_info(dataset, space, chunk, offset, &filter_mask, &address, &size) < 0)
            return error_set(EXIT_CORRUPT_INPUT, "cannot list the chunks of a source");
        written->row_chunks[chunk] = offset[0] / written->chunk_rows;
    }
    qsort(written->row_chunks, count, sizeof *written->row_chunks, row_chunk_compare);
    size_t kept = 0;
    for (size_t chunk = 0; chunk < count; chunk++)
        if (kept == 0 || written->row_chunks[kept - 1] != written->row_chunks[chunk])
            written->row_chunks[kept++] = written->row_chunks[chunk];
    written->count = kept;
    written->known = true;
    return EXIT_OK;
}

int written_rows_find(hid_t dataset, uint64_t rows, struct written_rows *written)
{
    *written = (struct written_rows){0};
    hid_t plist = H5Dget_create_plist(dataset), space = H5Dget_space(dataset);
    hsize_t dimensions[H5S_MAX_RANK], chunk[H5S_MAX_RANK], chunks = 0;
    int rank = space >= 0 ? H5Sget_simple_extent_dims(space, dimensions, NULL) : -1;
    int result = EXIT_OK;
    if (plist >= 0 && rank > 0 && H5Pget_layout(plist) == H5D_CHUNKED &&
        H5Pget_chunk(plist, rank, chunk) == rank && chunk[0] > 0 &&
        H5Dget_num_chunks(dataset, space, &chunks) >= 0) {
        uint64_t all = 1;
        for (int axis = 0; axis < rank; axis++)
            all *= (dimensions[axis] + chunk[axis] - 1) / chunk[axis];
        written->chunk_rows = chunk[0];
        if (chunks < all && chunks <= WRITTEN_ROWS_MAX_CHUNKS && rows > 0)
            result = chunks_list(dataset, space, (size_t)chunks, written);
    }
    if (plist >= 0)
        H5Pclose(plist);
    if (space >= 0)
        H5Sclose(space);
    return result;
}

/* The index of the first row chunk at or after ROW_CHUNK in WRITTEN's list. */
static size_t first_at_or_after(const struct written_rows *written, uint64_t row_chunk)
{
    size_t low = 0, high = written->count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (written->row_chunks[middle] < row_chunk)
            low = middle + 1;
        else
            high = middle;
    }
    return low;
}

uint64_t written_rows_run(const struct written_rows *written, uint64_t row, uint64_t limit,
                          bool *is_written)
{
    *is_written = true;
    if (!written->known)
        return limit;
    uint64_t row_chunk = row / written->chunk_rows;
    size_t index = first_at_or_after(written, row_chunk);
    *is_written = index < written->count && written->row_chunks[index] == row_chunk;
    uint64_t end;
    if (*is_written) {
        while (index + 1 < written->count && written->row_chunks[index + 1] == row_chunk + 1) {
            index++;
            row_chunk++;
        }
        end = (row_chunk + 1) * written->chunk_rows;
    } else {
        end = index < written->count ? written->row_chunks[index] * written->chunk_rows
                                     : UINT64_MAX;
    }
    return end - row < limit ? end - row : limit;
}

void written_rows_free(struct written_rows *written)
{
    free(written->row_chunks);
    *written = (struct written_rows){0};
}
