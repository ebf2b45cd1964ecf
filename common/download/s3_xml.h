/* S3's XML answers (errors, object and multipart-upload listings, a new upload's id) read with
   expat, bounded: the caller caps the body at S3_XML_LIMIT bytes before it is parsed. */
#ifndef FUEL_S3_XML_H
#define FUEL_S3_XML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest answer read: a listing page of 1000 keys of 1024 bytes each fits. */
#define S3_XML_LIMIT (4u << 20)

/* A <Contents> (Key, Size, ETag) or an <Upload> (Key, UploadId) of a listing. */
struct s3_entry {
    char *key;
    uint64_t size;
    char *upload_id;
};

struct s3_answer {
    char code[64];             /* <Error><Code>; "" without one */
    char message[256];         /* <Error><Message>, cut */
    char *upload_id;           /* InitiateMultipartUploadResult's UploadId */
    bool truncated;            /* IsTruncated: another page follows */
    char *next_token;          /* NextContinuationToken */
    char *next_key_marker;     /* NextKeyMarker */
    char *next_upload_marker;  /* NextUploadIdMarker */
    struct s3_entry *entries;
    size_t count;
};

/* Parses the SIZE bytes at BODY into ANSWER (zeroed first). EXIT_CORRUPT_INPUT with the message
   set (naming WHAT) for a body that is not well-formed XML, nests deeper than S3 does, or is over
   S3_XML_LIMIT. */
int s3_xml_parse(const char *body, size_t size, const char *what, struct s3_answer *answer);
void s3_answer_free(struct s3_answer *answer);

#endif
