/* Performs single S3 requests with libcurl's easy interface: the signed request, the bounded
   answer, the error's XML read for its code, the retries. */
#include "s3_client.h"

#include "common/base/error.h"
#include "common/download/retry.h"
#include "common/download/s3_request.h"
#include "common/download/s3_xml.h"
#include "common/download/transfer.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

enum { RETRY_AFTER_CAP = 60, CONNECT_SECONDS = 30, STALL_SECONDS = 60 };

struct exchange {
    const struct s3_call *call;
    struct s3_response *response;
    uint64_t sent;                  /* bytes of the upload range read so far */
    double retry_after;
    bool too_large;
};

static size_t exchange_body(char *data, size_t size, size_t count, void *user)
{
    struct exchange *exchange = user;
    struct s3_response *response = exchange->response;
    size_t length = size * count;
    if (response->size + length > S3_XML_LIMIT) {
        exchange->too_large = true;
        return CURL_WRITEFUNC_ERROR;
    }
    char *grown = realloc(response->body, response->size + length + 1);
    if (grown == NULL)
        return CURL_WRITEFUNC_ERROR;
    memcpy(grown + response->size, data, length);
    response->size += length;
    grown[response->size] = '\0';
    response->body = grown;
    return length;
}

/* An HTTP date's time; 0 when it is not one. */
static time_t http_date(const char *value)
{
    time_t when = curl_getdate(value, NULL);
    return when > 0 ? when : 0;
}

static size_t exchange_header(char *line, size_t size, size_t count, void *user)
{
    struct exchange *exchange = user;
    struct s3_response *response = exchange->response;
    size_t length = size * count;
    char value[64];
    transfer_header_value(line, length, "ETag", response->etag, sizeof response->etag);
    transfer_header_value(line, length, "x-amz-meta-sha256", response->sha256, sizeof response->sha256);
    if (transfer_header_value(line, length, "Retry-After", value, sizeof value))
        exchange->retry_after = retry_after_seconds(value, time(NULL));
    if (transfer_header_value(line, length, "Content-Length", value, sizeof value))
        response->content_length = strtoull(value, NULL, 10);
    if (transfer_header_value(line, length, "Last-Modified", value, sizeof value))
        response->last_modified = http_date(value);
    if (transfer_header_value(line, length, "Date", value, sizeof value))
        response->date = http_date(value);
    return length;
}

static size_t exchange_read(char *buffer, size_t size, size_t count, void *user)
{
    struct exchange *exchange = user;
    const struct s3_call *call = exchange->call;
    uint64_t left = call->upload_size - exchange->sent;
    size_t wanted = size * count < left ? size * count : (size_t)left;
    if (wanted == 0)
        return 0;
    ssize_t got = pread(call->upload_descriptor, buffer, wanted,
                        (off_t)(call->upload_offset + exchange->sent));
    if (got <= 0)
        return CURL_READFUNC_ABORT;
    exchange->sent += (uint64_t)got;
    return (size_t)got;
}

static int exchange_progress(void *user, curl_off_t download_total, curl_off_t received,
                             curl_off_t upload_total, curl_off_t sent)
{
    (void)download_total, (void)received, (void)upload_total, (void)sent;
    const struct exchange *exchange = user;
    return exchange->call->cancel != NULL && *exchange->call->cancel != 0;
}

/* The request's method and body. */
static void exchange_set_body(CURL *easy, struct exchange *exchange)
{
    const struct s3_call *call = exchange->call;
    if (strcmp(call->method, "HEAD") == 0) {
        curl_easy_setopt(easy, CURLOPT_NOBODY, 1L);
    } else if (call->upload_descriptor >= 0) {
        curl_easy_setopt(easy, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(easy, CURLOPT_READFUNCTION, exchange_read);
        curl_easy_setopt(easy, CURLOPT_READDATA, exchange);
        curl_easy_setopt(easy, CURLOPT_INFILESIZE_LARGE, (curl_off_t)call->upload_size);
    } else if (call->body != NULL || strcmp(call->method, "POST") == 0) {
        curl_easy_setopt(easy, CURLOPT_POSTFIELDS, call->body != NULL ? call->body : "");
        curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)call->body_size);
    }
    if (strcmp(call->method, "GET") != 0 && strcmp(call->method, "HEAD") != 0)
        curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, call->method);
}

static void exchange_set_callbacks(CURL *easy, struct exchange *exchange)
{
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_USERAGENT, "fuel/" FUEL_VERSION);
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT, (long)CONNECT_SECONDS);
    curl_easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(easy, CURLOPT_LOW_SPEED_TIME, (long)STALL_SECONDS);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, exchange_body);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, exchange);
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, exchange_header);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, exchange);
    curl_easy_setopt(easy, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, exchange_progress);
    curl_easy_setopt(easy, CURLOPT_XFERINFODATA, exchange);
}

/* One attempt; the libcurl result, with the status in RESPONSE. */
static CURLcode exchange_once(const struct s3_credentials *credentials, struct exchange *exchange,
                              const char *url)
{
    const struct s3_call *call = exchange->call;
    CURL *easy = curl_easy_init();
    struct curl_slist *headers = NULL;
    if (easy == NULL)
        return CURLE_OUT_OF_MEMORY;
    curl_easy_setopt(easy, CURLOPT_URL, url);
    exchange_set_callbacks(easy, exchange);
    exchange_set_body(easy, exchange);
    CURLcode result = CURLE_OUT_OF_MEMORY;
    bool listed = true;
    for (size_t index = 0; call->headers != NULL && call->headers[index] != NULL; index++) {
        struct curl_slist *grown = curl_slist_append(headers, call->headers[index]);
        listed = listed && grown != NULL;
        headers = grown != NULL ? grown : headers;
    }
    const char *payload = call->payload_sha256 != NULL ? call->payload_sha256 : S3_EMPTY_SHA256;
    if (listed && s3_request_sign(easy, &headers, credentials, payload) == EXIT_OK) {
        curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
        result = curl_easy_perform(easy);
        curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &exchange->response->status);
    }
    curl_slist_free_all(headers);
    curl_easy_cleanup(easy);
    return result;
}

/* The failure's message: the status and S3's own code and message when the body has them. */
static int exchange_fail(const struct exchange *exchange, CURLcode result, const char *what)
{
    const struct s3_call *call = exchange->call;
    const struct s3_response *response = exchange->response;
    struct s3_answer answer = {0};
    char why[512];
    if (exchange->too_large)
        snprintf(why, sizeof why, "an answer of more than %u bytes", S3_XML_LIMIT);
    else if (result != CURLE_OK)
        snprintf(why, sizeof why, "%s", curl_easy_strerror(result));
    else if (response->size > 0 && s3_xml_parse(response->body, response->size, what, &answer) ==
                                       EXIT_OK && answer.code[0] != '\0')
        snprintf(why, sizeof why, "HTTP %ld %s: %s", response->status, answer.code, answer.message);
    else
        snprintf(why, sizeof why, "HTTP %ld", response->status);
    s3_answer_free(&answer);
    return error_set(EXIT_TRANSFER, "%s: s3://%s/%s: %s", what, call->bucket, call->key, why);
}

static void response_clear(struct s3_response *response)
{
    free(response->body);
    memset(response, 0, sizeof *response);
}

/* Sleeps before retry number ATTEMPT, or longer when the store asked for it. */
static void exchange_pause(const struct exchange *exchange, unsigned attempt)
{
    double pause = retry_backoff(attempt, S3_RETRY_DELAY, drand48());
    if (exchange->retry_after > pause)
        pause = exchange->retry_after < RETRY_AFTER_CAP ? exchange->retry_after : RETRY_AFTER_CAP;
    struct timespec wait = {(time_t)pause, (long)((pause - (double)(time_t)pause) * 1e9)};
    nanosleep(&wait, NULL);
}

int s3_call_perform(const struct s3_credentials *credentials, const struct s3_call *call,
                    const char *what, struct s3_response *response)
{
    memset(response, 0, sizeof *response);
    char *url = s3_request_url(credentials, call->bucket, call->key, call->query);
    if (url == NULL)
        return error_set(EXIT_OTHER, "out of memory: s3://%s/%s", call->bucket, call->key);
    int code = EXIT_TRANSFER;
    for (unsigned attempt = 0;; attempt++) {
        struct exchange exchange = {.call = call, .response = response, .retry_after = -1};
        CURLcode result = exchange_once(credentials, &exchange, url);
        long status = response->status;
        if (result == CURLE_OK && status >= 200 && status < 300) {
            code = EXIT_OK;
            break;
        }
        bool cancelled = call->cancel != NULL && *call->cancel != 0;
        if (cancelled || exchange.too_large || attempt >= S3_RETRIES ||
            retry_classify(result, result == CURLE_OK ? status : 0) != RETRY_TRANSIENT) {
            code = cancelled ? error_set(EXIT_TRANSFER, "%s: s3://%s/%s: interrupted", what,
                                         call->bucket, call->key)
                             : exchange_fail(&exchange, result, what);
            break;
        }
        response_clear(response);
        exchange_pause(&exchange, attempt + 1);
    }
    free(url);
    if (code != EXIT_OK) {
        long status = response->status;
        response_clear(response);
        response->status = status;
    }
    return code;
}

void s3_response_free(struct s3_response *response)
{
    response_clear(response);
}

int s3_object_head(const struct s3_location *location, struct s3_response *head)
{
    const struct s3_credentials *credentials = s3_credentials_shared();
    if (credentials == NULL)
        return error_code();
    struct s3_call call = {.method = "HEAD", .bucket = location->bucket, .key = location->key,
                           .query = "", .upload_descriptor = -1};
    return s3_call_perform(credentials, &call, "cannot read", head);
}
