/* Digests of an input computed from the very bytes its reader reads: a descriptor input_file_open
   gives for a file with a tap feeds that tap as it is read (input_file_read and _pread), and what
   the reader skipped or left unread is hashed by the same pass, in order, when the tap finishes. */
#ifndef FUEL_READ_TAP_H
#define FUEL_READ_TAP_H

#include "hash.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

struct read_tap;

/* Registers a tap for the file at PATH: its SHA-256, with MD5 its MD5 too, its first and last
   bytes. A PATH that cannot be looked at gets a tap that no descriptor feeds. A descriptor
   input_file_open gave on the file before, still open, feeds it from now on (what it read
   before is read again at the finish, or when its reads skip ahead). */
int read_tap_create(struct read_tap **tap, const char *path, bool md5);

/* Whether a file whose first LENGTH bytes (up to HASH_HEAD_BYTES) are HEAD wants its content
   hashed (NULL: every file does). */
typedef bool read_tap_head_test(const unsigned char *head, size_t length);

/* The tap hashes the file's inflated content as well, as an inflater reading the file from its
   start hands it to read_tap_content, unless WANTED says no of the bytes read before the content
   begins; called before the file is opened. */
void read_tap_want_content(struct read_tap *tap, read_tap_head_test *wanted);

/* Unregisters the tap and writes the file's digests: the bytes fed, then the file's bytes from
   where its readers stopped to its end. Errors as hash_file_digests'. */
int read_tap_finish(struct read_tap *tap, struct file_digests *digests);

/* After read_tap_finish: whether the content was inflated to its end, and then its SHA-256 and
   size. */
bool read_tap_content_digest(const struct read_tap *tap, char hex[HASH_HEX_SIZE], uint64_t *size);

/* Unregisters (when not finished) and frees; NULL is allowed. */
void read_tap_free(struct read_tap *tap);

/* For input_file.c: DESCRIPTOR, just opened on the file STATUS describes, feeds that file's tap
   when it has one that no other descriptor feeds; read_tap_detach before it is closed. */
void read_tap_attach(int descriptor, const struct stat *status);
void read_tap_detach(int descriptor);

/* For input_file.c: COUNT bytes read from DESCRIPTOR at OFFSET. */
void read_tap_bytes(int descriptor, const void *bytes, size_t count, uint64_t offset);

/* Whether DESCRIPTOR feeds a tap: input_file.c's test before it looks up the offset. */
bool read_tap_attached(int descriptor);

/* For the inflater: whether DESCRIPTOR's tap wants its content and has not had its end. */
bool read_tap_wants_content(int descriptor);

/* For the inflater: the next COUNT bytes inflated from the file behind DESCRIPTOR, from its start;
   read_tap_content_end once the content has ended. */
void read_tap_content(int descriptor, const void *bytes, size_t count);
void read_tap_content_end(int descriptor);

#endif
