/* fuel-clean: removes the temporary files that killed fuel-convert runs left behind. */
#include "common/base/config.h"
#include "common/base/error.h"
#include "common/hdf5/publish.h"
#include "commands.h"
#include "usage.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char program[] = "fuel-clean";

static bool dry_run;
static struct option_list directories;

static const struct command_option options[] = {
    {.short_name = 'd', .long_name = "directory", .kind = OPTION_LIST, .value = &directories,
     .argument = "DIR", .help = "look in DIR (may be given several times)",
     .completion = COMPLETE_DIRECTORY},
    {.long_name = "dry-run", .kind = OPTION_FLAG, .value = &dry_run,
     .help = "print what would be removed, remove nothing"},
};

const struct command_line clean_command_line = {
    .program = program,
    .usage = "[-h] [-d DIRECTORY]... [--dry-run]",
    .description =
        "Removes .NAME.XXXXXX files (NAME ending in .hdf5, .h5 or .hdf) that fuel-convert runs\n"
        "killed before they finished left behind; a file a running fuel-convert still writes is\n"
        "locked and left alone. Looks in each DIRECTORY, or else in the current directory and the\n"
        "data path (FUEL_DATA_PATH or data_path in ~/.fuelrc, and local_data_path). Prints each\n"
        "file removed.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
};

struct cleaning {
    const char *program;
    bool dry_run;
    int result; /* the last failure, 0 when none */
};

static void clean_file(struct cleaning *cleaning, const char *directory, const char *name)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", directory, name) >= (int)sizeof path)
        return;
    bool removed = false;
    error_clear();
    int result = publish_remove_leftover(path, cleaning->dry_run, &removed);
    if (result != EXIT_OK) {
        error_print(cleaning->program);
        cleaning->result = result;
    } else if (removed) {
        printf("%s%s\n", cleaning->dry_run ? "would remove " : "removed ", path);
    }
}

/* REQUIRED: named with -d, so a directory that cannot be read is an error. */
static void clean_directory(struct cleaning *cleaning, const char *directory, bool required)
{
    DIR *listing = opendir(directory);
    if (listing == NULL) {
        if (required) {
            int code = errno == ENOENT || errno == ENOTDIR ? EXIT_MISSING_INPUT : EXIT_OTHER;
            fprintf(stderr, "%s: cannot read directory: %s: %s\n", cleaning->program, directory,
                    strerror(errno));
            cleaning->result = code;
        }
        return;
    }
    for (struct dirent *entry; (entry = readdir(listing)) != NULL;)
        if (publish_is_temporary_name(entry->d_name))
            clean_file(cleaning, directory, entry->d_name);
    closedir(listing);
}

/* No -d: the current directory (fuel-convert's default output), then the data path. */
static int clean_data_path(struct cleaning *cleaning)
{
    struct fuel_config config;
    error_clear();
    int result = config_load(&config);
    if (result != EXIT_OK) {
        error_print(cleaning->program);
        return result;
    }
    clean_directory(cleaning, ".", false);
    for (size_t index = 0; index < config.data_path.count; index++)
        clean_directory(cleaning, config.data_path.items[index], false);
    if (config.local_data_path != NULL)
        clean_directory(cleaning, config.local_data_path, false);
    config_free(&config);
    return EXIT_OK;
}

static int clean_run(const struct parsed_arguments *parsed)
{
    (void)parsed;
    struct cleaning cleaning = {.program = program, .dry_run = dry_run};
    if (directories.count == 0) {
        int result = clean_data_path(&cleaning);
        if (result != EXIT_OK)
            return result;
    }
    for (size_t index = 0; index < directories.count; index++)
        clean_directory(&cleaning, directories.items[index], true);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "%s: cannot write: standard output: %s\n", program, strerror(errno));
        return EXIT_WRITE;
    }
    return cleaning.result;
}

int cmd_clean(int argc, char **argv, const struct typed_command *typed)
{
    (void)typed;
    return options_run(&clean_command_line, argc, argv, clean_run);
}
