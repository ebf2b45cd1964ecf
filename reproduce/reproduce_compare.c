/* The file against its re-run, for fuel-reproduce: the same bytes; else the same content with
   only the recorded versions of fuel and its libraries differing; else the content diff. */
#include "reproduce_steps.h"

#include "common/base/error.h"
#include "common/h5py/h5py_input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { COMPARE_BLOCK = 1 << 20 };

static int bytes_equal(const char *left_path, const char *right_path, bool *equal)
{
    FILE *left = fopen(left_path, "rb"), *right = fopen(right_path, "rb");
    char *blocks = malloc(2 * COMPARE_BLOCK);
    int result = left == NULL    ? error_set(EXIT_MISSING_INPUT, "cannot read: %s: %s", left_path,
                                             strerror(errno))
                 : right == NULL ? error_set(EXIT_OTHER, "cannot read: %s: %s", right_path,
                                             strerror(errno))
                 : blocks == NULL ? error_set(EXIT_OTHER, "out of memory")
                                  : EXIT_OK;
    *equal = result == EXIT_OK;
    while (result == EXIT_OK && *equal) {
        size_t read_left = fread(blocks, 1, COMPARE_BLOCK, left);
        size_t read_right = fread(blocks + COMPARE_BLOCK, 1, COMPARE_BLOCK, right);
        if (ferror(left) || ferror(right))
            result = error_set(EXIT_OTHER, "cannot read: %s: %s",
                               ferror(left) ? left_path : right_path, strerror(errno));
        *equal = read_left == read_right && memcmp(blocks, blocks + COMPARE_BLOCK, read_left) == 0;
        if (read_left == 0)
            break;
    }
    free(blocks);
    if (left != NULL)
        fclose(left);
    if (right != NULL)
        fclose(right);
    return result;
}

/* Whether CHANGE is a recorded version: a library's, fuel's in the provenance, or the
   fuel_convert_version attribute (fuel's too). */
static bool version_change(const struct content_provenance_change *change, const char **name)
{
    if (strcmp(change->key, "libraries") == 0 && change->name != NULL) {
        *name = change->name;
        return true;
    }
    *name = "fuel";
    return strcmp(change->key, "version") == 0 ||
           (strcmp(change->key, "attribute") == 0 && change->name != NULL &&
            strcmp(change->name, "fuel_convert_version") == 0);
}

/* "hdf5 1.10.8 then, 1.12.2 now; fuel 0.1.0 then, 0.2.0 now" into TEXT when REPORT's provenance
   differences are versions only (fuel's once); false otherwise. */
static bool versions_only(const struct content_diff_report *report, char *text, size_t size)
{
    size_t used = 0;
    bool fuel_said = false;
    text[0] = '\0';
    for (size_t index = 0; index < report->provenance_count; index++) {
        const struct content_provenance_change *change = &report->provenance[index];
        const char *name;
        if (!version_change(change, &name))
            return false;
        bool fuel = strcmp(name, "fuel") == 0;
        if (fuel && fuel_said)
            continue;
        fuel_said = fuel_said || fuel;
        int length = snprintf(text + used, size - used, "%s%s %s then, %s now",
                              used > 0 ? "; " : "", name,
                              change->left != NULL ? change->left : "(none)",
                              change->right != NULL ? change->right : "(none)");
        used += length > 0 && (size_t)length < size - used ? (size_t)length : 0;
    }
    return report->provenance_count > 0;
}

static int contents_compare(const char *path, const char *made,
                            const struct stage_listener *listener,
                            struct reproduce_outcome *outcome)
{
    struct h5py_file *file = NULL, *again = NULL;
    int result = h5py_input_open(&file, path);
    if (result == EXIT_OK)
        result = h5py_input_open(&again, made);
    if (result == EXIT_OK)
        result = content_diff_compare(file, again, listener, &outcome->report);
    h5py_reader_close(file);
    h5py_reader_close(again);
    if (result != EXIT_OK)
        return result;
    free(outcome->report.right);
    if ((outcome->report.right = strdup("the re-run")) == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    if (!content_diff_same(&outcome->report))
        outcome->verdict = REPRODUCE_CONTENT_DIFFERS;
    else if (versions_only(&outcome->report, outcome->versions, sizeof outcome->versions))
        outcome->verdict = REPRODUCE_VERSIONS;
    else
        outcome->verdict = REPRODUCE_BYTES_DIFFER;
    return EXIT_OK;
}

int reproduce_compare(const char *path, const char *made, const struct stage_listener *listener,
                      struct reproduce_outcome *outcome)
{
    bool equal;
    int result = bytes_equal(path, made, &equal);
    if (result != EXIT_OK)
        return result;
    if (equal) {
        outcome->verdict = REPRODUCE_BYTES;
        return EXIT_OK;
    }
    return contents_compare(path, made, listener, outcome);
}
