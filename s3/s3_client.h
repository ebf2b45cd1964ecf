/* One S3 request, blocking: signed, retried with backoff on 5xx, 429 (SlowDown) and dropped
   connections, honouring Retry-After; any other failure is one message and EXIT_TRANSFER at once. */
#ifndef FUEL_S3_CLIENT_H
#define FUEL_S3_CLIENT_H

#include "common/download/s3_credentials.h"
#include "common/download/s3_location.h"

#include <curl/curl.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* How many times a request is retried, and the first pause (doubled each time). */
#define S3_RETRIES 5
#define S3_RETRY_DELAY 0.2

struct s3_call {
    const char *method;             /* GET, HEAD, PUT, POST, DELETE */
    const char *bucket;
    const char *key;                /* "" for the bucket */
    const char *query;              /* "" or sorted "name=value&..." */
    const char *payload_sha256;     /* NULL: the empty body's */
    const char *const *headers;     /* "Name: value" lines, NULL-terminated; NULL: none */
    const char *body;               /* a body in memory, BODY_SIZE bytes; NULL: none */
    size_t body_size;
    int upload_descriptor;          /* >= 0: the body is UPLOAD_SIZE bytes at UPLOAD_OFFSET */
    uint64_t upload_offset, upload_size;
    volatile int *cancel;           /* nonzero: stop the request (a signal); NULL: never */
};

struct s3_response {
    long status;
    char *body;                     /* the answer's body, at most S3_XML_LIMIT bytes, NUL-ended */
    size_t size;
    uint64_t content_length;        /* Content-Length of a HEAD */
    char etag[256];
    char sha256[72];                /* x-amz-meta-sha256; "" without it */
    time_t last_modified;           /* the object's Last-Modified; 0: none */
    time_t date;                    /* the answer's Date (the store's clock); 0: none */
};

/* Performs CALL with CREDENTIALS. EXIT_OK for a 2xx answer (RESPONSE filled: free it with
   s3_response_free); otherwise EXIT_TRANSFER with the message "WHAT: s3://BUCKET/KEY: HTTP N
   Code: Message" (RESPONSE's status still set, its body freed). */
int s3_call_perform(const struct s3_credentials *credentials, const struct s3_call *call,
                    const char *what, struct s3_response *response);
void s3_response_free(struct s3_response *response);

/* A HEAD of the object at LOCATION with the shared credentials: its size, ETag and sha256 in
   HEAD. As s3_call_perform ("cannot read"). */
int s3_object_head(const struct s3_location *location, struct s3_response *head);

#endif
