/* The regular-file members of an archive in sorted name order (as Python's sorted() orders
   them), whatever order the archive holds them in: each member's bytes are appended to an
   unlinked scratch file as they stream by, only the names and places are kept in memory. */
#ifndef FUEL_SORTED_MEMBERS_H
#define FUEL_SORTED_MEMBERS_H

#include "archive_read.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sorted_members;

/* What one archive may hold: at most MAXIMUM_MEMBERS members of at most MAXIMUM_MEMBER_BYTES
   bytes each (bounds against a hostile archive; the scratch file holds their bytes). */
struct sorted_members_limits {
    size_t maximum_members;
    uint64_t maximum_member_bytes;
};

/* A collector whose scratch file lies in DIRECTORY (NULL: $TMPDIR, else /tmp). */
int sorted_members_create(struct sorted_members **sorted, const char *directory,
                          const struct sorted_members_limits *limits);

/* Reads every remaining member of STREAM (to its end, which is checked), replacing what the
   collector held, and sorts them by name. EXIT_CORRUPT_INPUT when a name comes twice or a bound
   is passed, naming the archive and the member. */
int sorted_members_collect(struct sorted_members *sorted, struct archive_stream *stream,
                           const char *archive_name);

/* Lists the regular-file members of the (plain or gzipped) tar at PATH by their headers alone,
   their data skipped (seeking where the file allows), replacing what the collector held, sorted
   by name; sorted_members_rank then gives each name's place. No member's bytes are kept. */
int sorted_members_list(struct sorted_members *sorted, const char *path);

/* The rank of NAME among the members listed or collected; false when there is no such member. */
bool sorted_members_rank(const struct sorted_members *sorted, const char *name, size_t *rank);

size_t sorted_members_count(const struct sorted_members *sorted);

/* The name and size of the member at RANK (0: the first in sorted order). */
const char *sorted_members_name(const struct sorted_members *sorted, size_t rank);
uint64_t sorted_members_size(const struct sorted_members *sorted, size_t rank);

/* Reads the bytes of the member at RANK into BUFFER (sorted_members_size bytes). */
int sorted_members_read(struct sorted_members *sorted, size_t rank, void *buffer);

void sorted_members_free(struct sorted_members *sorted);

#endif
