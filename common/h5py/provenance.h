/* The fuel_provenance JSON: tool, argv, inputs with size, sha256, for raw files md5 (the digest
   publishers give) and their origin when they carry the mark of fuel fixture --raw, library
   versions, created. */
#ifndef FUEL_PROVENANCE_H
#define FUEL_PROVENANCE_H

#include "common/base/typed_command.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct provenance;

/* The "origin" of an input that carries the mark of fuel fixture --raw (fixture_marker.h). */
#define PROVENANCE_FIXTURE_ORIGIN "fuel fixture --raw"

/* What the record of a raw input publishes (PUBLISHED[i] in provenance_begin_supplied and _read;
   NULL: nothing is known, every raw input gets its md5): its CHECKSUM (md5 or sha256 in hex, kept
   by the caller until the finish; NULL: none) and SIZE (0: none). An input's md5 is taken only
   where it can match: an md5 is published and the file has its size. With CONTENT, the record
   publishes the content the file holds once decompressed: when the input's own digest differs
   and it is not a fixture, the finish records the sha256 and size of that content too
   ("content_sha256", "content_size"), so a re-compressed file can be told from another; it is
   hashed in the read pass when the file's size differs, else inflated again only then. With
   REPACKED_SHA256, a re-compressed copy (REPACKED_SIZE bytes) known to hold CONTENT_SHA256's
   CONTENT_SIZE bytes: a file with that sha256 gets those as its content's without being inflated,
   and a file of that size is not hashed in the read pass (inflated again only when it differs).
   With SHA256, the published file's sha256 beside an md5 CHECKSUM: that md5 is not computed but
   recorded when the input's sha256 is this one, and left out when it is not (not the file). */
struct provenance_publication {
    const char *checksum;
    const char *sha256;
    uint64_t size;
    bool content;
    uint64_t content_size;
    const char *content_sha256;
    uint64_t repacked_size;
    const char *repacked_sha256;
};

/* Starts hashing the input files (in a background thread, so conversion runs meanwhile); with
   RAW_FILES (a dataset's raw files, which their publishers list by md5) their md5 too. */
int provenance_begin(struct provenance **provenance, int argc, char *const *argv,
                     const char *const *input_paths, size_t input_count, bool raw_files);

/* As provenance_begin, each input recorded under NAMES[i] instead of its file name (NAMES NULL:
   the file names). */
int provenance_begin_named(struct provenance **provenance, int argc, char *const *argv,
                           const char *const *input_paths, const char *const *names,
                           size_t input_count, bool raw_files);

/* As provenance_begin_named, the inputs flagged in SUPPLIED (NULL: none) left out of the
   thread: their reader hands the bytes it read whole to provenance_supply (one read instead of
   two; the digest is of the very bytes converted). provenance_finish hashes any not handed. */
int provenance_begin_supplied(struct provenance **provenance, int argc, char *const *argv,
                              const char *const *input_paths, const char *const *names,
                              size_t input_count, bool raw_files, const bool *supplied,
                              const struct provenance_publication *published);

/* As provenance_begin_supplied, the inputs not supplied hashed from the bytes their readers read
   through input_file.h (read_tap.h), no thread reading them again; what a reader skipped or left
   unread, or an input no reader opened, is hashed at the finish. Those flagged in APART (NULL:
   none), which their reader reads otherwise (HDF5 files), are hashed on a thread meanwhile. */
int provenance_begin_read(struct provenance **provenance, int argc, char *const *argv,
                          const char *const *input_paths, const char *const *names,
                          size_t input_count, bool raw_files, const bool *supplied,
                          const bool *apart, const struct provenance_publication *published);

/* Input INDEX (flagged supplied) is the SIZE bytes at BYTES; from any thread. EXIT_CORRUPT_INPUT
   when it was handed before with other bytes (the file changed while being read). */
int provenance_supply(struct provenance *provenance, size_t index, const void *bytes,
                      size_t size);

/* Input INDEX (flagged supplied) has the SIZE bytes whose sha256 is SHA256 (64 hex digits), known
   without reading it: an object read in place, its digest recorded in the store when it was
   published. */
void provenance_supply_digest(struct provenance *provenance, size_t index, const char *sha256,
                              uint64_t size);

/* Waits for the hashes and returns the JSON text (caller frees); NULL with error_set on failure. */
char *provenance_finish(struct provenance *provenance);

/* What provenance_finish_noted records besides the provenance's own members. */
struct provenance_notes {
    const char *first_key;
    json_t *first; /* first of all under FIRST_KEY (NULL: none); its "parent" object, when it has
                      one, gets the first input's sha256 */
    json_t *last;  /* last under "conversion", when it holds anything (NULL: none) */
};

/* As provenance_finish, with NOTES (NULL: none). */
char *provenance_finish_noted(struct provenance *provenance, const struct provenance_notes *notes);

/* After a failure: stops hashing once the file in progress is done, waits for that, frees. */
void provenance_discard(struct provenance *provenance);

/* "created" value: SOURCE_DATE_EPOCH when set, else now; UTC ISO 8601 "YYYY-MM-DDTHH:MM:SSZ". */
void provenance_created(char *buffer, size_t size);

/* The "created" of the fuel_provenance attribute of the HDF5 file PATH (caller frees); NULL when
   there is none or PATH does not open, leaving no error behind. */
char *provenance_file_created(const char *path);

#endif
