/* fuel-download: turns a dataset's file table into download items (mirrors, prefix, checksum
   overrides) and runs the download engine on them; -h lists the datasets or a dataset's files. */
#include "common/base/config.h"
#include "common/base/directory.h"
#include "common/base/error.h"
#include "common/base/progress.h"
#include "downloaders/download_items.h"
#include "commands.h"
#include "dataset_arguments.h"
#include "table.h"
#include "transfer_options.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

struct download_command_options {
    const char *directory;
    bool clear, force, print_urls;
    struct transfer_settings transfer;
};

static const struct download_command_options defaults = {
    .directory = ".", .transfer = TRANSFER_SETTINGS_DEFAULT};

static const struct command_option options[] = {
    {.short_name = 'd', .long_name = "directory", .kind = OPTION_STRING,
     .offset = offsetof(struct download_command_options, directory), .argument = "DIR",
     .help = "where the files go (default: the current directory)",
     .completion = COMPLETE_DIRECTORY},
    {.long_name = "clear", .kind = OPTION_FLAG,
     .offset = offsetof(struct download_command_options, clear),
     .help = "remove the dataset's files and .part leftovers instead"},
    {.long_name = "force", .kind = OPTION_FLAG,
     .offset = offsetof(struct download_command_options, force),
     .help = "download again even files present and verified", .usage = USAGE_OPTIONS},
    {.long_name = "print-urls", .kind = OPTION_FLAG,
     .offset = offsetof(struct download_command_options, print_urls),
     .help = "print URL<TAB>destination per file and exit", .usage = USAGE_OPTIONS},
    TRANSFER_OPTIONS(struct download_command_options, transfer, USAGE_SHOWN),
};

static int download_help(const struct command_run *run);

const struct command_line download_command_line = {
    .positional_usage = "NAME [FORMAT]",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .options_size = sizeof(struct download_command_options),
    .option_defaults = &defaults,
    .positional_completion = COMPLETE_DATASET,
    .dataset = DATASET_FILES,
    .dataset_required = true,
    .help = download_help,
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

/* Each dataset: its name and format, total size and summary. */
static int datasets_print(void)
{
    static const bool right[] = {false, true, false};
    static const size_t widths[] = {15, 12, 0};
    struct table table = {.indent = 2, .columns = 3, .right_aligned = right,
                          .minimum_widths = widths};
    const struct dataset *const *list = dataset_list();
    int result = EXIT_OK;
    for (size_t index = 0; list[index] != NULL && result == EXIT_OK; index++) {
        const struct dataset *dataset = list[index];
        char label[160], size[32] = "size unknown", summary[1024];
        bool complete;
        uint64_t total = dataset_total_size(dataset, &complete);
        dataset_label(dataset, label, sizeof label);
        if (complete)
            progress_format_size(size, sizeof size, (double)total);
        snprintf(summary, sizeof summary, "%s%s%s%s", dataset->summary,
                 dataset->manifest != NULL ? " (" : "",
                 dataset->manifest != NULL ? dataset->manifest : "",
                 dataset->manifest != NULL ? ")" : "");
        result = table_add_texts(&table, (const char *[]){label, size, summary});
    }
    return table_finish(&table, "datasets:\n", result);
}

static void dataset_print(const struct command_run *run, const struct dataset *dataset)
{
    command_help_usage(run, dataset);
    printf("%s\n", dataset->summary);
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
        if (file->content_sha256 != NULL)
            printf("    content: %llu bytes decompressed  sha256 %s\n",
                   (unsigned long long)file->content_size, file->content_sha256);
        for (size_t url = 0; url < DATASET_MAX_URLS && file->urls[url] != NULL; url++)
            printf("    %s\n", file->urls[url]);
    }
    printf("\n");
    command_help_options(run, dataset);
}

/* -h: the datasets; with NAME, its files (each format's without FORMAT). */
static int download_help(const struct command_run *run)
{
    const struct dataset_choice *choice = run->dataset;
    if (choice->name == NULL) {
        command_help_usage(run, NULL);
        putchar('\n');
        int result = datasets_print();
        putchar('\n');
        command_help_options(run, NULL);
        return result;
    }
    const char *separator = "";
    const struct dataset *const *list = dataset_list();
    for (size_t index = 0; list[index] != NULL; index++)
        if (choice->record == list[index] ||
            (choice->record == NULL && strcmp(list[index]->name, choice->name) == 0)) {
            fputs(separator, stdout);
            dataset_print(run, list[index]);
            separator = "\n";
        }
    return EXIT_OK;
}

static void print_url_lines(const struct item_table *table, const char *directory)
{
    for (size_t index = 0; index < table->count; index++)
        printf("%s\t%s/%s\n", table->items[index].urls[0], directory, table->items[index].name);
}

/* Creates and locks the directory (waiting for another run holding it), then clears or fetches.
   Clearing a directory that does not exist has nothing to do, and creates nothing; a failed
   download removes the directories it made when nothing (no .part) is left in them. */
static int download_locked(const struct command_run *run, const struct item_table *table,
                           const struct download_options *download)
{
    const struct download_command_options *chosen = run->options;
    const char *directory = chosen->directory;
    struct stat status;
    if (chosen->clear && stat(directory, &status) != 0 && errno == ENOENT)
        return EXIT_OK;
    char waiting[PATH_MAX + 64];
    snprintf(waiting, sizeof waiting, "%s: waiting for another fuel-download in %s", run->program,
             directory);
    size_t missing = directory_missing_prefix(directory);
    int lock = -1, result = directory_create(directory);
    if (result == EXIT_OK)
        result = directory_lock_waiting(directory, chosen->transfer.quiet ? NULL : waiting, &lock);
    if (result == EXIT_OK && chosen->clear)
        result = dataset_files_remove(run->dataset->record, directory, true);
    else if (result == EXIT_OK)
        result = download_run(table->items, table->count, download);
    directory_unlock(lock, directory, DIRECTORY_LOCK_NAME);
    if (result != EXIT_OK)
        directory_remove_created(directory, missing);
    return result;
}

/* The checksum RECORD publishes for its file NAME; NULL when none. */
static const char *published_checksum(const struct dataset *record, const char *name)
{
    for (size_t index = 0; index < record->file_count; index++)
        if (strcmp(record->files[index].name, name) == 0)
            return record->files[index].checksum;
    return NULL;
}

/* The verdict on the files a download left (input_verdict.h), on stderr as its other notes. */
static void verdict_print(const struct command_run *run, const struct item_table *table,
                          const enum input_verdict *verdicts)
{
    struct input_evidence *evidence = calloc(table->count + 1, sizeof *evidence);
    char (*reasons)[160] = calloc(table->count + 1, sizeof *reasons);
    char label[160];
    if (evidence == NULL || reasons == NULL) {
        free(evidence);
        free(reasons);
        return;
    }
    for (size_t index = 0; index < table->count; index++) {
        const struct download_item *item = &table->items[index];
        evidence[index] = (struct input_evidence){item->name, verdicts[index], NULL};
        const char *published = published_checksum(run->dataset->record, item->name);
        if (verdicts[index] == INPUT_VERDICT_UNKNOWN || (item->checksum != NULL && published == NULL)) {
            evidence[index].verdict = INPUT_VERDICT_UNKNOWN;
            evidence[index].reason = "no published checksum";
        } else if (published != NULL && strcasecmp(published, item->checksum) != 0 &&
                   verdicts[index] == INPUT_VERDICT_FILES) {
            snprintf(reasons[index], sizeof reasons[index], "%s %s, published %s",
                     strlen(published) == 32 ? "md5" : "sha256", item->checksum, published);
            evidence[index] = (struct input_evidence){item->name, INPUT_VERDICT_NOT, reasons[index]};
        }
    }
    dataset_label(run->dataset->record, label, sizeof label);
    input_verdict_print(stderr, label, evidence, table->count);
    fputc('\n', stderr);
    free(evidence);
    free(reasons);
}

int download_body(const struct command_run *run)
{
    const struct download_command_options *chosen = run->options;
    struct download_options download = {.directory = chosen->directory, .force = chosen->force};
    transfer_settings_apply(&chosen->transfer, &download);
    struct item_table table = {0};
    int result = item_table_build(&table, run->dataset->record, chosen->transfer.url_prefix,
                                  &run->dataset->config, chosen->transfer.checksums);
    if (result == EXIT_OK && chosen->print_urls)
        print_url_lines(&table, chosen->directory);
    enum input_verdict *verdicts = calloc(table.count + 1, sizeof *verdicts);
    download.verdicts = verdicts;
    if (result == EXIT_OK && verdicts == NULL)
        result = error_set(EXIT_OTHER, "cannot download: out of memory");
    else if (result == EXIT_OK && !chosen->print_urls)
        result = download_locked(run, &table, &download);
    if (result == EXIT_OK && !chosen->print_urls && !chosen->clear && !chosen->transfer.quiet)
        verdict_print(run, &table, verdicts);
    free(verdicts);
    item_table_free(&table);
    return result;
}
