/* The URL of an S3 request and its signing by libcurl's own AWS Signature V4
   (CURLOPT_AWS_SIGV4): path-style on a configured endpoint, virtual-hosted on AWS. */
#ifndef FUEL_S3_REQUEST_H
#define FUEL_S3_REQUEST_H

#include "s3_credentials.h"

#include <curl/curl.h>

/* x-amz-content-sha256 of a request without a body, and of one whose body is not hashed (each
   part then carries its Content-MD5). */
#define S3_EMPTY_SHA256 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
#define S3_UNSIGNED_PAYLOAD "UNSIGNED-PAYLOAD"

/* The http(s) URL of KEY in BUCKET with QUERY ("" or "name=value&..." sorted by name, values
   already encoded); the key is percent-encoded but for '/'. NULL when out of memory. */
char *s3_request_url(const struct s3_credentials *credentials, const char *bucket,
                     const char *key, const char *query);

/* VALUE percent-encoded as S3's canonical query wants it; NULL when out of memory. */
char *s3_query_escape(const char *value);

/* Sets EASY's TLS checks (the CA bundle, --insecure) and its signing with CREDENTIALS (none when
   anonymous), and appends the x-amz headers to
   *HEADERS: the payload's sha256 (PAYLOAD_SHA256) and the session token. EXIT_OTHER when out of
   memory. The caller sets CURLOPT_HTTPHEADER to *HEADERS afterwards. */
int s3_request_sign(CURL *easy, struct curl_slist **headers,
                    const struct s3_credentials *credentials, const char *payload_sha256);

/* Resolves an s3:// URL for a transfer: the http(s) URL into *URL (to free), EASY signed, the
   headers appended. EXIT_CORRUPT_INPUT for a bad name, EXIT_TRANSFER for bad credentials. */
int s3_request_prepare_get(CURL *easy, struct curl_slist **headers, const char *s3_url,
                           char **url);

#endif
