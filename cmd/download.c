/* fuel-download: parses the command line, turns a dataset's file table into download items
   (mirrors, prefix, checksum overrides) and runs the download engine on them. */
#include "common/base/config.h"
#include "common/base/directory.h"
#include "common/base/error.h"
#include "commands.h"
#include "download_items.h"
#include "usage.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char program[] = "fuel-download";

struct download_arguments {
    const char *name;
    const char *variant;
    const char *directory;
    const char *url_prefix;
    const char *checksums;
    bool clear, help, print_urls, quiet;
    struct download_options options;
};

enum {
    OPTION_CLEAR = 256, OPTION_URL_PREFIX, OPTION_FORCE, OPTION_RETRIES, OPTION_TIMEOUT,
    OPTION_RETRY_DELAY, OPTION_PRINT_URLS, OPTION_CHECKSUMS,
};

static const struct option long_options[] = {
    {"directory", required_argument, NULL, 'd'},
    {"clear", no_argument, NULL, OPTION_CLEAR},
    {"url-prefix", required_argument, NULL, OPTION_URL_PREFIX},
    {"force", no_argument, NULL, OPTION_FORCE},
    {"jobs", required_argument, NULL, 'j'},
    {"retries", required_argument, NULL, OPTION_RETRIES},
    {"timeout", required_argument, NULL, OPTION_TIMEOUT},
    {"retry-delay", required_argument, NULL, OPTION_RETRY_DELAY},
    {"quiet", no_argument, NULL, 'q'},
    {"print-urls", no_argument, NULL, OPTION_PRINT_URLS},
    {"checksums", required_argument, NULL, OPTION_CHECKSUMS},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const char options_usage[] =
    "options:\n"
    "  -d DIR               where the files go (default: the current directory)\n"
    "  --clear              remove the dataset's files and .part leftovers instead\n"
    "  --url-prefix PREFIX  fetch every file from PREFIX/NAME instead of the built-in URLs\n"
    "  --force              download again even files present and verified\n"
    "  -j N                 transfers at once (default 4)\n"
    "  --retries N          retries of a transient failure per URL (default 5)\n"
    "  --timeout SECONDS    give up a connection or a stalled transfer after SECONDS (default 60)\n"
    "  --retry-delay SECONDS  pause before the first retry, doubled each time (default 1)\n"
    "  -q                   print only errors\n"
    "  --print-urls         print URL<TAB>destination per file and exit\n"
    "  --checksums FILE     md5sum/sha256sum lines replacing the built-in checksums\n";

static uint64_t dataset_total_size(const struct dataset *dataset, bool *complete)
{
    uint64_t total = 0;
    *complete = true;
    for (size_t index = 0; index < dataset->file_count; index++) {
        total += dataset->files[index].size;
        *complete = *complete && dataset->files[index].size > 0;
    }
    return total;
}

static void print_datasets(void)
{
    printf("usage: %s NAME [FORMAT] [-d DIR] [--clear] [--url-prefix PREFIX] [options]\n\n"
           "datasets:\n", program);
    const struct dataset *const *list = dataset_list();
    for (size_t index = 0; list[index] != NULL; index++) {
        const struct dataset *dataset = list[index];
        char label[64], size[32] = "size unknown";
        bool complete;
        uint64_t total = dataset_total_size(dataset, &complete);
        snprintf(label, sizeof label, "%s%s%s", dataset->name, dataset->variant ? " " : "",
                 dataset->variant ? dataset->variant : "");
        if (complete)
            progress_format_size(size, sizeof size, (double)total);
        printf("  %-16s %12s  %s", label, size, dataset->summary);
        if (dataset->manifest != NULL)
            printf(" (%s)", dataset->manifest);
        printf("\n");
    }
    printf("\n%s", options_usage);
}

static void print_dataset(const struct dataset *dataset)
{
    printf("usage: %s %s%s%s [-d DIR] [--clear] [--url-prefix PREFIX] [options]\n%s\n",
           program, dataset->name, dataset->variant ? " " : "",
           dataset->variant ? dataset->variant : "", dataset->summary);
    if (dataset->manifest != NULL)
        printf("declared in %s\n", dataset->manifest);
    printf("\nfiles:\n");
    for (size_t index = 0; index < dataset->file_count; index++) {
        const struct dataset_file *file = &dataset->files[index];
        char size[32] = "size unknown";
        if (file->size > 0)
            snprintf(size, sizeof size, "%llu bytes", (unsigned long long)file->size);
        const char *algorithm = file->checksum == NULL            ? "checksum"
                                : strlen(file->checksum) == 64 ? "sha256" : "md5";
        printf("  %s  %s  %s %s\n", file->name, size, algorithm,
               file->checksum ? file->checksum : "unknown");
        for (size_t url = 0; url < DATASET_MAX_URLS && file->urls[url] != NULL; url++)
            printf("    %s\n", file->urls[url]);
    }
    printf("\n%s", options_usage);
}

static bool parse_number(const char *text, double minimum, double maximum, double *value)
{
    char *end;
    errno = 0;
    *value = strtod(text, &end);
    return errno == 0 && end != text && *end == '\0' && *value >= minimum && *value <= maximum;
}

static int parse_option(struct download_arguments *arguments, int option)
{
    double value;
    switch (option) {
    case 'd': arguments->directory = optarg; return EXIT_OK;
    case OPTION_CLEAR: arguments->clear = true; return EXIT_OK;
    case OPTION_URL_PREFIX: arguments->url_prefix = optarg; return EXIT_OK;
    case OPTION_FORCE: arguments->options.force = true; return EXIT_OK;
    case 'q': arguments->quiet = true; return EXIT_OK;
    case OPTION_PRINT_URLS: arguments->print_urls = true; return EXIT_OK;
    case OPTION_CHECKSUMS: arguments->checksums = optarg; return EXIT_OK;
    case 'h': arguments->help = true; return EXIT_OK;
    case 'j':
        if (!parse_number(optarg, 1, 64, &value) || value != (unsigned)value)
            return usage_error(program, "invalid -j: %s: expected a whole number from 1 to 64",
                               optarg);
        arguments->options.jobs = (unsigned)value;
        return EXIT_OK;
    case OPTION_RETRIES:
        if (!parse_number(optarg, 0, 100, &value) || value != (unsigned)value)
            return usage_error(program,
                               "invalid --retries: %s: expected a whole number from 0 to 100",
                               optarg);
        arguments->options.retries = (unsigned)value;
        return EXIT_OK;
    case OPTION_TIMEOUT:
        if (!parse_number(optarg, 0.001, 86400, &arguments->options.timeout))
            return usage_error(program, "invalid --timeout: %s: expected seconds above 0", optarg);
        return EXIT_OK;
    case OPTION_RETRY_DELAY:
        if (!parse_number(optarg, 0, 3600, &arguments->options.retry_delay))
            return usage_error(program, "invalid --retry-delay: %s: expected seconds", optarg);
        return EXIT_OK;
    default:
        fprintf(stderr, "see '%s -h'\n", program);
        return EXIT_USAGE;
    }
}

static int parse_arguments(struct download_arguments *arguments, int argc, char **argv)
{
    *arguments = (struct download_arguments){
        .directory = ".",
        .options = {.jobs = 4, .retries = 5, .timeout = 60, .retry_delay = 1},
    };
    optind = 1;
    opterr = 1;
    int option;
    while ((option = getopt_long(argc, argv, "d:j:qh", long_options, NULL)) != -1) {
        int result = parse_option(arguments, option);
        if (result != EXIT_OK)
            return result;
    }
    if (optind < argc)
        arguments->name = argv[optind++];
    if (optind < argc)
        arguments->variant = argv[optind++];
    if (optind < argc)
        return usage_error(program, "unexpected argument: %s", argv[optind]);
    if (arguments->name == NULL && !arguments->help)
        return usage_error(program, "missing dataset name");
    arguments->options.directory = arguments->directory;
    arguments->options.progress = arguments->quiet            ? PROGRESS_QUIET
                                  : isatty(STDERR_FILENO) ? PROGRESS_LIVE : PROGRESS_LINES;
    return EXIT_OK;
}

static int find_dataset(const struct download_arguments *arguments,
                        const struct dataset **dataset)
{
    char choices[64];
    switch (dataset_find(arguments->name, arguments->variant, dataset)) {
    case DATASET_FOUND:
        return EXIT_OK;
    case DATASET_UNKNOWN:
        return usage_error(program, "unknown dataset: %s", arguments->name);
    case DATASET_FORMAT_UNEXPECTED:
        return usage_error(program, "unexpected argument: %s", arguments->variant);
    default:
        dataset_format_list(arguments->name, " or ", choices, sizeof choices);
        return usage_error(program, "%s needs a format, %s: %s", arguments->name, choices,
                           arguments->variant != NULL ? arguments->variant : "none given");
    }
}

static void print_urls(const struct item_table *table, const char *directory)
{
    for (size_t index = 0; index < table->count; index++)
        printf("%s\t%s/%s\n", table->items[index].urls[0], directory, table->items[index].name);
}

static int remove_if_present(const char *directory, const char *name, const char *suffix)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s%s", directory, name, suffix) >= (int)sizeof path)
        return error_set(EXIT_WRITE, "cannot remove: %s/%s: name too long", directory, name);
    if (unlink(path) != 0 && errno != ENOENT)
        return error_set(EXIT_WRITE, "cannot remove: %s: %s", path, strerror(errno));
    return EXIT_OK;
}

static int clear_files(const struct item_table *table, const char *directory)
{
    for (size_t index = 0; index < table->count; index++) {
        int result = remove_if_present(directory, table->items[index].name, "");
        if (result == EXIT_OK)
            result = remove_if_present(directory, table->items[index].name, ".part");
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}

/* Creates and locks the directory (waiting for another run holding it), then clears or fetches.
   Clearing a directory that does not exist has nothing to do, and creates nothing. */
static int download_locked(const struct item_table *table,
                           const struct download_arguments *arguments)
{
    const char *directory = arguments->directory;
    struct stat status;
    if (arguments->clear && stat(directory, &status) != 0 && errno == ENOENT)
        return EXIT_OK;
    int result = directory_create(directory), lock;
    bool busy;
    if (result == EXIT_OK)
        result = directory_lock(directory, false, &lock, &busy);
    if (result == EXIT_OK && busy) {
        if (!arguments->quiet)
            fprintf(stderr, "%s: waiting for another fuel-download in %s\n", program, directory);
        result = directory_lock(directory, true, &lock, &busy);
    }
    if (result != EXIT_OK)
        return result;
    if (arguments->clear)
        result = clear_files(table, directory);
    else
        result = download_run(table->items, table->count, &arguments->options);
    directory_unlock(lock);
    return result;
}

static int download_dataset(const struct dataset *dataset,
                            const struct download_arguments *arguments,
                            const struct fuel_config *config)
{
    struct item_table table = {0};
    int result = item_table_build(&table, dataset, arguments->url_prefix, config,
                                  arguments->checksums);
    if (result == EXIT_OK && arguments->print_urls)
        print_urls(&table, arguments->directory);
    else if (result == EXIT_OK)
        result = download_locked(&table, arguments);
    item_table_free(&table);
    return result;
}

static int print_help(const struct download_arguments *arguments)
{
    if (arguments->name == NULL) {
        print_datasets();
        return EXIT_OK;
    }
    bool found = false;
    const struct dataset *const *list = dataset_list();
    for (size_t index = 0; list[index] != NULL; index++) {
        const struct dataset *dataset = list[index];
        if (strcmp(dataset->name, arguments->name) != 0 ||
            (arguments->variant != NULL && dataset->variant != NULL &&
             strcmp(dataset->variant, arguments->variant) != 0))
            continue;
        if (found)
            printf("\n");
        print_dataset(dataset);
        found = true;
    }
    if (!found)
        return usage_error(program, "unknown dataset: %s", arguments->name);
    return EXIT_OK;
}

/* The config and the extra datasets it names; prints the error when either is malformed. */
static int load_registry(struct fuel_config *config)
{
    error_clear();
    int result = config_load(config);
    if (result == EXIT_OK)
        result = dataset_registry_load(config->extra_downloaders.items,
                                       config->extra_downloaders.count);
    if (result != EXIT_OK)
        error_print(program);
    return result;
}

static int run_download(const struct download_arguments *arguments,
                        const struct fuel_config *config)
{
    if (arguments->help)
        return print_help(arguments);
    const struct dataset *dataset;
    int result = find_dataset(arguments, &dataset);
    if (result != EXIT_OK)
        return result;
    error_clear();
    result = download_dataset(dataset, arguments, config);
    if (result != EXIT_OK)
        error_print(program);
    return result;
}

int cmd_download(int argc, char **argv)
{
    struct download_arguments arguments;
    struct fuel_config config = {0};
    int result = parse_arguments(&arguments, argc, argv);
    if (result == EXIT_OK)
        result = load_registry(&config);
    if (result == EXIT_OK)
        result = run_download(&arguments, &config);
    dataset_registry_free();
    config_free(&config);
    return result;
}
