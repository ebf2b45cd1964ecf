/* One HTTP or file transfer into a .part file: the libcurl easy handle's setup, resume with
   Range and If-Range, and the callbacks that keep error bodies out of the file. */
#ifndef FUEL_TRANSFER_H
#define FUEL_TRANSFER_H

#include "body_pipeline.h"
#include "part_validator.h"

#include <curl/curl.h>
#include <stdbool.h>
#include <stdint.h>

enum transfer_failure {
    TRANSFER_FAILURE_NONE,
    TRANSFER_FAILURE_STATUS,    /* the server answered with something other than the bytes */
    TRANSFER_FAILURE_RANGE,     /* a 206 answer did not start where the .part ends */
    TRANSFER_FAILURE_TOO_LARGE, /* more bytes than the expected size */
    TRANSFER_FAILURE_WRITE,     /* the .part file could not be written */
    TRANSFER_FAILURE_STALL,     /* no byte arrived for the timeout */
};

struct transfer_settings {
    double timeout;            /* seconds to connect, and without a byte */
    uint64_t expected_size;    /* 0 when unknown */
    enum hash_algorithm algorithm;
};

struct transfer {
    const char *part_path;
    struct transfer_settings settings;
    CURL *easy;
    struct curl_slist *headers;
    char *resolved_url;        /* an s3:// URL's http(s) form; NULL for other URLs */
    char *error_body;          /* an s3:// error answer's body (S3's XML), cut; NULL: none */
    size_t error_size;
    char range[32];
    int descriptor;
    uint64_t offset;           /* bytes of the .part asked to be kept (Range start) */
    uint64_t written;          /* bytes in the .part now */
    uint64_t kept;             /* bytes of the .part kept when the answer's body began */
    uint64_t announced;        /* the whole file's size as the answer announced it; 0 unknown */
    struct body_pipeline *pipeline; /* writes and hashes the body */
    bool body_started;
    uint64_t range_start;      /* start of the last Content-Range, UINT64_MAX without one */
    char etag[PART_VALIDATOR_SIZE];
    char last_modified[PART_VALIDATOR_SIZE];
    double retry_after;        /* seconds asked by Retry-After; -1 when absent */
    double last_activity;      /* monotonic time of the start or of the last byte received */
    curl_off_t last_received;
    enum transfer_failure failure;
    int write_error;           /* errno of TRANSFER_FAILURE_WRITE */
    char curl_error[CURL_ERROR_SIZE];
};

/* Prepares EASY to fetch URL into PART_PATH, resuming when the .part has a validator. PRIVATE is
   stored as the handle's private pointer. An s3:// URL is fetched from its store, signed; a bad
   name or bad credentials return their code with the message set (transfer_end still frees). */
/* Copies a header's value, without surrounding blanks, into VALUE (SIZE bytes) when LINE (LENGTH
   bytes, as libcurl hands it) is "NAME: value", NAME in any case. */
bool transfer_header_value(const char *line, size_t length, const char *name, char *value,
                           size_t size);

int transfer_begin(struct transfer *transfer, CURL *easy, const char *url, const char *part_path,
                   const struct transfer_settings *settings, void *private);

/* "HTTP STATUS", followed by S3's error code and message when an s3:// answer had them. */
void transfer_describe_status(const struct transfer *transfer, long status, char *why,
                              size_t size);

/* After a transfer libcurl reports done without a body (an empty file): creates the .part. */
int transfer_open_empty(struct transfer *transfer);

/* A transfer that failed or was cut: writes every byte received to the .part, stops hashing. */
void transfer_keep_received(struct transfer *transfer);

/* Stops the body's threads, closes the .part (kept as it is), frees the headers and forgets the
   handle (its caller cleans it up). */
void transfer_end(struct transfer *transfer);

#endif
