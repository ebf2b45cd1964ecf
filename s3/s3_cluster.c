/* The lease holder or rank 0 fetches, the other nodes poll the bucket with a growing pause until
   the object or the fetcher's recorded failure appears, its lease goes stale, or their time is
   up. */
#include "s3_cluster.h"

#include "common/base/error.h"
#include "common/download/s3_request.h"
#include "s3/s3_client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PAUSE_FIRST 0.05
#define PAUSE_LONGEST 2.0
enum { SHOWN_LIMIT = 512, HOST_BYTES = 256 };

int s3_cluster_rank(long chosen, long *rank, bool *given)
{
    static const char *const variables[] = {"RANK", "SLURM_PROCID", "OMPI_COMM_WORLD_RANK"};
    *rank = chosen >= 0 ? chosen : 0;
    *given = chosen >= 0;
    for (size_t index = 0; chosen < 0 && index < sizeof variables / sizeof *variables; index++) {
        const char *value = getenv(variables[index]);
        if (value == NULL || value[0] == '\0')
            continue;
        char *end;
        errno = 0;
        long parsed = strtol(value, &end, 10);
        if (*end != '\0' || parsed < 0 || errno != 0)
            return error_set(EXIT_USAGE, "bad rank: %s=%s: a whole number from 0 expected",
                             variables[index], value);
        *rank = parsed;
        *given = true;
        break;
    }
    return EXIT_OK;
}

/* PREFIX/.fuel-failed-NAME; NULL with the message set when NAME is not a safe key. */
static char *failure_key(const struct s3_publish *publish, const char *name)
{
    char base[1024];
    snprintf(base, sizeof base, ".fuel-failed-%s", name);
    return s3_key_join(publish->location.key, base);
}

static int failure_call(const struct s3_publish *publish, const char *name, struct s3_call *call,
                        const char *what, struct s3_response *response)
{
    char *key = failure_key(publish, name);
    if (key == NULL)
        return error_code();
    call->bucket = publish->location.bucket;
    call->key = key;
    call->query = "";
    call->upload_descriptor = -1;
    int code = s3_call_perform(s3_credentials_shared(), call, what, response);
    free(key);
    return code;
}

int s3_cluster_failure_clear(const struct s3_publish *publish, const char *name)
{
    struct s3_call call = {.method = "DELETE"};
    struct s3_response response;
    int code = failure_call(publish, name, &call, "cannot remove", &response);
    if (code != EXIT_OK && response.status == 404) {
        code = EXIT_OK;
        error_clear();
    }
    s3_response_free(&response);
    return code;
}

void s3_cluster_failure_record(const struct s3_publish *publish, const char *name,
                               const char *who, const char *why)
{
    int failure = error_code();
    char *saved = strdup(error_message());
    char host[HOST_BYTES] = "", *body = NULL;
    gethostname(host, sizeof host - 1);
    if (asprintf(&body, "%s on %s: %s", who, host, why) >= 0) {
        struct s3_call call = {.method = "PUT", .body = body, .body_size = strlen(body),
                               .payload_sha256 = S3_UNSIGNED_PAYLOAD};
        struct s3_response response;
        failure_call(publish, name, &call, "cannot record the failure", &response);
        s3_response_free(&response);
        free(body);
    }
    error_set(failure, "%s", saved != NULL ? saved : why);
    free(saved);
}

/* EXIT_TRANSFER with rank 0's message when its failure of NAME was recorded since BEGAN (less
   S3_CLUSTER_FAILURE_FRESH seconds); EXIT_OK when none was. */
static int failure_check(const struct s3_publish *publish, const char *name, time_t began,
                         const char *url)
{
    struct s3_call call = {.method = "GET"};
    struct s3_response response;
    int code = failure_call(publish, name, &call, "cannot read", &response);
    if (code != EXIT_OK && response.status == 404) {
        code = EXIT_OK;
        error_clear();
    } else if (code == EXIT_OK && response.last_modified + S3_CLUSTER_FAILURE_FRESH >= began) {
        for (size_t index = 0; index < response.size; index++)
            if ((unsigned char)response.body[index] < ' ')
                response.body[index] = ' ';
        code = error_set(EXIT_TRANSFER, "the fetching node failed: %s: %.*s", url, SHOWN_LIMIT,
                         response.body != NULL ? response.body : "");
    }
    s3_response_free(&response);
    return code;
}

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* By lease: takes a missing lease, or takes over a stale one (saying so); *TAKEN when this node
   won. */
static int lease_take_over(const struct s3_cluster_waiting *waiting,
                           const struct s3_lease_view *view, bool *taken)
{
    enum s3_lease_outcome outcome = S3_LEASE_HELD;
    int code = view->state == S3_LEASE_STALE
                   ? s3_lease_take_over(waiting->lease, view, &outcome)
                   : s3_lease_take(waiting->lease, &outcome);
    *taken = code == EXIT_OK && outcome == S3_LEASE_TAKEN;
    if (*taken && view->state == S3_LEASE_STALE && waiting->program != NULL)
        fprintf(stderr, "%s: the lease's node stopped (%s; not renewed for %.0f s): this node "
                "takes over\n", waiting->program, view->holder, view->age);
    return code;
}

/* The lease's part of one look: by lease a take-over, by rank EXIT_TRANSFER for a stale lease of
   this run (renewed since BEGAN, less S3_CLUSTER_FAILURE_FRESH seconds). */
static int lease_check(const struct s3_cluster_waiting *waiting, time_t began, const char *url,
                       bool *taken)
{
    struct s3_lease_view view;
    int code = s3_lease_look(waiting->lease, &view);
    if (code != EXIT_OK)
        return code;
    if (waiting->by_lease && view.state != S3_LEASE_LIVE)
        return lease_take_over(waiting, &view, taken);
    if (!waiting->by_lease && view.state == S3_LEASE_STALE &&
        view.renewed + S3_CLUSTER_FAILURE_FRESH >= began)
        return error_set(EXIT_TRANSFER, "the fetching node stopped: %s: its lease (%s) not "
                         "renewed for %.0f s", url, view.holder, view.age);
    return EXIT_OK;
}

int s3_cluster_wait(const struct s3_cluster_waiting *waiting, char *url, size_t size,
                    bool *taken)
{
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    time_t began = time(NULL);
    *taken = false;
    if (waiting->waiting != NULL)
        fprintf(stderr, "%s\n", waiting->waiting);
    double pause = PAUSE_FIRST;
    for (;;) {
        bool present = false;
        int code = s3_publish_present(waiting->publish, waiting->name, &present, url, size);
        if (code == EXIT_OK && !present)
            code = failure_check(waiting->publish, waiting->name, began, url);
        if (code == EXIT_OK && !present)
            code = lease_check(waiting, began, url, taken);
        if (code != EXIT_OK || present || *taken)
            return code;
        double left = waiting->seconds - seconds_since(&start);
        if (left <= 0)
            return error_set(EXIT_TRANSFER, "waited %g s for the node %s: %s: not published; %s",
                             waiting->seconds, waiting->by_lease ? "holding the lease" : "of rank 0",
                             url, waiting->by_lease ? "(--wait)" : "is rank 0 running? (--wait)");
        double step = pause < left ? pause : left;
        struct timespec sleep = {(time_t)step, (long)((step - (double)(time_t)step) * 1e9)};
        nanosleep(&sleep, NULL);
        pause = pause * 1.5 < PAUSE_LONGEST ? pause * 1.5 : PAUSE_LONGEST;
    }
}
