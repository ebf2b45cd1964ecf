/* Whether a file's inputs, as its fuel_provenance records them (name, size, sha256, md5, origin),
   are the files a dataset's record publishes, and the line fuel-info prints about it. The records
   are handed in as plain entries, so this module knows no dataset. */
#ifndef FUEL_PUBLISHED_INPUTS_H
#define FUEL_PUBLISHED_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "common/base/input_verdict.h"

#include <jansson.h>

/* A raw file as a dataset's record publishes it. */
struct published_file {
    const char *name;
    uint64_t size;        /* bytes; 0 when not published */
    const char *checksum; /* md5 (32 hex digits) or sha256 (64); NULL when not published */
    uint64_t content_size;      /* its decompressed content, when published (0, NULL: not) */
    const char *content_sha256;
};

enum input_publication {
    INPUT_PUBLISHED,     /* the record's file of that name: checksum (and size) as published */
    INPUT_NOT_PUBLISHED, /* the record's name, other bytes: another checksum or size */
    INPUT_REPACKED,      /* the record's name, other bytes, but the published content once
                            decompressed (the provenance's content_sha256 and content_size) */
    INPUT_UNLISTED,      /* no file of the record has that name */
    INPUT_UNCHECKED,     /* the record publishes no checksum for it, or the provenance lacks the
                            digest its checksum needs (an md5, in files made before md5s were
                            recorded) */
    INPUT_FIXTURE,       /* written by fuel fixture --raw (the provenance's origin) */
};

struct input_publication_entry {
    char *name;
    enum input_publication state;
    const char *algorithm;  /* "md5" or "sha256": the digest compared; NULL when none was */
    char *recorded;         /* the provenance's digest of that algorithm; NULL when absent */
    const char *published;  /* the record's checksum; NULL when none */
    uint64_t size;          /* the provenance's */
    uint64_t published_size;
    char *reason;           /* why it is not the published file; NULL when it is, or repacked */
};

struct inputs_publication {
    struct input_publication_entry *inputs; /* in the provenance's order */
    size_t count;
};

/* Checks each input of PROVENANCE_JSON against FILES (COUNT entries) of DATASET, matched by name.
   EXIT_CORRUPT_INPUT "no well-formed inputs" when the JSON is not an object whose "inputs" is a
   list of objects with a string "name", or lists more than 4096 (walked, not parsed whole);
   EXIT_OTHER when out of memory. */
int inputs_publication_check(const char *provenance_json, const struct published_file *files,
                             size_t count, const char *dataset, struct inputs_publication *report);

void inputs_publication_free(struct inputs_publication *report);

/* REPORT's inputs as the evidence input_verdict.h judges (COUNT entries pointing into REPORT;
   the caller frees the array); NULL when out of memory. */
struct input_evidence *inputs_publication_evidence(const struct inputs_publication *report);

/* The verdict's sentence (input_verdict_print) on REPORT's inputs of DATASET (caller frees; NULL
   when out of memory). The reasons: "md5 X, published Y", "N bytes, published M", "not a file of
   DATASET", "no published checksum", "no md5 recorded", "fuel fixture --raw output". */
char *inputs_publication_summary(const struct inputs_publication *report, const char *dataset);

/* The same verdict for fuel-info --json: {"published": "files" | "content" | "no" | "unknown",
   "inputs": [{"name", "published", "reason"}, ...]}; NULL when out of memory. */
json_t *inputs_publication_json(const struct inputs_publication *report);

#endif
