/* Uploads files to S3: single PUTs and multipart uploads whose parts go out from a few threads,
   each part read twice from the file (its MD5, then its bytes), never held in memory whole. */
#include "s3_upload.h"

#include "common/base/error.h"
#include "common/base/hash.h"
#include "s3/s3_client.h"
#include "common/download/s3_request.h"
#include "common/download/s3_xml.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { READ_CHUNK = 1 << 20, DEFAULT_IN_FLIGHT = 4, HEADER_SIZE = 128 };

/* The base64 Content-MD5 of SIZE bytes at OFFSET of DESCRIPTOR into VALUE. */
static int part_md5(int descriptor, uint64_t offset, uint64_t size, char value[32])
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned length = 0;
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    char *buffer = malloc(READ_CHUNK);
    int code = context != NULL && buffer != NULL && EVP_DigestInit_ex(context, EVP_md5(), NULL)
                   ? EXIT_OK : EXIT_OTHER;
    for (uint64_t done = 0; code == EXIT_OK && done < size;) {
        size_t wanted = size - done < READ_CHUNK ? (size_t)(size - done) : READ_CHUNK;
        ssize_t got = pread(descriptor, buffer, wanted, (off_t)(offset + done));
        if (got <= 0)
            code = EXIT_MISSING_INPUT;
        else
            EVP_DigestUpdate(context, buffer, (size_t)got), done += (uint64_t)got;
    }
    if (code == EXIT_OK && EVP_DigestFinal_ex(context, digest, &length) == 1)
        EVP_EncodeBlock((unsigned char *)value, digest, (int)length);
    EVP_MD_CTX_free(context);
    free(buffer);
    return code;
}

struct upload {
    const struct s3_credentials *credentials;
    const char *bucket, *key, *upload_id;
    int descriptor;
    uint64_t size, part_size;
    unsigned part_count, next_part;
    char (*etags)[256];
    volatile int *cancel;
    pthread_mutex_t lock;
    int code;                 /* the first failure */
    char message[1024];
};

/* Sends one part (NUMBER from 1), or the whole object when UPLOAD_ID is NULL. */
static int part_send(const struct upload *upload, unsigned number, const char *sha256,
                     char *etag, size_t etag_size)
{
    uint64_t offset = (uint64_t)(number - 1) * upload->part_size;
    uint64_t size = upload->size - offset < upload->part_size ? upload->size - offset
                                                              : upload->part_size;
    char md5[32] = "", md5_header[HEADER_SIZE], sha_header[HEADER_SIZE], query[1024] = "";
    if (part_md5(upload->descriptor, offset, size, md5) != EXIT_OK)
        return error_set(EXIT_MISSING_INPUT, "cannot read: the file for s3://%s/%s",
                         upload->bucket, upload->key);
    snprintf(md5_header, sizeof md5_header, "Content-MD5: %s", md5);
    snprintf(sha_header, sizeof sha_header, "x-amz-meta-sha256: %s", sha256 != NULL ? sha256 : "");
    const char *headers[] = {md5_header, "Content-Type: application/octet-stream",
                             sha256 != NULL ? sha_header : NULL, NULL};
    if (upload->upload_id != NULL) {
        char *id = s3_query_escape(upload->upload_id);
        if (id == NULL)
            return error_set(EXIT_OTHER, "out of memory: s3://%s/%s", upload->bucket, upload->key);
        snprintf(query, sizeof query, "partNumber=%u&uploadId=%s", number, id);
        free(id);
    }
    struct s3_call call = {.method = "PUT", .bucket = upload->bucket, .key = upload->key,
                           .query = query, .payload_sha256 = S3_UNSIGNED_PAYLOAD,
                           .headers = headers, .upload_descriptor = upload->descriptor,
                           .upload_offset = offset, .upload_size = size, .cancel = upload->cancel};
    struct s3_response response;
    int code = s3_call_perform(upload->credentials, &call, "cannot upload", &response);
    if (code == EXIT_OK)
        snprintf(etag, etag_size, "%s", response.etag);
    s3_response_free(&response);
    return code;
}

static void *part_worker(void *data)
{
    struct upload *upload = data;
    for (;;) {
        pthread_mutex_lock(&upload->lock);
        unsigned number = upload->code == EXIT_OK ? ++upload->next_part : upload->part_count + 1;
        pthread_mutex_unlock(&upload->lock);
        if (number > upload->part_count)
            return NULL;
        int code = part_send(upload, number, NULL, upload->etags[number - 1],
                             sizeof upload->etags[0]);
        if (code != EXIT_OK) {
            pthread_mutex_lock(&upload->lock);
            if (upload->code == EXIT_OK) {
                upload->code = code;
                snprintf(upload->message, sizeof upload->message, "%s", error_message());
            }
            pthread_mutex_unlock(&upload->lock);
        }
    }
}

/* Sends every part from IN_FLIGHT threads; the first failure's code, its message set. */
static int parts_send(struct upload *upload, unsigned in_flight)
{
    pthread_t threads[16];
    unsigned started = 0;
    if (in_flight > 16)
        in_flight = 16;
    if (in_flight > upload->part_count)
        in_flight = upload->part_count;
    pthread_mutex_init(&upload->lock, NULL);
    for (; started < in_flight; started++)
        if (pthread_create(&threads[started], NULL, part_worker, upload) != 0)
            break;
    if (started == 0)
        part_worker(upload);
    for (unsigned index = 0; index < started; index++)
        pthread_join(threads[index], NULL);
    pthread_mutex_destroy(&upload->lock);
    if (upload->code != EXIT_OK)
        error_set(upload->code, "%s", upload->message);
    return upload->code;
}

/* A call on the multipart upload as a whole: QUERY_FORMAT takes the escaped upload id. */
static int upload_call(const struct upload *upload, const char *method, const char *query_format,
                       const char *body, const char *what, struct s3_response *response)
{
    char *id = s3_query_escape(upload->upload_id != NULL ? upload->upload_id : "");
    char query[1024], sha256[HASH_HEX_SIZE] = S3_EMPTY_SHA256;
    if (id == NULL)
        return error_set(EXIT_OTHER, "out of memory: s3://%s/%s", upload->bucket, upload->key);
    snprintf(query, sizeof query, query_format, id);
    free(id);
    size_t size = body != NULL ? strlen(body) : 0;
    struct hash *hash;
    if (body != NULL && hash_begin(&hash, HASH_SHA256) == EXIT_OK) {
        hash_update(hash, body, size);
        hash_finish(hash, sha256);
    }
    struct s3_call call = {.method = method, .bucket = upload->bucket, .key = upload->key,
                           .query = query, .payload_sha256 = sha256, .body = body,
                           .body_size = size, .upload_descriptor = -1};
    return s3_call_perform(upload->credentials, &call, what, response);
}

int s3_upload_abort(const struct s3_credentials *credentials, const char *bucket, const char *key,
                    const char *upload_id)
{
    struct upload upload = {.credentials = credentials, .bucket = bucket, .key = key,
                            .upload_id = upload_id};
    struct s3_response response;
    int code = upload_call(&upload, "DELETE", "uploadId=%s", NULL, "cannot abort the upload",
                           &response);
    s3_response_free(&response);
    return code;
}

/* Starts the multipart upload, the object's sha256 in its metadata: its id into *UPLOAD_ID. */
static int upload_create(const struct upload *upload, const char *sha256, char **upload_id)
{
    char header[HEADER_SIZE];
    snprintf(header, sizeof header, "x-amz-meta-sha256: %s", sha256);
    const char *headers[] = {header, "Content-Type: application/octet-stream", NULL};
    struct s3_call call = {.method = "POST", .bucket = upload->bucket, .key = upload->key,
                           .query = "uploads=", .headers = headers, .upload_descriptor = -1};
    struct s3_response response;
    struct s3_answer answer = {0};
    int code = s3_call_perform(upload->credentials, &call, "cannot start the upload", &response);
    if (code == EXIT_OK)
        code = s3_xml_parse(response.body, response.size, "the new upload's id", &answer);
    if (code == EXIT_OK && (answer.upload_id == NULL || answer.upload_id[0] == '\0'))
        code = error_set(EXIT_TRANSFER, "cannot start the upload: s3://%s/%s: no UploadId in the "
                         "answer", upload->bucket, upload->key);
    if (code == EXIT_OK)
        *upload_id = answer.upload_id, answer.upload_id = NULL;
    s3_answer_free(&answer);
    s3_response_free(&response);
    return code == EXIT_CORRUPT_INPUT ? EXIT_TRANSFER : code;
}

/* The CompleteMultipartUpload body listing every part's ETag; NULL when out of memory. */
static char *completion_body(const struct upload *upload)
{
    size_t size = 128 + (size_t)upload->part_count * (sizeof upload->etags[0] + 64), used = 0;
    char *body = malloc(size);
    if (body == NULL)
        return NULL;
    used += (size_t)snprintf(body, size, "<CompleteMultipartUpload>");
    for (unsigned index = 0; index < upload->part_count; index++)
        used += (size_t)snprintf(body + used, size - used, "<Part><PartNumber>%u</PartNumber>"
                                 "<ETag>%s</ETag></Part>", index + 1, upload->etags[index]);
    snprintf(body + used, size - used, "</CompleteMultipartUpload>");
    return body;
}

/* Completes the upload; S3 may answer 200 with an <Error> in the body. */
static int upload_complete(const struct upload *upload)
{
    char *body = completion_body(upload);
    if (body == NULL)
        return error_set(EXIT_OTHER, "out of memory: s3://%s/%s", upload->bucket, upload->key);
    struct s3_response response;
    struct s3_answer answer = {0};
    int code = upload_call(upload, "POST", "uploadId=%s", body, "cannot complete the upload",
                           &response);
    free(body);
    if (code == EXIT_OK && s3_xml_parse(response.body, response.size, "the completion", &answer) ==
                               EXIT_OK && answer.code[0] != '\0')
        code = error_set(EXIT_TRANSFER, "cannot complete the upload: s3://%s/%s: %s: %s",
                         upload->bucket, upload->key, answer.code, answer.message);
    s3_answer_free(&answer);
    s3_response_free(&response);
    return code;
}

/* Uploads in parts of UPLOAD->part_size; aborts the upload on any failure. */
static int upload_multipart(struct upload *upload, const char *sha256, unsigned in_flight)
{
    char *upload_id = NULL;
    int code = upload_create(upload, sha256, &upload_id);
    if (code != EXIT_OK)
        return code;
    upload->upload_id = upload_id;
    upload->etags = calloc(upload->part_count, sizeof upload->etags[0]);
    code = upload->etags != NULL ? parts_send(upload, in_flight)
                                 : error_set(EXIT_OTHER, "out of memory: s3://%s/%s",
                                             upload->bucket, upload->key);
    if (code == EXIT_OK)
        code = upload_complete(upload);
    if (code != EXIT_OK) {
        char message[1024];
        snprintf(message, sizeof message, "%s", error_message());
        s3_upload_abort(upload->credentials, upload->bucket, upload->key, upload_id);
        error_set(code, "%s", message);
    }
    free(upload->etags);
    free(upload_id);
    return code;
}

int s3_upload_file(const struct s3_credentials *credentials, const char *path, const char *bucket,
                   const char *key, const struct s3_upload_options *options)
{
    char sha256[HASH_HEX_SIZE];
    uint64_t size = 0;
    int code = hash_file(path, HASH_SHA256, sha256, &size);
    if (code != EXIT_OK)
        return code;
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0)
        return error_set(EXIT_MISSING_INPUT, "cannot read: %s: %s", path, error_system_reason());
    uint64_t part_size = options->part_size > 0 ? options->part_size : S3_PART_DEFAULT;
    while ((size + part_size - 1) / part_size > S3_PART_COUNT_LIMIT)
        part_size *= 2;
    struct upload upload = {.credentials = credentials, .bucket = bucket, .key = key,
                            .descriptor = descriptor, .size = size, .part_size = part_size,
                            .part_count = (unsigned)((size + part_size - 1) / part_size),
                            .cancel = options->cancel};
    if (size <= part_size) {
        char etag[256];
        upload.part_size = size;
        code = part_send(&upload, 1, sha256, etag, sizeof etag);
    } else {
        code = upload_multipart(&upload, sha256, options->parts_in_flight > 0
                                                     ? options->parts_in_flight
                                                     : DEFAULT_IN_FLIGHT);
    }
    close(descriptor);
    return code;
}
