/* The rows of a chunked source that were never written: a row none of whose chunks is allocated
   holds the fill value, which HDF5 makes up without reading anything. fuel stats reads one such
   row and counts it as many times as the run it stands for, so a source that declares a billion
   examples it does not hold takes the time of the chunks it holds. The allocated chunks are
   listed with H5Dget_num_chunks and H5Dget_chunk_info: as many as the file stores. */
#ifndef FUEL_STATS_WRITTEN_ROWS_H
#define FUEL_STATS_WRITTEN_ROWS_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* More allocated chunks than this: every row is read (their list would hold 32 MiB). */
#define WRITTEN_ROWS_MAX_CHUNKS ((size_t)1 << 22)

struct written_rows {
    bool known;            /* false: every row is taken as written */
    uint64_t chunk_rows;   /* the rows a chunk spans */
    uint64_t *row_chunks;  /* sorted, each once: row / chunk_rows of every allocated chunk */
    size_t count;
};

/* Lists the allocated chunks of DATASET (of ROWS rows) into WRITTEN; not known for a contiguous
   or compact dataset, one whose chunks are all allocated, or too many of them. EXIT_CORRUPT_INPUT
   when HDF5 cannot list them. */
int written_rows_find(hid_t dataset, uint64_t rows, struct written_rows *written);

/* How many rows from ROW on (at most LIMIT, 1 or more) are written or not, as ROW is: *IS_WRITTEN. */
uint64_t written_rows_run(const struct written_rows *written, uint64_t row, uint64_t limit,
                          bool *is_written);

void written_rows_free(struct written_rows *written);

#endif
