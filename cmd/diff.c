/* fuel-diff: whether two H5PYDataset files hold the same content, and what differs (then the
   provenance differences, not counted); exit 0 same, 1 different, as diff(1) and cmp(1). */
#include "common/base/error.h"
#include "cmd/fault_guard.h"
#include "diff/content_diff.h"
#include "common/h5py/h5py_input.h"
#include "cmd/file_resolve.h"
#include "commands.h"
#include "stage_progress.h"
#include "usage.h"
#include "store_options.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct diff_options {
    bool as_json;
    struct store_settings store;
};

static const struct command_option options[] = {
    {.long_name = "json", .kind = OPTION_FLAG, .offset = offsetof(struct diff_options, as_json),
     .help = "print one JSON object instead of text"},
    STORE_OPTIONS(struct diff_options, store),
};

const struct command_line diff_command_line = {
    .description =
        "Compares the contents of the H5PYDataset files A and B (FILE or NAME, as fuel-info finds\n"
        "them): sources, dtypes, shapes, values, splits, axis labels. Lists what differs, then\n"
        "the provenance differences, which do not count. Exit 0 when the contents are the same,\n"
        "1 when they differ, 2 or more on errors.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .options_size = sizeof(struct diff_options),
    .maximum_positionals = 2,
    .positional_name = "A and B",
    .positional_usage = "A B",
    .positional_completion = COMPLETE_FILE_OR_DATASET,
};

static int report_print(const struct content_diff_report *report, bool as_json)
{
    if (!as_json)
        return content_diff_print_text(stdout, report);
    json_t *document = content_diff_json(report);
    int result = document == NULL ? error_set(EXIT_OTHER, "cannot compare: out of memory")
                 : json_dumpf(document, stdout, JSON_INDENT(2)) != 0
                     ? error_set(EXIT_WRITE, "cannot write: standard output: %s", strerror(errno))
                     : EXIT_OK;
    json_decref(document);
    if (result == EXIT_OK)
        putchar('\n');
    if (result == EXIT_OK && (fflush(stdout) != 0 || ferror(stdout)))
        result = error_set(EXIT_WRITE, "cannot write: standard output: %s", strerror(errno));
    return result;
}

static int files_compare(const char *program, struct h5py_file *const files[2], bool as_json)
{
    char both[2 * PATH_MAX + 8];
    snprintf(both, sizeof both, "%s or %s", files[0]->path, files[1]->path);
    fault_guard_set(program, both);
    struct content_diff_report report = {0};
    struct stage_progress drawn;
    const struct stage_listener *listener;
    stage_progress_begin(&drawn, false, &listener);
    int result = content_diff_compare(files[0], files[1], listener, &report);
    stage_progress_end(&drawn);
    if (result == EXIT_OK)
        result = report_print(&report, as_json);
    if (result == EXIT_OK && !content_diff_same(&report))
        result = EXIT_OTHER; /* different: diff(1)'s 1, with nothing on stderr */
    content_diff_free(&report);
    fault_guard_clear();
    return result;
}

int diff_body(const struct command_run *run)
{
    const struct diff_options *chosen = run->options;
    store_settings_apply(&chosen->store);
    const struct parsed_arguments *parsed = run->parsed;
    if (parsed->positional_count < 2)
        return usage_error(run->program, "missing B: two files to compare");
    char paths[2][PATH_MAX];
    struct h5py_file *files[2] = {NULL, NULL};
    int result = EXIT_OK;
    for (int side = 0; side < 2 && result == EXIT_OK; side++) {
        result = file_resolve(parsed->positionals[side], paths[side], sizeof paths[side]);
        if (result == EXIT_OK) {
            fault_guard_set(run->program, paths[side]);
            result = h5py_input_open(&files[side], paths[side]);
            fault_guard_clear();
        }
    }
    if (result == EXIT_OK)
        result = files_compare(run->program, files, chosen->as_json);
    h5py_reader_close(files[0]);
    h5py_reader_close(files[1]);
    return result;
}
