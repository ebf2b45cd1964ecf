/* Sets up one libcurl transfer into a .part file and receives its headers and body. */
#include "transfer.h"

#include "common/base/error.h"
#include "common/base/monotonic_clock.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "retry.h"
#include "s3_location.h"
#include "s3_request.h"
#include "s3_xml.h"

enum { RECEIVE_BUFFER = 256 * 1024, REDIRECT_LIMIT = 10, ERROR_BODY_LIMIT = 64 * 1024 };

bool transfer_header_value(const char *line, size_t length, const char *name, char *value,
                           size_t size)
{
    size_t name_length = strlen(name);
    if (length <= name_length || strncasecmp(line, name, name_length) != 0 ||
        line[name_length] != ':')
        return false;
    const char *start = line + name_length + 1, *end = line + length;
    while (start < end && isspace((unsigned char)*start))
        start++;
    while (end > start && isspace((unsigned char)end[-1]))
        end--;
    size_t count = (size_t)(end - start) < size - 1 ? (size_t)(end - start) : size - 1;
    memcpy(value, start, count);
    value[count] = '\0';
    return true;
}

/* A new response begins (a redirect, or a retry's): forgets what the one before said. */
static void transfer_reset_response(struct transfer *transfer)
{
    transfer->range_start = UINT64_MAX;
    transfer->etag[0] = '\0';
    transfer->last_modified[0] = '\0';
    transfer->retry_after = -1;
}

static size_t transfer_header(char *line, size_t size, size_t count, void *data)
{
    struct transfer *transfer = data;
    size_t length = size * count;
    char value[PART_VALIDATOR_SIZE];
    if (length > 5 && strncmp(line, "HTTP/", 5) == 0) {
        transfer_reset_response(transfer);
    } else if (transfer_header_value(line, length, "ETag", value, sizeof value)) {
        if (strncmp(value, "W/", 2) != 0)   /* If-Range needs a strong validator */
            snprintf(transfer->etag, sizeof transfer->etag, "%s", value);
    } else if (transfer_header_value(line, length, "Last-Modified", value, sizeof value)) {
        snprintf(transfer->last_modified, sizeof transfer->last_modified, "%s", value);
    } else if (transfer_header_value(line, length, "Retry-After", value, sizeof value)) {
        transfer->retry_after = retry_after_seconds(value, time(NULL));
    } else if (transfer_header_value(line, length, "Content-Range", value, sizeof value)) {
        unsigned long long start;
        if (sscanf(value, "bytes %llu-", &start) == 1)
            transfer->range_start = start;
    }
    return length;
}

static int transfer_fail(struct transfer *transfer, enum transfer_failure failure, int error)
{
    transfer->failure = failure;
    transfer->write_error = error;
    return -1;
}

/* Called when the first bytes of the answer arrive: keeps the .part prefix on a 206 answer
   starting at its end, starts over on a 200, refuses anything else. */
static int transfer_open_body(struct transfer *transfer)
{
    long status = 0;
    curl_easy_getinfo(transfer->easy, CURLINFO_RESPONSE_CODE, &status);
    if (status != 0 && status != 200 && status != 206)
        return transfer_fail(transfer, TRANSFER_FAILURE_STATUS, 0);
    if (status == 206 && transfer->range_start != transfer->offset)
        return transfer_fail(transfer, TRANSFER_FAILURE_RANGE, 0);
    uint64_t keep = status == 206 ? transfer->offset : 0;
    transfer->descriptor = open(transfer->part_path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (transfer->descriptor < 0)
        return transfer_fail(transfer, TRANSFER_FAILURE_WRITE, errno);
    if (ftruncate(transfer->descriptor, (off_t)keep) != 0)
        return transfer_fail(transfer, TRANSFER_FAILURE_WRITE, errno);
    part_validator_write(transfer->descriptor,
                         transfer->etag[0] != '\0' ? transfer->etag : transfer->last_modified);
    if (body_pipeline_start(&transfer->pipeline, transfer->descriptor, transfer->part_path, keep,
                            transfer->settings.algorithm) != EXIT_OK)
        return transfer_fail(transfer, TRANSFER_FAILURE_WRITE, errno != 0 ? errno : ENOMEM);
    transfer->body_started = true;
    transfer->written = keep;
    transfer->kept = keep;
    return 0;
}

/* Abandons a transfer through which no byte came for the timeout. libcurl's low-speed limit
   averages over several seconds, so a burst followed by a stall would go unnoticed for longer. */
static int transfer_watch(void *user, curl_off_t download_total, curl_off_t received,
                          curl_off_t upload_total, curl_off_t sent)
{
    (void)upload_total, (void)sent;
    struct transfer *transfer = user;
    double now = monotonic_seconds();
    if (transfer->body_started && download_total > 0)
        transfer->announced = transfer->kept + (uint64_t)download_total;
    if (received != transfer->last_received) {
        transfer->last_received = received;
        transfer->last_activity = now;
        return 0;
    }
    if (now - transfer->last_activity <= transfer->settings.timeout)
        return 0;
    transfer_fail(transfer, TRANSFER_FAILURE_STALL, 0);
    return 1;
}

/* Keeps the first ERROR_BODY_LIMIT bytes of an s3:// error answer; false for other answers. */
static bool transfer_keep_error(struct transfer *transfer, const char *data, size_t length)
{
    long status = 0;
    curl_easy_getinfo(transfer->easy, CURLINFO_RESPONSE_CODE, &status);
    if (transfer->resolved_url == NULL || status < 400)
        return false;
    size_t room = ERROR_BODY_LIMIT - transfer->error_size;
    size_t count = length < room ? length : room;
    char *grown = count > 0 ? realloc(transfer->error_body, transfer->error_size + count) : NULL;
    if (grown != NULL) {
        memcpy(grown + transfer->error_size, data, count);
        transfer->error_body = grown;
        transfer->error_size += count;
    }
    return true;
}

void transfer_describe_status(const struct transfer *transfer, long status, char *why,
                              size_t size)
{
    struct s3_answer answer = {0};
    if (transfer->error_body != NULL &&
        s3_xml_parse(transfer->error_body, transfer->error_size, "an S3 error", &answer) ==
            EXIT_OK && answer.code[0] != '\0')
        snprintf(why, size, "HTTP %ld %s: %s", status, answer.code, answer.message);
    else
        snprintf(why, size, "HTTP %ld", status);
    s3_answer_free(&answer);
}

static size_t transfer_body(char *data, size_t size, size_t count, void *user)
{
    struct transfer *transfer = user;
    size_t length = size * count;
    if (!transfer->body_started && transfer_keep_error(transfer, data, length))
        return length;
    if (!transfer->body_started && transfer_open_body(transfer) != 0)
        return CURL_WRITEFUNC_ERROR;
    uint64_t expected = transfer->settings.expected_size;
    if (expected > 0 && transfer->written + length > expected) {
        transfer_fail(transfer, TRANSFER_FAILURE_TOO_LARGE, 0);
        return CURL_WRITEFUNC_ERROR;
    }
    int failure = body_pipeline_feed(transfer->pipeline, data, length);
    if (failure != 0) {
        transfer_fail(transfer, TRANSFER_FAILURE_WRITE, failure);
        return CURL_WRITEFUNC_ERROR;
    }
    transfer->written += length;
    return length;
}

int transfer_open_empty(struct transfer *transfer)
{
    if (transfer->body_started)
        return 0;
    return transfer_open_body(transfer);
}

/* Asks for the bytes after the .part's end when its validator is known and the URL speaks HTTP. */
static void transfer_plan_resume(struct transfer *transfer, const char *url)
{
    struct stat status;
    char validator[PART_VALIDATOR_SIZE], header[PART_VALIDATOR_SIZE + 16];
    uint64_t expected = transfer->settings.expected_size;
    transfer->offset = 0;
    if (strncasecmp(url, "http", 4) != 0 || stat(transfer->part_path, &status) != 0 ||
        status.st_size <= 0 || (expected > 0 && (uint64_t)status.st_size >= expected) ||
        part_validator_read(transfer->part_path, validator) != 0)
        return;
    snprintf(header, sizeof header, "If-Range: %s", validator);
    struct curl_slist *headers = curl_slist_append(transfer->headers, header);
    if (headers == NULL)
        return;
    transfer->headers = headers;
    transfer->offset = (uint64_t)status.st_size;
    snprintf(transfer->range, sizeof transfer->range, "%" PRIu64 "-", transfer->offset);
    curl_easy_setopt(transfer->easy, CURLOPT_RANGE, transfer->range);
}

static void transfer_set_options(struct transfer *transfer, const char *url, void *private)
{
    CURL *easy = transfer->easy;
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_PRIVATE, private);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, transfer->curl_error);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https,file");
    curl_easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(easy, CURLOPT_MAXREDIRS, (long)REDIRECT_LIMIT);
    curl_easy_setopt(easy, CURLOPT_USERAGENT, "fuel/" FUEL_VERSION);
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, (long)(transfer->settings.timeout * 1000));
    curl_easy_setopt(easy, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, transfer_watch);
    curl_easy_setopt(easy, CURLOPT_XFERINFODATA, transfer);
    curl_easy_setopt(easy, CURLOPT_BUFFERSIZE, (long)RECEIVE_BUFFER);
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, transfer_header);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, transfer);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, transfer_body);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, transfer);
}

int transfer_begin(struct transfer *transfer, CURL *easy, const char *url, const char *part_path,
                   const struct transfer_settings *settings, void *private)
{
    memset(transfer, 0, sizeof *transfer);
    transfer->part_path = part_path;
    transfer->settings = *settings;
    transfer->easy = easy;
    transfer->descriptor = -1;
    transfer->range_start = UINT64_MAX;
    transfer->retry_after = -1;
    transfer->last_activity = monotonic_seconds();
    if (s3_is_url(url)) {
        int code = s3_request_prepare_get(easy, &transfer->headers, url, &transfer->resolved_url);
        if (code != EXIT_OK)
            return code;
        url = transfer->resolved_url;
    }
    transfer_set_options(transfer, url, private);
    transfer_plan_resume(transfer, url);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, transfer->headers);
    return EXIT_OK;
}

void transfer_keep_received(struct transfer *transfer)
{
    body_pipeline_cancel(transfer->pipeline);
    transfer->pipeline = NULL;
}

void transfer_end(struct transfer *transfer)
{
    transfer_keep_received(transfer);   /* its threads use the descriptor */
    if (transfer->descriptor >= 0)
        close(transfer->descriptor);
    transfer->descriptor = -1;
    curl_slist_free_all(transfer->headers);
    transfer->headers = NULL;
    free(transfer->resolved_url);
    transfer->resolved_url = NULL;
    free(transfer->error_body);
    transfer->error_body = NULL;
    transfer->error_size = 0;
    transfer->easy = NULL;
}
