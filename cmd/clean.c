/* fuel-clean: removes the stagings (.fuel-staging-*, common/base/staging.h) that killed runs left
   behind, and finishes publishing the export sets that were committed when killed. Downloads'
   NAME.part files are not stagings: Fuel's users expect them there, and fuel-download resumes
   them. */
#include "common/base/config.h"
#include "common/base/error.h"
#include "common/base/staging.h"
#include "common/download/s3_credentials.h"
#include "s3/s3_listing.h"
#include "common/download/s3_location.h"
#include "s3/s3_upload.h"
#include "exporters/set_publish.h"
#include "fixtures/fixture.h"
#include "commands.h"
#include "usage.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct clean_options {
    bool dry_run;
    struct option_list directories;
};

static const struct command_option options[] = {
    {.short_name = 'd', .long_name = "directory", .kind = OPTION_LIST,
     .offset = offsetof(struct clean_options, directories), .argument = "DIR",
     .help = "look in DIR (may be given several times)", .completion = COMPLETE_DIRECTORY},
    {.long_name = "dry-run", .kind = OPTION_FLAG, .offset = offsetof(struct clean_options, dry_run),
     .help = "print what would be removed, remove nothing"},
};

const struct command_line clean_command_line = {
    .description =
        "Removes what runs killed before they finished left behind: the staging directories\n"
        ".fuel-staging-WHAT.XXXXXX in which every command writes its output before renaming it\n"
        "into place; finishes publishing the sets a killed fuel-export had committed\n"
        "(.fuel-staging-NAME_SPLIT.publishing). What a running command still writes is locked and\n"
        "left alone. Looks in each DIR, or else in the current directory, the data path\n"
        "(FUEL_DATA_PATH or data_path in ~/.fuelrc, and local_data_path) and $TMPDIR (else /tmp),\n"
        "where fuel-fixture stages the raw files it converts. Prints each path removed or\n"
        "finished. Given s3://BUCKET/PREFIX (fuel-s3(7)), aborts the incomplete multipart uploads\n"
        "under PREFIX that killed uploads left, and prints each.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .options_size = sizeof(struct clean_options),
    .maximum_positionals = (size_t)-1,
    .positional_usage = "[s3://BUCKET/PREFIX]...",
};

struct cleaning {
    const char *program;
    bool dry_run;
    int result; /* the last failure, 0 when none */
};

static void report(struct cleaning *cleaning, bool done, const char *verb, const char *would,
                   const char *directory, const char *name)
{
    if (done)
        printf("%s %s/%s\n", cleaning->dry_run ? would : verb, directory, name);
}

/* Finishes the committed export set NAME (.fuel-staging-LABEL.publishing) unless a live export
   holds it. */
static void clean_publishing(struct cleaning *cleaning, const char *directory, const char *name,
                             const char *label)
{
    bool finished = false;
    error_clear();
    int result = set_publish_finish_dead(directory, label, cleaning->dry_run, &finished);
    if (result != EXIT_OK) {
        error_print(cleaning->program);
        cleaning->result = result;
    }
    report(cleaning, finished && result == EXIT_OK, "finished publishing", "would finish publishing",
           directory, name);
}

/* Removes the staging directory NAME of a killed run. */
static void clean_staging(struct cleaning *cleaning, const char *directory, const char *name)
{
    char path[4096];
    bool removed = false;
    error_clear();
    int result = EXIT_OK;
    if (snprintf(path, sizeof path, "%s/%s", directory, name) < (int)sizeof path)
        result = staging_remove_dead(path, cleaning->dry_run, &removed);
    if (result != EXIT_OK) {
        error_print(cleaning->program);
        cleaning->result = result;
    }
    report(cleaning, removed, "removed", "would remove", directory, name);
}

static void clean_entry(struct cleaning *cleaning, const char *directory, const char *name)
{
    char label[512];
    if (staging_committed_what(name, label, sizeof label))
        clean_publishing(cleaning, directory, name, label);
    else if (staging_is_name(name))
        clean_staging(cleaning, directory, name);
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
        clean_entry(cleaning, directory, entry->d_name);
    closedir(listing);
}

/* No -d: the current directory (fuel-convert's default output), the data path, then $TMPDIR,
   where fuel-fixture stages raw files. */
static int clean_data_path(struct cleaning *cleaning)
{
    struct fuel_config config;
    error_clear();
    int result = config_load(&config);
    if (result != EXIT_OK)
        return result;
    clean_directory(cleaning, ".", false);
    for (size_t index = 0; index < config.data_path.count; index++)
        clean_directory(cleaning, config.data_path.items[index], false);
    if (config.local_data_path != NULL)
        clean_directory(cleaning, config.local_data_path, false);
    clean_directory(cleaning, fixture_scratch_parent(), false);
    config_free(&config);
    return EXIT_OK;
}

struct upload_cleaning {
    struct cleaning *cleaning;
    const struct s3_credentials *credentials;
    const char *bucket;
};

static int upload_abort(const struct s3_entry *entry, void *data)
{
    struct upload_cleaning *uploads = data;
    int code = uploads->cleaning->dry_run || entry->upload_id == NULL
                   ? EXIT_OK
                   : s3_upload_abort(uploads->credentials, uploads->bucket, entry->key,
                                     entry->upload_id);
    if (code == EXIT_OK)
        printf("%s s3://%s/%s (upload %s)\n",
               uploads->cleaning->dry_run ? "would abort" : "aborted", uploads->bucket, entry->key, entry->upload_id != NULL ? entry->upload_id : "");
    return code;
}

/* Aborts the incomplete multipart uploads under the s3:// PREFIX. */
static void clean_bucket(struct cleaning *cleaning, const char *prefix)
{
    struct s3_location location;
    error_clear();
    int result = s3_location_parse(&location, prefix);
    const struct s3_credentials *credentials = result == EXIT_OK ? s3_credentials_shared() : NULL;
    if (credentials == NULL)
        result = error_code();
    if (result == EXIT_OK) {
        struct upload_cleaning uploads = {cleaning, credentials, location.bucket};
        result = s3_list_uploads(credentials, location.bucket, location.key, upload_abort,
                                 &uploads);
    }
    s3_location_free(&location);
    if (result != EXIT_OK) {
        error_print(cleaning->program);
        cleaning->result = result;
    }
}

int clean_body(const struct command_run *run)
{
    const struct clean_options *options = run->options;
    const struct option_list *directories = &options->directories;
    struct cleaning cleaning = {.program = run->program, .dry_run = options->dry_run};
    for (size_t index = 0; index < run->parsed->positional_count; index++)
        if (!s3_is_url(run->parsed->positionals[index]))
            return usage_error(run->program, "not an s3:// prefix: %s (directories go with -d)",
                               run->parsed->positionals[index]);
    for (size_t index = 0; index < run->parsed->positional_count; index++)
        clean_bucket(&cleaning, run->parsed->positionals[index]);
    if (directories->count == 0 && run->parsed->positional_count == 0) {
        int result = clean_data_path(&cleaning);
        if (result != EXIT_OK)
            return result;
    }
    for (size_t index = 0; index < directories->count; index++)
        clean_directory(&cleaning, directories->items[index], true);
    if (fflush(stdout) != 0)
        return error_set(EXIT_WRITE, "cannot write: standard output: %s", strerror(errno));
    error_clear(); /* each failure is printed where it happened */
    return cleaning.result;
}
