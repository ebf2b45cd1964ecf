/* A fetching node's lease object: its conditional create, its renewal thread, a waiter's look. */
#include "s3_lease.h"

#include "common/base/error.h"
#include "common/download/s3_request.h"
#include "s3/s3_client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { HOST_BYTES = 256, LINE_BYTES = 512 };

/* FUEL_S3_LEASE_SECONDS when it is a number from 0.1 to a day, else S3_LEASE_SECONDS. */
static double lease_seconds(void)
{
    const char *value = getenv("FUEL_S3_LEASE_SECONDS");
    char *end = NULL;
    double seconds = value != NULL ? strtod(value, &end) : 0;
    return end != NULL && end != value && *end == '\0' && seconds >= 0.1 && seconds <= 86400
               ? seconds
               : S3_LEASE_SECONDS;
}

int s3_lease_init(struct s3_lease *lease, const struct s3_publish *publish, const char *name)
{
    memset(lease, 0, sizeof *lease);
    char base[1024];
    snprintf(base, sizeof base, ".fuel-lease-%s", name);
    lease->key = s3_key_join(publish->location.key, base);
    if (lease->key == NULL)
        return error_code();
    lease->publish = publish;
    lease->seconds = lease_seconds();
    lease->started = time(NULL);
    pthread_mutex_init(&lease->mutex, NULL);
    pthread_cond_init(&lease->stop, NULL);
    return EXIT_OK;
}

static void utc_text(time_t when, char *text, size_t size)
{
    struct tm parts;
    gmtime_r(&when, &parts);
    strftime(text, size, "%Y-%m-%dT%H:%M:%SZ", &parts);
}

/* PUTs the lease's line into KEY, with HEADER ("If-None-Match: *") when not NULL. */
static int lease_put(const struct s3_lease *lease, const char *key, const char *header,
                     struct s3_response *response)
{
    char host[HOST_BYTES] = "", started[32], expires[32], line[LINE_BYTES];
    gethostname(host, sizeof host - 1);
    utc_text(lease->started, started, sizeof started);
    utc_text(time(NULL) + (time_t)(lease->seconds + 0.999), expires, sizeof expires);
    snprintf(line, sizeof line, "host %s pid %ld started %s expires %s\n", host, (long)getpid(),
             started, expires);
    const char *headers[] = {header, NULL};
    struct s3_call call = {.method = "PUT", .bucket = lease->publish->location.bucket,
                           .key = key, .query = "", .headers = header ? headers : NULL,
                           .body = line, .body_size = strlen(line),
                           .payload_sha256 = S3_UNSIGNED_PAYLOAD, .upload_descriptor = -1};
    return s3_call_perform(s3_credentials_shared(), &call, "cannot write the lease", response);
}

/* The conditional create of KEY. */
static int lease_create(const struct s3_lease *lease, const char *key,
                        enum s3_lease_outcome *outcome)
{
    struct s3_response response;
    int code = lease_put(lease, key, "If-None-Match: *", &response);
    long status = response.status;
    s3_response_free(&response);
    *outcome = S3_LEASE_TAKEN;
    if (code == EXIT_OK)
        return code;
    if (status == 412 || status == 409)
        *outcome = S3_LEASE_HELD;
    else if (status == 501 || (status == 400 && strstr(error_message(), " NotImplemented:")))
        *outcome = S3_LEASE_UNSUPPORTED;
    else
        return code;
    error_clear();
    return EXIT_OK;
}

int s3_lease_take(struct s3_lease *lease, enum s3_lease_outcome *outcome)
{
    return lease_create(lease, lease->key, outcome);
}

int s3_lease_take_over(struct s3_lease *lease, const struct s3_lease_view *view,
                       enum s3_lease_outcome *outcome)
{
    const char *etag = view->etag + (view->etag[0] == '"');
    char *claim = NULL;
    *outcome = S3_LEASE_HELD;
    if (asprintf(&claim, "%s-%.*s", lease->key, (int)strcspn(etag, "\""), etag) < 0)
        return error_set(EXIT_OTHER, "out of memory");
    int code = lease_create(lease, claim, outcome);
    if (code == EXIT_OK && *outcome == S3_LEASE_TAKEN) {
        free(lease->takeover_key);
        lease->takeover_key = claim;
        return s3_lease_write(lease);
    }
    free(claim);
    return code;
}

int s3_lease_write(struct s3_lease *lease)
{
    struct s3_response response;
    int code = lease_put(lease, lease->key, NULL, &response);
    s3_response_free(&response);
    return code;
}

/* The renewal thread: a PUT every quarter of the lease's seconds until told to stop. */
static void *lease_renewing(void *argument)
{
    struct s3_lease *lease = argument;
    double step = lease->seconds / 4;
    pthread_mutex_lock(&lease->mutex);
    while (!lease->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        double next = (double)until.tv_nsec / 1e9 + step;
        until.tv_sec += (time_t)next;
        until.tv_nsec = (long)((next - (double)(time_t)next) * 1e9);
        if (pthread_cond_timedwait(&lease->stop, &lease->mutex, &until) != ETIMEDOUT ||
            lease->stopping)
            continue;
        pthread_mutex_unlock(&lease->mutex);
        s3_lease_write(lease);
        error_clear();
        pthread_mutex_lock(&lease->mutex);
    }
    pthread_mutex_unlock(&lease->mutex);
    return NULL;
}

int s3_lease_renew(struct s3_lease *lease)
{
    if (pthread_create(&lease->renewer, NULL, lease_renewing, lease) != 0)
        return error_set(EXIT_OTHER, "cannot start the lease's renewal: %s", strerror(errno));
    lease->renewing = true;
    return EXIT_OK;
}

static int lease_call(const struct s3_lease *lease, const char *key, const char *method,
                      const char *what, struct s3_response *response)
{
    struct s3_call call = {.method = method, .bucket = lease->publish->location.bucket,
                           .key = key, .query = "", .upload_descriptor = -1};
    int code = s3_call_perform(s3_credentials_shared(), &call, what, response);
    if (code != EXIT_OK && response->status == 404) {
        error_clear();
        return EXIT_OK;
    }
    return code;
}

int s3_lease_look(const struct s3_lease *lease, struct s3_lease_view *view)
{
    struct s3_response response;
    int code = lease_call(lease, lease->key, "GET", "cannot read the lease", &response);
    memset(view, 0, sizeof *view);
    if (code == EXIT_OK && response.status == 200) {
        size_t length = 0;
        for (; length < response.size && length + 1 < sizeof view->holder; length++) {
            unsigned char c = (unsigned char)response.body[length];
            view->holder[length] = c < ' ' ? ' ' : (char)c;
        }
        while (length > 0 && view->holder[length - 1] == ' ')
            length--;
        view->holder[length] = '\0';
        snprintf(view->etag, sizeof view->etag, "%s", response.etag);
        view->renewed = response.last_modified;
        time_t now = response.date != 0 ? response.date : time(NULL);
        view->age = response.last_modified != 0 ? difftime(now, response.last_modified) : 0;
        view->state = view->age > lease->seconds ? S3_LEASE_STALE : S3_LEASE_LIVE;
    }
    s3_response_free(&response);
    return code;
}

/* Deletes KEY; a missing one is no failure. */
static void lease_remove(const struct s3_lease *lease, const char *key)
{
    struct s3_response response;
    lease_call(lease, key, "DELETE", "cannot remove the lease", &response);
    s3_response_free(&response);
}

void s3_lease_release(struct s3_lease *lease, bool delete)
{
    if (lease->key == NULL)
        return;
    if (lease->renewing) {
        pthread_mutex_lock(&lease->mutex);
        lease->stopping = true;
        pthread_cond_signal(&lease->stop);
        pthread_mutex_unlock(&lease->mutex);
        pthread_join(lease->renewer, NULL);
        lease->renewing = false;
    }
    if (delete) {
        int failure = error_code();
        char *saved = strdup(error_message());
        lease_remove(lease, lease->key);
        if (lease->takeover_key != NULL)
            lease_remove(lease, lease->takeover_key);
        if (failure != EXIT_OK)
            error_set(failure, "%s", saved != NULL ? saved : "");
        else
            error_clear();
        free(saved);
    }
    pthread_mutex_destroy(&lease->mutex);
    pthread_cond_destroy(&lease->stop);
    free(lease->key);
    free(lease->takeover_key);
    lease->key = lease->takeover_key = NULL;
}
