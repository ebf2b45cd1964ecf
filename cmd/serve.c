/* fuel-serve: pushes an H5PYDataset split's batches over ZeroMQ in Python Fuel's protocol. */
#include "common/base/config.h"
#include "common/base/error.h"
#include "cmd/fault_guard.h"
#include "cmd/file_resolve.h"
#include "serving/batch_reader.h"
#include "serving/batch_server.h"
#include "commands.h"
#include "usage.h"
#include "store_options.h"

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A connection's send buffer: measured on CIFAR-10 over loopback, 128 to 512 KiB sends 15-20%
   more batches/s than the kernel's autotuning, which grows it to megabytes that fall out of the
   CPU caches before the client copies them. */
#define SEND_BUFFER_DEFAULT 262144

struct serve_options {
    const char *split, *sources, *part, *endpoint, *dtype, *convert;
    long batch_size, seed, epochs, hwm, send_buffer;
    double scale;
    bool shuffle, quiet;
    int verbose;
    struct store_settings store;
};

static const struct serve_options defaults = {
    .split = "train", .endpoint = "tcp://*:5557", .batch_size = 128, .seed = 1, .hwm = 10,
    .send_buffer = SEND_BUFFER_DEFAULT, .scale = 1.0,
};

#define MEMBER(name) .offset = offsetof(struct serve_options, name)

static const struct command_option options[] = {
    {.long_name = "split", .kind = OPTION_STRING, MEMBER(split), .argument = "S",
     .help = "the split to serve (default train)", .usage = USAGE_OPTIONS},
    {.long_name = "sources", .kind = OPTION_STRING, MEMBER(sources), .argument = "A,B",
     .help = "the sources, in message order (default: the split's, in file order)",
     .usage = USAGE_OPTIONS},
    {.long_name = "batch-size", .kind = OPTION_INTEGER, MEMBER(batch_size), .argument = "N",
     .help = "examples per batch, the last one partial (default 128)", .minimum = 1,
     .maximum = 1 << 24, .usage = USAGE_OPTIONS},
    {.long_name = "shuffle", .kind = OPTION_FLAG, MEMBER(shuffle),
     .help = "a new permutation each epoch, from the seed and the epoch number",
     .usage = USAGE_OPTIONS},
    {.long_name = "seed", .kind = OPTION_INTEGER, MEMBER(seed), .argument = "S",
     .help = "the shuffling seed (default 1)", .minimum = 0, .maximum = 9007199254740991.0,
     .usage = USAGE_OPTIONS},
    {.long_name = "epochs", .kind = OPTION_INTEGER, MEMBER(epochs), .argument = "N",
     .help = "stop after N epochs, once delivered (default 0: forever)", .minimum = 0,
     .maximum = 9007199254740991.0, .usage = USAGE_OPTIONS},
    {.long_name = "part", .kind = OPTION_STRING, MEMBER(part), .argument = "K/N",
     .help = "serve only the K-th of N disjoint shares of each epoch", .usage = USAGE_OPTIONS},
    {.long_name = "bind", .kind = OPTION_STRING, MEMBER(endpoint), .argument = "ENDPOINT",
     .help = "the ZeroMQ endpoint (default tcp://*:5557, Fuel's port)", .usage = USAGE_OPTIONS},
    {.long_name = "hwm", .kind = OPTION_INTEGER, MEMBER(hwm), .argument = "N",
     .help = "high-water mark: batches queued and read ahead (default 10)", .minimum = 1,
     .maximum = 100000, .usage = USAGE_OPTIONS},
    {.long_name = "send-buffer", .kind = OPTION_INTEGER, MEMBER(send_buffer),
     .argument = "BYTES",
     .help = "each connection's kernel send buffer (default 262144; 0: the kernel's sizing)",
     .minimum = 0, .maximum = 1 << 30, .usage = USAGE_OPTIONS},
    {.long_name = "dtype", .kind = OPTION_STRING, MEMBER(dtype), .argument = "float32",
     .help = "convert to float32 on the way", .completion = COMPLETE_CHOICE,
     .choices = "float32", .usage = USAGE_OPTIONS},
    {.long_name = "scale", .kind = OPTION_DECIMAL, MEMBER(scale), .argument = "X",
     .help = "with --dtype: multiply by X (e.g. 0.00390625)", .minimum = -1e300,
     .maximum = 1e300, .usage = USAGE_OPTIONS},
    {.long_name = "convert", .kind = OPTION_STRING, MEMBER(convert), .argument = "A,B",
     .help = "the sources --dtype converts (default features if served, else all)",
     .usage = USAGE_OPTIONS},
    {.short_name = 'q', .long_name = "quiet", .kind = OPTION_FLAG, MEMBER(quiet),
     .help = "print nothing when serving", .usage = USAGE_OPTIONS},
    {.short_name = 'v', .long_name = "verbose", .kind = OPTION_COUNT, MEMBER(verbose),
     .help = "print a line per message sent", .usage = USAGE_OPTIONS},
    STORE_OPTIONS(struct serve_options, store),
};

const struct command_line serve_command_line = {
    .description =
        "Serves batches of a split of an H5PYDataset file (a path, or a name in the data path)\n"
        "on a ZeroMQ PUSH socket in Python Fuel's protocol, so fuel.streams.ServerDataStream(\n"
        "sources, produces_examples=False, host=..., port=...) reads them; each epoch ends with\n"
        "{\"stop\": true}. Several clients share the batches; SIGINT/SIGTERM exit 130/143.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .options_size = sizeof(struct serve_options),
    .option_defaults = &defaults,
    .maximum_positionals = 1,
    .positional_name = "FILE or NAME",
    .positional_usage = "FILE|NAME",
    .positional_completion = COMPLETE_FILE_OR_DATASET,
};

static volatile sig_atomic_t stop_signal;

static void stop_handle(int signal_number)
{
    stop_signal = signal_number;
}

static void stop_signals_catch(void)
{
    struct sigaction action = {.sa_handler = stop_handle};
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
}

/* One serving run: the command's name and options, and the facts of the split served. */
struct serving {
    const char *program;
    const struct serve_options *options;
    struct serving_facts facts;
};

/* Splits the comma-separated LIST into NAMES; a usage error for an empty name or too many. */
static int names_split(const struct serving *serving, const char *option, char *list,
                       const char **names, size_t *count)
{
    *count = 0;
    for (char *name = list, *next; name != NULL; name = next) {
        next = strchr(name, ',');
        if (next != NULL)
            *next++ = '\0';
        if (*name == '\0' || *count == SERVED_SOURCES_MAX)
            return usage_error(serving->program,
                               "bad --%s: expected up to %d source names, comma-separated",
                               option, SERVED_SOURCES_MAX);
        names[(*count)++] = name;
    }
    return EXIT_OK;
}

/* "K/N" with 1 <= K <= N into REQUEST's share. */
static int part_parse(const struct serving *serving, const char *text,
                      struct serve_request *request)
{
    char *end;
    unsigned long long share = strtoull(text, &end, 10), shares = 0;
    bool good = end != text && *end == '/' && text[0] != '-';
    if (good) {
        const char *divisor = end + 1;
        shares = strtoull(divisor, &end, 10);
        good = end != divisor && *end == '\0' && divisor[0] != '-';
    }
    if (!good || share < 1 || shares < 1 || share > shares || shares > 1000000)
        return usage_error(serving->program, "bad --part: %s: expected K/N with 1 <= K <= N",
                           text);
    request->part = share;
    request->parts = shares;
    return EXIT_OK;
}

/* REQUEST from the options; LISTS keep the copies the source names point into. */
static int request_fill(const struct serving *serving, struct serve_request *request,
                        char *lists[2])
{
    const struct serve_options *options = serving->options;
    *request = (struct serve_request){
        .split = options->split, .batch_size = (uint64_t)options->batch_size,
        .shuffle = options->shuffle, .seed = (uint64_t)options->seed,
        .epochs = (uint64_t)options->epochs, .part = 1, .parts = 1,
        .queue_capacity = (size_t)options->hwm, .to_float32 = options->dtype != NULL,
        .scale = options->scale};
    if (options->dtype == NULL && (options->scale != 1.0 || options->convert != NULL))
        return usage_error(serving->program, "--scale and --convert need --dtype float32");
    if (options->part != NULL && part_parse(serving, options->part, request) != EXIT_OK)
        return EXIT_USAGE;
    lists[0] = options->sources != NULL ? strdup(options->sources) : NULL;
    lists[1] = options->convert != NULL ? strdup(options->convert) : NULL;
    if ((options->sources != NULL && lists[0] == NULL) ||
        (options->convert != NULL && lists[1] == NULL))
        return error_set(EXIT_OTHER, "out of memory");
    int result = EXIT_OK;
    if (lists[0] != NULL)
        result = names_split(serving, "sources", lists[0], request->sources,
                             &request->source_count);
    if (result == EXIT_OK && lists[1] != NULL)
        result = names_split(serving, "convert", lists[1], request->converted,
                             &request->converted_count);
    return result;
}

static void facts_print(const struct serving *serving, const char *path)
{
    const struct serve_options *options = serving->options;
    const struct serving_facts *facts = &serving->facts;
    fprintf(stderr, "%s: serving %s, split %s (", serving->program, path, options->split);
    for (size_t index = 0; index < facts->source_count; index++)
        fprintf(stderr, "%s%s %s", index > 0 ? ", " : "", facts->sources[index],
                facts->descrs[index]);
    fprintf(stderr, "): %llu examples", (unsigned long long)facts->examples);
    if (options->part != NULL)
        fprintf(stderr, ", share %s of %llu", options->part,
                (unsigned long long)facts->share_examples);
    fprintf(stderr, ", %llu batches of %ld per epoch%s, on %s\n",
            (unsigned long long)facts->batches_per_epoch, options->batch_size,
            options->shuffle ? " (shuffled)" : "", options->endpoint);
}

static void sent_print(const struct served_batch *batch, void *context)
{
    const struct serving *serving = context;
    if (batch->end_of_epoch)
        fprintf(stderr, "%s: epoch %llu: stop\n", serving->program,
                (unsigned long long)batch->epoch + 1);
    else
        fprintf(stderr, "%s: epoch %llu: batch %llu/%llu, %llu examples\n", serving->program,
                (unsigned long long)batch->epoch + 1, (unsigned long long)batch->number + 1,
                (unsigned long long)serving->facts.batches_per_epoch,
                (unsigned long long)batch->examples);
}

/* Starts the reader, binds, serves; the exit code (128 + the signal when one stopped it). */
static int serve(struct serving *serving, const char *path, const struct serve_request *request)
{
    const struct serve_options *options = serving->options;
    struct batch_reader *reader = NULL;
    struct batch_server server = {0};
    int result = batch_reader_start(&reader, request, &serving->facts);
    if (result == EXIT_OK && !stop_signal)
        result = batch_server_bind(&server, options->endpoint, (int)options->hwm,
                                   (int)options->send_buffer);
    if (result == EXIT_OK && !stop_signal) {
        if (!options->quiet)
            facts_print(serving, path);
        result = batch_server_run(&server, batch_reader_queue(reader), &stop_signal,
                                  options->verbose > 0 ? sent_print : NULL, serving);
    }
    if (server.socket != NULL)
        batch_server_close(&server, result == EXIT_OK && !stop_signal, &stop_signal);
    batch_reader_stop(reader);
    if (stop_signal) {
        error_clear();
        return 128 + stop_signal;
    }
    return result;
}

int serve_body(const struct command_run *run)
{
    struct serving serving = {.program = run->program, .options = run->options};
    store_settings_apply(&serving.options->store);
    struct serve_request request;
    char *lists[2] = {NULL, NULL};
    char path[PATH_MAX];
    int result = request_fill(&serving, &request, lists);
    if (result == EXIT_OK)
        result = file_resolve(run->parsed->positionals[0], path, sizeof path);
    if (result == EXIT_OK) {
        request.path = path;
        stop_signals_catch();
        fault_guard_set(run->program, path);
        result = serve(&serving, path, &request);
        fault_guard_clear();
    }
    free(lists[0]);
    free(lists[1]);
    return result;
}
