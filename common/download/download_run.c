/* Schedules the transfers of a download run: skips verified files, runs up to N at once, retries
   transient failures with backoff, falls back to the next URL, verifies and publishes. */
#include "download_run.h"

#include "common/base/disk_space.h"
#include "common/base/error.h"
#include "common/base/monotonic_clock.h"
#include "common/base/hash.h"
#include "common/base/input_file.h"
#include "download_item.h"
#include "retry.h"
#include "transfer.h"
#include "unresolved.h"
#include "url_list.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { POLL_MILLISECONDS = 100, RETRY_AFTER_CAP_SECONDS = 300 };

enum file_phase { FILE_PENDING, FILE_ACTIVE, FILE_DONE, FILE_FAILED };

/* How a file on disk matched its item: not at all, by its bytes, or by its decoded content. */
enum file_match { MATCH_NONE, MATCH_BYTES, MATCH_CONTENT };

struct file_state {
    const struct download_item *item;
    size_t slot;
    char final_path[PATH_MAX];
    /* DIRECTORY/NAME.part, not a staging (common/base/staging.h): Fuel's users know the name, and
       a later run resumes it, so fuel clean leaves it. */
    char part_path[PATH_MAX];
    enum file_phase phase;
    bool by_content;           /* done, matched by its decompressed content */
    size_t url_index;
    unsigned attempt;          /* retries made on the current URL */
    double ready_at;           /* monotonic time before which it must not start */
    double started;
    char errors[2048];         /* "URL: why; URL: why" for the final message */
    struct unresolved unresolved; /* the URLs whose host or proxy did not resolve */
    struct transfer transfer;
};

struct run {
    const struct download_options *options;
    struct file_state *files;
    size_t count;
    CURLM *multi;
    unsigned active;
    struct progress *progress;
    int result;
    char message[2048];        /* the first failure's message */
};

static volatile sig_atomic_t interrupted;

static void interrupt_handler(int signal_number)
{
    (void)signal_number;
    interrupted = 1;
}

/* Keeps the first failure's code and the message error_set recorded for it. */
static void run_fail(struct run *run, int code)
{
    if (run->result != EXIT_OK)
        return;
    run->result = code;
    snprintf(run->message, sizeof run->message, "%s", error_message());
}

/* Whether PATH is a regular file matching ITEM by its bytes, or else by its decoded content. */
static enum file_match file_match(const struct run *run, const char *path,
                                  const struct download_item *item)
{
    struct stat status;
    if (stat(path, &status) != 0 || !S_ISREG(status.st_mode))
        return MATCH_NONE;
    if (download_item_bytes_match(path, (uint64_t)status.st_size, item))
        return MATCH_BYTES;
    struct raw_file_expectation expected = download_item_expectation(item, run->options->content_digest);
    return raw_file_content_matches(path, &expected) ? MATCH_CONTENT : MATCH_NONE;
}

/* "; HINT", or "" without one. */
static const char *hint_separator(const char *hint)
{
    return hint != NULL ? "; " : "";
}

static const char *hint_text(const char *hint)
{
    return hint != NULL ? hint : "";
}

static void directory_sync(const char *directory)
{
    int descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (descriptor >= 0) {
        fsync(descriptor);
        close(descriptor);
    }
}

/* A .part whose checksum matches, or whose content does (its run was stopped between the last
   byte and the rename), is made durable and published without asking the network again. */
static enum file_match file_publish_complete_part(struct run *run, const struct file_state *file)
{
    if (file->item->checksum == NULL && file->item->content_sha256 == NULL)
        return MATCH_NONE;
    enum file_match match = file_match(run, file->part_path, file->item);
    if (match == MATCH_NONE)
        return MATCH_NONE;
    int descriptor = open(file->part_path, O_RDONLY | O_CLOEXEC);
    bool durable = descriptor >= 0 && fsync(descriptor) == 0;
    if (descriptor >= 0)
        close(descriptor);
    if (!durable || rename(file->part_path, file->final_path) != 0)
        return MATCH_NONE;
    directory_sync(run->options->directory);
    return match;
}

static void note_completed_part(struct run *run, const struct file_state *file,
                                enum file_match match)
{
    progress_note(run->progress, match == MATCH_CONTENT
                                     ? "%s: completed from its .part, verified by content"
                                     : "%s: completed from its verified .part",
                  file->item->name);
}

static void part_remove_when_empty(const struct file_state *file)
{
    struct stat status;
    if (stat(file->part_path, &status) == 0 && status.st_size == 0)
        unlink(file->part_path);
}

/* A complete .part of the published size and checksum, or else of the published content, is
   accepted; otherwise it is removed and the mismatch reported, with what to try. */
static int file_verify(struct run *run, struct file_state *file, const char *hex)
{
    const struct download_item *item = file->item;
    uint64_t written = file->transfer.written;
    bool size_matches = item->size == 0 || written == item->size;
    if (size_matches && (item->checksum == NULL || strcasecmp(hex, item->checksum) == 0))
        return EXIT_OK;
    struct raw_file_expectation expected = download_item_expectation(item, run->options->content_digest);
    if (raw_file_content_matches(file->part_path, &expected)) {
        file->by_content = true;
        progress_note(run->progress, "%s: verified by content: other bytes than published, the "
                      "same %llu bytes once decompressed (sha256 %s)", item->name,
                      (unsigned long long)item->content_size, item->content_sha256);
        return EXIT_OK;
    }
    unlink(file->part_path);
    const char *hint = run->options->mismatch_hint;
    if (!size_matches)
        return error_set(EXIT_CHECKSUM, "size mismatch: %s: expected %llu bytes, got %llu%s%s",
                         item->name, (unsigned long long)item->size,
                         (unsigned long long)written, hint_separator(hint), hint_text(hint));
    return error_set(EXIT_CHECKSUM, "checksum mismatch: %s: expected %s %s, got %s%s%s",
                     item->name, download_item_algorithm_name(item), item->checksum, hex,
                     hint_separator(hint), hint_text(hint));
}

/* The transfer is complete: checks size and checksum (or content), renames the .part in place. */
static int file_publish(struct run *run, struct file_state *file)
{
    const struct download_item *item = file->item;
    struct transfer *transfer = &file->transfer;
    char hex[HASH_HEX_SIZE];
    int result = body_pipeline_finish(transfer->pipeline, hex);
    transfer->pipeline = NULL;
    if (result != EXIT_OK)
        return result;
    /* After a failed fsync the kernel may have dropped the pages it could not write: what the
       .part holds can no longer be trusted for a resume. */
    if (fsync(transfer->descriptor) != 0) {
        int number = errno;
        unlink(file->part_path);
        return error_set(EXIT_WRITE, "cannot write: %s: %s", file->part_path, strerror(number));
    }
    result = file_verify(run, file, hex);
    if (result != EXIT_OK)
        return result;
    if (rename(file->part_path, file->final_path) != 0)
        return error_set(EXIT_WRITE, "cannot rename: %s: %s", file->part_path, strerror(errno));
    directory_sync(run->options->directory);
    if (item->checksum == NULL)
        progress_note(run->progress, "warning: %s: no published checksum; sha256 %s",
                      item->name, hex);
    return EXIT_OK;
}

static void file_record_error(struct file_state *file, const char *url, const char *why)
{
    size_t used = strlen(file->errors);
    snprintf(file->errors + used, sizeof file->errors - used, "%s%s: %s", used > 0 ? "; " : "",
             url, why);
}

/* Every URL of the file failed because a name did not resolve: one line naming them. */
static void report_unresolved(const struct run *run, const struct file_state *file)
{
    char text[2 * UNRESOLVED_NAMES_SIZE + 64];
    unresolved_describe(&file->unresolved, text, sizeof text);
    const char *hint = run->options->unresolved_hint;
    error_set(EXIT_TRANSFER, "cannot download: %s: %s%s%s", file->item->name, text,
              hint_separator(hint), hint_text(hint));
}

/* A failed attempt: retry the same URL after a pause, or move on to the next URL. */
static void file_attempt_failed(struct run *run, struct file_state *file, bool transient,
                                const char *why)
{
    const struct download_item *item = file->item;
    const char *url = item->urls[file->url_index];
    file->phase = FILE_PENDING;
    if (transient && file->attempt < run->options->retries) {
        file->attempt++;
        double pause = retry_backoff(file->attempt, run->options->retry_delay, drand48());
        double asked = file->transfer.retry_after;
        if (asked > pause)
            pause = asked < RETRY_AFTER_CAP_SECONDS ? asked : RETRY_AFTER_CAP_SECONDS;
        file->ready_at = monotonic_seconds() + pause;
        progress_note(run->progress, "%s: %s: %s; retrying in %.1f s", item->name, url, why, pause);
        return;
    }
    file_record_error(file, url, why);
    file->url_index++;
    file->attempt = 0;
    file->ready_at = 0;
    if (file->url_index < item->url_count)
        return;
    file->phase = FILE_FAILED;
    part_remove_when_empty(file);
    if (file->unresolved.urls == item->url_count)
        report_unresolved(run, file);
    else
        error_set(EXIT_TRANSFER, "cannot download: %s: %s", item->name, file->errors);
    run_fail(run, EXIT_TRANSFER);
}

static void file_failed_for_good(struct run *run, struct file_state *file, int code)
{
    file->phase = FILE_FAILED;
    part_remove_when_empty(file);
    run_fail(run, code);
}

/* The transfer was cut when it passed the expected size: the size announced, when there was one. */
static void report_too_large(const struct run *run, const struct file_state *file)
{
    curl_off_t length = -1;
    curl_easy_getinfo(file->transfer.easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
    unsigned long long expected = file->item->size;
    const char *hint = run->options->mismatch_hint;
    if (length < 0) {
        error_set(EXIT_CHECKSUM, "size mismatch: %s: expected %llu bytes, got more%s%s",
                  file->item->name, expected, hint_separator(hint), hint_text(hint));
        return;
    }
    unsigned long long actual = (unsigned long long)length + file->transfer.kept;
    error_set(EXIT_CHECKSUM, "size mismatch: %s: expected %llu bytes, got %llu%s%s",
              file->item->name, expected, actual, hint_separator(hint), hint_text(hint));
}

/* The answer did not continue the .part (a complete .part of unknown size gets a 416): it is
   removed and the file starts over at once, without using up a retry. Only a resumed transfer
   gets this, and the next attempt has no .part to resume, so it cannot repeat. */
static void file_restart(struct run *run, struct file_state *file)
{
    const char *why = "answer did not continue the partial file";
    unlink(file->part_path);
    if (file->transfer.offset == 0)
        return file_attempt_failed(run, file, true, why);
    file->phase = FILE_PENDING;
    file->ready_at = 0;
    progress_note(run->progress, "%s: %s: %s; restarting", file->item->name,
                  file->item->urls[file->url_index], why);
}

static void file_finish(struct run *run, struct file_state *file, CURLcode result)
{
    struct transfer *transfer = &file->transfer;
    long status = 0;
    curl_easy_getinfo(transfer->easy, CURLINFO_RESPONSE_CODE, &status);
    bool answered = status == 0 || status == 200 || status == 206;
    char why[CURL_ERROR_SIZE + 32];
    if (result != CURLE_OK || !answered)
        transfer_keep_received(transfer);   /* before the .part is looked at */
    if (transfer->failure == TRANSFER_FAILURE_WRITE) {
        error_set(EXIT_WRITE, "cannot write: %s: %s", file->part_path,
                  strerror(transfer->write_error));
        return file_failed_for_good(run, file, EXIT_WRITE);
    }
    if (transfer->failure == TRANSFER_FAILURE_TOO_LARGE) {
        unlink(file->part_path);
        report_too_large(run, file);
        return file_failed_for_good(run, file, EXIT_CHECKSUM);
    }
    enum file_match match = status == 416 ? file_publish_complete_part(run, file) : MATCH_NONE;
    if (match != MATCH_NONE) {   /* a .part of unknown size, or of other bytes than published */
        file->phase = FILE_DONE;
        file->by_content = match == MATCH_CONTENT;
        return note_completed_part(run, file, match);
    }
    if (transfer->failure == TRANSFER_FAILURE_RANGE || status == 416)
        return file_restart(run, file);
    if (result == CURLE_OK && answered) {
        int code = transfer_open_empty(transfer) == 0 ? file_publish(run, file) : EXIT_WRITE;
        if (code == EXIT_WRITE && transfer->failure == TRANSFER_FAILURE_WRITE)
            error_set(EXIT_WRITE, "cannot write: %s: %s", file->part_path,
                      strerror(transfer->write_error));
        if (code != EXIT_OK)
            return file_failed_for_good(run, file, code);
        file->phase = FILE_DONE;
        progress_finish(run->progress, file->slot, transfer->written,
                        monotonic_seconds() - file->started);
        return;
    }
    if (transfer->failure == TRANSFER_FAILURE_STALL) {
        snprintf(why, sizeof why, "no data for %g s", run->options->timeout);
        return file_attempt_failed(run, file, true, why);
    }
    if (!answered)
        transfer_describe_status(transfer, status, why, sizeof why);
    else
        snprintf(why, sizeof why, "%s",
                 transfer->curl_error[0] != '\0' ? transfer->curl_error : curl_easy_strerror(result));
    enum retry_verdict verdict = retry_classify(result, answered ? 0 : status);
    if (verdict == RETRY_UNRESOLVED)
        unresolved_note(&file->unresolved, result, transfer->curl_error,
                        file->item->urls[file->url_index]);
    file_attempt_failed(run, file, verdict == RETRY_TRANSIENT, why);
}

static int file_start(struct run *run, struct file_state *file)
{
    CURL *easy = curl_easy_init();
    if (easy == NULL)
        return error_set(EXIT_OTHER, "cannot download: %s: libcurl initialization failed",
                         file->item->name);
    struct transfer_settings settings = {
        .timeout = run->options->timeout,
        .expected_size = download_item_limit(file->item, run->options->content_digest),
        .algorithm = download_item_algorithm(file->item),
    };
    int code = transfer_begin(&file->transfer, easy, file->item->urls[file->url_index],
                              file->part_path, &settings, file);
    if (code == EXIT_OK && curl_multi_add_handle(run->multi, easy) != CURLM_OK)
        code = error_set(EXIT_OTHER, "cannot download: %s: libcurl refused the transfer",
                         file->item->name);
    if (code != EXIT_OK) {
        transfer_end(&file->transfer);
        curl_easy_cleanup(easy);
        return code;
    }
    file->phase = FILE_ACTIVE;
    file->started = monotonic_seconds();
    run->active++;
    progress_start(run->progress, file->slot, file->item->name, file->item->size,
                   file->transfer.offset);
    return EXIT_OK;
}

static void file_stop(struct run *run, struct file_state *file)
{
    CURL *easy = file->transfer.easy;
    curl_multi_remove_handle(run->multi, easy);
    transfer_end(&file->transfer);
    curl_easy_cleanup(easy);
    run->active--;
    progress_stop(run->progress, file->slot);
}

/* Starts the files whose pause is over, while fewer than `jobs` transfers run. */
static int run_start_ready(struct run *run, double *next_ready)
{
    double now = monotonic_seconds();
    *next_ready = -1;
    for (size_t index = 0; index < run->count; index++) {
        struct file_state *file = &run->files[index];
        if (file->phase != FILE_PENDING)
            continue;
        if (file->ready_at > now || run->active >= run->options->jobs) {
            if (*next_ready < 0 || file->ready_at < *next_ready)
                *next_ready = file->ready_at;
            continue;
        }
        int result = file_start(run, file);
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}

/* Finishes the transfers libcurl reports done; returns how many. */
static int run_collect(struct run *run)
{
    CURLMsg *message;
    int left, finished = 0;
    while ((message = curl_multi_info_read(run->multi, &left)) != NULL) {
        if (message->msg != CURLMSG_DONE)
            continue;
        finished++;
        struct file_state *file;
        curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&file);
        CURLcode result = message->data.result;
        file_finish(run, file, result);
        file_stop(run, file);
        if (file->phase == FILE_FAILED && run->result == EXIT_WRITE)
            return finished;
    }
    return finished;
}

static bool run_has_work(const struct run *run)
{
    for (size_t index = 0; index < run->count; index++)
        if (run->files[index].phase == FILE_PENDING || run->files[index].phase == FILE_ACTIVE)
            return true;
    return false;
}

static void run_update_progress(struct run *run)
{
    for (size_t index = 0; index < run->count; index++)
        if (run->files[index].phase == FILE_ACTIVE)
            progress_update(run->progress, index, run->files[index].transfer.written,
                            run->files[index].transfer.announced);
    progress_refresh(run->progress);
}

static void run_stop_all(struct run *run)
{
    for (size_t index = 0; index < run->count; index++)
        if (run->files[index].transfer.easy != NULL)
            file_stop(run, &run->files[index]);
}

static int run_loop(struct run *run)
{
    while (!interrupted && run->result != EXIT_WRITE) {
        double next_ready;
        int result = run_start_ready(run, &next_ready);
        if (result != EXIT_OK)
            return result;
        if (!run_has_work(run))
            break;
        int running;
        curl_multi_perform(run->multi, &running);
        int finished = run_collect(run);
        run_update_progress(run);
        if (finished > 0)
            continue;   /* start the next files, or end, without waiting for the poll */
        int wait = POLL_MILLISECONDS;
        if (next_ready >= 0 && run->active < run->options->jobs) {
            double until = (next_ready - monotonic_seconds()) * 1000;
            wait = until < 0 ? 0 : until < wait ? (int)until : wait;
        }
        curl_multi_poll(run->multi, NULL, 0, wait, NULL);
    }
    if (interrupted)
        return error_set(DOWNLOAD_INTERRUPTED, "interrupted: partial files kept as .part; "
                                               "run again to resume");
    if (run->result != EXIT_OK)
        error_set(run->result, "%s", run->message);
    return run->result;
}

/* A directory or a FIFO at a file's final name or its .part is refused before any transfer: the
   rename at the end could never replace it. */
static int places_check(const struct file_state *file)
{
    const char *paths[] = {file->final_path, file->part_path};
    for (size_t index = 0; index < 2; index++) {
        struct stat status;
        if (stat(paths[index], &status) == 0 && !S_ISREG(status.st_mode))
            return input_not_regular(paths[index], &status);
    }
    return EXIT_OK;
}

static int run_prepare(struct run *run, const struct download_item *items)
{
    const char *directory = run->options->directory;
    for (size_t index = 0; index < run->count; index++) {
        struct file_state *file = &run->files[index];
        file->item = &items[index];
        file->slot = index;
        if (snprintf(file->final_path, sizeof file->final_path, "%s/%s", directory,
                     items[index].name) >= (int)sizeof file->final_path ||
            snprintf(file->part_path, sizeof file->part_path, "%s/%s.part", directory,
                     items[index].name) >= (int)sizeof file->part_path)
            return error_set(EXIT_WRITE, "cannot write: %s/%s: name too long", directory,
                             items[index].name);
        int placed = places_check(file);
        if (placed != EXIT_OK)
            return placed;
        enum file_match match = run->options->force ? MATCH_NONE
                                                    : file_match(run, file->final_path, file->item);
        if (match != MATCH_NONE) {
            file->phase = FILE_DONE;
            file->by_content = match == MATCH_CONTENT;
            progress_note(run->progress, match == MATCH_CONTENT
                                             ? "%s: already present, verified by content"
                                             : "%s: already present and verified",
                          items[index].name);
        } else if (items[index].url_count == 0) {
            return url_list_missing(items[index].name, file->final_path);
        } else if (items[index].size > 0 &&
                   (match = file_publish_complete_part(run, file)) != MATCH_NONE) {
            file->phase = FILE_DONE;
            file->by_content = match == MATCH_CONTENT;
            note_completed_part(run, file, match);
        }
    }
    return EXIT_OK;
}

/* The bytes still to receive (sizes known, less what .part files hold) fit in the directory. */
static int space_check(const struct run *run)
{
    uint64_t total = 0, largest = 0;
    for (size_t index = 0; index < run->count; index++) {
        const struct file_state *file = &run->files[index];
        struct stat status;
        uint64_t held = stat(file->part_path, &status) == 0 ? (uint64_t)status.st_size : 0;
        if (file->phase == FILE_DONE || file->item->size <= held)
            continue;
        total = disk_space_sum(total, file->item->size - held);
        largest = file->item->size > largest ? file->item->size : largest;
    }
    return disk_space_check(run->options->directory, run->options->directory, total, largest);
}

static void signals_install(struct sigaction *previous_interrupt, struct sigaction *previous_terminate)
{
    struct sigaction action = {.sa_handler = interrupt_handler};
    sigemptyset(&action.sa_mask);
    interrupted = 0;
    sigaction(SIGINT, &action, previous_interrupt);
    sigaction(SIGTERM, &action, previous_terminate);
}

int download_run(const struct download_item *items, size_t count,
                 const struct download_options *options)
{
    struct run run = {.options = options, .count = count};
    run.files = calloc(count > 0 ? count : 1, sizeof *run.files);
    run.progress = progress_begin(options->progress, stderr, count);
    if (run.files == NULL || run.progress == NULL) {
        free(run.files);
        progress_end(run.progress);
        return error_set(EXIT_OTHER, "cannot download: out of memory");
    }
    srand48((long)time(NULL) ^ (long)getpid());
    int result = run_prepare(&run, items);
    if (result == EXIT_OK)
        result = space_check(&run);
    if (result == EXIT_OK && curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        result = error_set(EXIT_OTHER, "cannot download: libcurl initialization failed");
    else if (result == EXIT_OK) {
        struct sigaction previous_interrupt, previous_terminate;
        signals_install(&previous_interrupt, &previous_terminate);
        run.multi = curl_multi_init();
        result = run.multi != NULL ? run_loop(&run)
                                   : error_set(EXIT_OTHER, "cannot download: libcurl multi failed");
        run_stop_all(&run);
        curl_multi_cleanup(run.multi);
        sigaction(SIGINT, &previous_interrupt, NULL);
        sigaction(SIGTERM, &previous_terminate, NULL);
        curl_global_cleanup();
    }
    progress_end(run.progress);
    for (size_t index = 0; result == EXIT_OK && options->verdicts != NULL && index < count; index++)
        options->verdicts[index] = download_item_verdict(&items[index], run.files[index].by_content);
    free(run.files);
    return result;
}
