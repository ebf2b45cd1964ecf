/* fuel-download: parses the command line, turns a dataset's file table into download items
   (mirrors, prefix, checksum overrides) and runs the download engine on them. */
#include "common/base/config.h"
#include "common/base/directory.h"
#include "common/base/error.h"
#include "downloaders/download_items.h"
#include "commands.h"
#include "dataset_arguments.h"
#include "transfer_options.h"
#include "usage.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char program[] = "fuel-download";

struct download_arguments {
    struct dataset_arguments dataset;
    bool help;
    struct download_options options;
};

static const char *directory = ".";
static bool clear, force, print_urls;
static struct transfer_settings transfer = TRANSFER_SETTINGS_DEFAULT;

static const struct command_option options[] = {
    {.short_name = 'd', .long_name = "directory", .kind = OPTION_STRING, .value = &directory,
     .argument = "DIR", .help = "where the files go (default: the current directory)",
     .completion = COMPLETE_DIRECTORY},
    {.long_name = "clear", .kind = OPTION_FLAG, .value = &clear,
     .help = "remove the dataset's files and .part leftovers instead"},
    {.long_name = "force", .kind = OPTION_FLAG, .value = &force,
     .help = "download again even files present and verified"},
    {.long_name = "print-urls", .kind = OPTION_FLAG, .value = &print_urls,
     .help = "print URL<TAB>destination per file and exit"},
    TRANSFER_OPTIONS(transfer),
};

const struct command_line download_command_line = {
    .program = program,
    .usage = "NAME [FORMAT] [-d DIR] [--clear] [--url-prefix PREFIX] [options]",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .maximum_positionals = 2,
    .positional_completion = COMPLETE_DATASET,
    .own_help = true,
};

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
    printf("usage: %s %s\n\ndatasets:\n", program, download_command_line.usage);
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
    printf("\n");
    options_print_table(&download_command_line, stdout);
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
    printf("\n");
    options_print_table(&download_command_line, stdout);
}

static int find_dataset(const struct download_arguments *arguments,
                        const struct dataset **dataset)
{
    const char *name = arguments->dataset.name, *format = arguments->dataset.format;
    char choices[64];
    switch (dataset_find(name, format, dataset)) {
    case DATASET_FOUND:
        return EXIT_OK;
    case DATASET_UNKNOWN:
        return usage_error(program, "unknown dataset: %s", name);
    default:
        dataset_format_list(name, " or ", choices, sizeof choices);
        return usage_error(program, "%s needs a format, %s: %s", name, choices,
                           format != NULL ? format : "none given");
    }
}

static void print_url_lines(const struct item_table *table)
{
    for (size_t index = 0; index < table->count; index++)
        printf("%s\t%s/%s\n", table->items[index].urls[0], directory, table->items[index].name);
}

/* Creates and locks the directory (waiting for another run holding it), then clears or fetches.
   Clearing a directory that does not exist has nothing to do, and creates nothing. */
static int download_locked(const struct dataset *dataset, const struct item_table *table,
                           const struct download_arguments *arguments)
{
    struct stat status;
    if (clear && stat(directory, &status) != 0 && errno == ENOENT)
        return EXIT_OK;
    char waiting[PATH_MAX + 64];
    snprintf(waiting, sizeof waiting, "%s: waiting for another fuel-download in %s", program,
             directory);
    int lock = -1, result = directory_create(directory);
    if (result == EXIT_OK)
        result = directory_lock_waiting(directory, transfer.quiet ? NULL : waiting, &lock);
    if (result != EXIT_OK)
        return result;
    if (clear)
        result = dataset_files_remove(dataset, directory, true);
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
    int result = item_table_build(&table, dataset, transfer.url_prefix, config,
                                  transfer.checksums);
    if (result == EXIT_OK && print_urls)
        print_url_lines(&table);
    else if (result == EXIT_OK)
        result = download_locked(dataset, &table, arguments);
    item_table_free(&table);
    return result;
}

static int print_help(const struct download_arguments *arguments)
{
    if (arguments->dataset.name == NULL) {
        print_datasets();
        return EXIT_OK;
    }
    bool found = false;
    const struct dataset *const *list = dataset_list();
    for (size_t index = 0; list[index] != NULL; index++) {
        const struct dataset *dataset = list[index];
        if (strcmp(dataset->name, arguments->dataset.name) != 0 ||
            (arguments->dataset.format != NULL && dataset->variant != NULL &&
             strcmp(dataset->variant, arguments->dataset.format) != 0))
            continue;
        if (found)
            printf("\n");
        print_dataset(dataset);
        found = true;
    }
    if (!found)
        return usage_error(program, "unknown dataset: %s", arguments->dataset.name);
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

static int download_command(const struct parsed_arguments *parsed)
{
    struct download_arguments arguments = {.help = parsed->help,
                                           .options = {.directory = directory, .force = force}};
    transfer_settings_apply(&transfer, &arguments.options);
    struct fuel_config config = {0};
    int result = load_registry(&config);
    if (result == EXIT_OK)
        result = dataset_arguments_read(program, parsed, &arguments.dataset);
    if (result == EXIT_OK)
        result = run_download(&arguments, &config);
    dataset_registry_free();
    config_free(&config);
    return result;
}

int cmd_download(int argc, char **argv, const struct typed_command *typed)
{
    (void)typed;
    return options_run(&download_command_line, argc, argv, download_command);
}
