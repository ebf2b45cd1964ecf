/* fuel-serve: pushes an H5PYDataset split's batches over ZeroMQ in Python Fuel's protocol. */
#include "common/base/config.h"
#include "common/base/error.h"
#include "common/base/fault_guard.h"
#include "converters/file_resolve.h"
#include "serving/batch_reader.h"
#include "serving/batch_server.h"
#include "commands.h"
#include "parse_options.h"
#include "usage.h"

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char program[] = "fuel-serve";

static const char *split = "train", *sources, *part, *endpoint = "tcp://*:5557", *dtype,
                  *convert;
/* A connection's send buffer: measured on CIFAR-10 over loopback, 128 to 512 KiB sends 15-20%
   more batches/s than the kernel's autotuning, which grows it to megabytes that fall out of the
   CPU caches before the client copies them. */
#define SEND_BUFFER_DEFAULT 262144

static long batch_size = 128, seed = 1, epochs, hwm = 10, send_buffer = SEND_BUFFER_DEFAULT;
static double scale = 1.0;
static bool shuffle, quiet;
static int verbose;

static const struct command_option options[] = {
    {.long_name = "split", .kind = OPTION_STRING, .value = &split, .argument = "S",
     .help = "the split to serve (default train)"},
    {.long_name = "sources", .kind = OPTION_STRING, .value = &sources, .argument = "A,B",
     .help = "the sources, in message order (default: the split's, in file order)"},
    {.long_name = "batch-size", .kind = OPTION_INTEGER, .value = &batch_size, .argument = "N",
     .help = "examples per batch, the last one partial (default 128)", .minimum = 1,
     .maximum = 1 << 24},
    {.long_name = "shuffle", .kind = OPTION_FLAG, .value = &shuffle,
     .help = "a new permutation each epoch, from the seed and the epoch number"},
    {.long_name = "seed", .kind = OPTION_INTEGER, .value = &seed, .argument = "S",
     .help = "the shuffling seed (default 1)", .minimum = 0, .maximum = 9007199254740991.0},
    {.long_name = "epochs", .kind = OPTION_INTEGER, .value = &epochs, .argument = "N",
     .help = "stop after N epochs, once delivered (default 0: forever)", .minimum = 0,
     .maximum = 9007199254740991.0},
    {.long_name = "part", .kind = OPTION_STRING, .value = &part, .argument = "K/N",
     .help = "serve only the K-th of N disjoint shares of each epoch"},
    {.long_name = "bind", .kind = OPTION_STRING, .value = &endpoint, .argument = "ENDPOINT",
     .help = "the ZeroMQ endpoint (default tcp://*:5557, Fuel's port)"},
    {.long_name = "hwm", .kind = OPTION_INTEGER, .value = &hwm, .argument = "N",
     .help = "high-water mark: batches queued and read ahead (default 10)", .minimum = 1,
     .maximum = 100000},
    {.long_name = "send-buffer", .kind = OPTION_INTEGER, .value = &send_buffer,
     .argument = "BYTES",
     .help = "each connection's kernel send buffer (default 262144; 0: the kernel's sizing)",
     .minimum = 0, .maximum = 1 << 30},
    {.long_name = "dtype", .kind = OPTION_STRING, .value = &dtype, .argument = "float32",
     .help = "convert to float32 on the way", .completion = COMPLETE_CHOICE,
     .choices = "float32"},
    {.long_name = "scale", .kind = OPTION_DECIMAL, .value = &scale, .argument = "X",
     .help = "with --dtype: multiply by X (e.g. 0.00390625)", .minimum = -1e300,
     .maximum = 1e300},
    {.long_name = "convert", .kind = OPTION_STRING, .value = &convert, .argument = "A,B",
     .help = "the sources --dtype converts (default features if served, else all)"},
    {.short_name = 'q', .long_name = "quiet", .kind = OPTION_FLAG, .value = &quiet,
     .help = "print nothing when serving"},
    {.short_name = 'v', .long_name = "verbose", .kind = OPTION_COUNT, .value = &verbose,
     .help = "print a line per message sent"},
};

const struct command_line serve_command_line = {
    .program = program,
    .usage = "[-h] [options] FILE|NAME",
    .description =
        "Serves batches of a split of an H5PYDataset file (a path, or a name in the data path)\n"
        "on a ZeroMQ PUSH socket in Python Fuel's protocol, so fuel.streams.ServerDataStream(\n"
        "sources, produces_examples=False, host=..., port=...) reads them; each epoch ends with\n"
        "{\"stop\": true}. Several clients share the batches; SIGINT/SIGTERM exit 130/143.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .maximum_positionals = 1,
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

/* Splits the comma-separated LIST into NAMES; a usage error for an empty name or too many. Like
   request_fill, prints its errors. */
static int names_split(const char *option, char *list, const char **names, size_t *count)
{
    *count = 0;
    for (char *name = list, *next; name != NULL; name = next) {
        next = strchr(name, ',');
        if (next != NULL)
            *next++ = '\0';
        if (*name == '\0' || *count == SERVED_SOURCES_MAX)
            return usage_error(program, "bad --%s: expected up to %d source names, comma-separated",
                               option, SERVED_SOURCES_MAX);
        names[(*count)++] = name;
    }
    return EXIT_OK;
}

/* "K/N" with 1 <= K <= N into REQUEST's share. */
static int part_parse(const char *text, struct serve_request *request)
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
        return usage_error(program, "bad --part: %s: expected K/N with 1 <= K <= N", text);
    request->part = share;
    request->parts = shares;
    return EXIT_OK;
}

static int request_fill(struct serve_request *request, char *lists[2])
{
    *request = (struct serve_request){.split = split, .batch_size = (uint64_t)batch_size,
                                      .shuffle = shuffle, .seed = (uint64_t)seed,
                                      .epochs = (uint64_t)epochs, .part = 1, .parts = 1,
                                      .queue_capacity = (size_t)hwm, .to_float32 = dtype != NULL,
                                      .scale = scale};
    if (dtype == NULL && (scale != 1.0 || convert != NULL))
        return usage_error(program, "--scale and --convert need --dtype float32");
    if (part != NULL && part_parse(part, request) != EXIT_OK)
        return EXIT_USAGE;
    lists[0] = sources != NULL ? strdup(sources) : NULL;
    lists[1] = convert != NULL ? strdup(convert) : NULL;
    if ((sources != NULL && lists[0] == NULL) || (convert != NULL && lists[1] == NULL)) {
        error_set(EXIT_OTHER, "out of memory");
        error_print(program);
        return EXIT_OTHER;
    }
    int result = EXIT_OK;
    if (lists[0] != NULL)
        result = names_split("sources", lists[0], request->sources, &request->source_count);
    if (result == EXIT_OK && lists[1] != NULL)
        result = names_split("convert", lists[1], request->converted, &request->converted_count);
    return result;
}

static void facts_print(const char *path, const struct serving_facts *facts)
{
    fprintf(stderr, "%s: serving %s, split %s (", program, path, split);
    for (size_t index = 0; index < facts->source_count; index++)
        fprintf(stderr, "%s%s %s", index > 0 ? ", " : "", facts->sources[index],
                facts->descrs[index]);
    fprintf(stderr, "): %llu examples", (unsigned long long)facts->examples);
    if (part != NULL)
        fprintf(stderr, ", share %s of %llu", part, (unsigned long long)facts->share_examples);
    fprintf(stderr, ", %llu batches of %ld per epoch%s, on %s\n",
            (unsigned long long)facts->batches_per_epoch, batch_size,
            shuffle ? " (shuffled)" : "", endpoint);
}

static void sent_print(const struct served_batch *batch, void *context)
{
    const struct serving_facts *facts = context;
    if (batch->end_of_epoch)
        fprintf(stderr, "%s: epoch %llu: stop\n", program, (unsigned long long)batch->epoch + 1);
    else
        fprintf(stderr, "%s: epoch %llu: batch %llu/%llu, %llu examples\n", program,
                (unsigned long long)batch->epoch + 1, (unsigned long long)batch->number + 1,
                (unsigned long long)facts->batches_per_epoch,
                (unsigned long long)batch->examples);
}

/* Starts the reader, binds, serves; the exit code (128 + the signal when one stopped it). */
static int serve(const char *path, const struct serve_request *request)
{
    struct batch_reader *reader = NULL;
    struct serving_facts facts;
    struct batch_server server = {0};
    int result = batch_reader_start(&reader, request, &facts);
    if (result == EXIT_OK && !stop_signal)
        result = batch_server_bind(&server, endpoint, (int)hwm, (int)send_buffer);
    if (result == EXIT_OK && !stop_signal) {
        if (!quiet)
            facts_print(path, &facts);
        result = batch_server_run(&server, batch_reader_queue(reader), &stop_signal,
                                  verbose > 0 ? sent_print : NULL, &facts);
    }
    if (server.socket != NULL)
        batch_server_close(&server, result == EXIT_OK && !stop_signal, &stop_signal);
    batch_reader_stop(reader);
    if (stop_signal)
        return 128 + stop_signal;
    if (result != EXIT_OK)
        error_print(program);
    return result;
}

static int serve_named(const char *name)
{
    struct serve_request request;
    char *lists[2] = {NULL, NULL};
    char path[PATH_MAX];
    error_clear();
    int result = request_fill(&request, lists);
    if (result == EXIT_OK && (result = file_resolve(name, path, sizeof path)) != EXIT_OK)
        error_print(program);
    if (result == EXIT_OK) {
        request.path = path;
        stop_signals_catch();
        fault_guard_set(program, path);
        result = serve(path, &request);
        fault_guard_clear();
    }
    free(lists[0]);
    free(lists[1]);
    return result;
}

static int serve_command(const struct parsed_arguments *parsed)
{
    if (parsed->positional_count == 0)
        return usage_error(program, "missing FILE or NAME");
    return serve_named(parsed->positionals[0]);
}

int cmd_serve(int argc, char **argv, const struct typed_command *typed)
{
    (void)typed;
    return options_run(&serve_command_line, argc, argv, serve_command);
}
