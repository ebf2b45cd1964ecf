/* fuel-clean: removes the temporary files that killed fuel-convert runs left behind. */
#include "common/base/config.h"
#include "common/base/error.h"
#include "common/hdf5/publish.h"
#include "commands.h"
#include "usage.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: fuel-clean [-h] [-d DIRECTORY]... [--dry-run]\n"
    "\n"
    "Removes .NAME.XXXXXX files (NAME ending in .hdf5, .h5 or .hdf) that fuel-convert runs\n"
    "killed before they finished left behind; a file a running fuel-convert still writes is\n"
    "locked and left alone. Looks in each DIRECTORY, or else in the current directory and the\n"
    "data path (FUEL_DATA_PATH or data_path in ~/.fuelrc, and local_data_path). Prints each\n"
    "file removed.\n"
    "\n"
    "options:\n"
    "  -h, --help            show this help and exit\n"
    "  -d, --directory DIR   look in DIR (may be given several times)\n"
    "  --dry-run             print what would be removed, remove nothing\n";

enum { MAXIMUM_DIRECTORIES = 64 };

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

int cmd_clean(int argc, char **argv)
{
    static const struct option options[] = {{"help", no_argument, NULL, 'h'},
                                            {"directory", required_argument, NULL, 'd'},
                                            {"dry-run", no_argument, NULL, 'n'},
                                            {NULL, 0, NULL, 0}};
    struct cleaning cleaning = {.program = argv[0]};
    const char *directories[MAXIMUM_DIRECTORIES];
    size_t directory_count = 0;
    int option;
    opterr = 0;
    optind = 1;
    while ((option = getopt_long(argc, argv, ":hd:", options, NULL)) != -1) {
        if (option == 'h') {
            fputs(usage, stdout);
            return 0;
        } else if (option == 'n') {
            cleaning.dry_run = true;
        } else if (option == 'd' && directory_count < MAXIMUM_DIRECTORIES) {
            directories[directory_count++] = optarg;
        } else if (option == 'd') {
            return usage_error(argv[0], "too many directories");
        } else if (option == ':') {
            return usage_error(argv[0], "missing value of %s", argv[optind - 1]);
        } else {
            return usage_error(argv[0], "unknown option: %s", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return usage_error(argv[0], "unexpected argument: %s", argv[optind]);
    if (directory_count == 0) {
        int result = clean_data_path(&cleaning);
        if (result != EXIT_OK)
            return result;
    }
    for (size_t index = 0; index < directory_count; index++)
        clean_directory(&cleaning, directories[index], true);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "%s: cannot write: standard output: %s\n", argv[0], strerror(errno));
        return EXIT_WRITE;
    }
    return cleaning.result;
}
