/* The inputs a provenance records, for fuel-reproduce: read, found by their sha256 in the
   directories given, then linked (or downloaded, verified by that sha256) into the staging under
   their recorded names. */
#include "reproduce_steps.h"

#include "common/base/error.h"
#include "common/base/input_file.h"
#include "downloaders/download_items.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Inputs a provenance may record (fuel pack records every image of a folder): more is
   malformed. */
#define REPRODUCE_MAX_INPUTS (1 << 20)

/* How far a relative input name may climb with "../". */
#define REPRODUCE_MAX_CLIMB 64

/* A plain file name: no directory, nothing that would leave the staging's inputs directory. */
static bool plain_name(const char *name)
{
    return name[0] != '\0' && strchr(name, '/') == NULL && strcmp(name, ".") != 0 &&
           strcmp(name, "..") != 0 && strlen(name) < NAME_MAX;
}

/* How many "../" lead NAME, a relative path whose other parts are plain names ending in a file
   name; -1 when it is not one (absolute, an empty part, "." anywhere, ".." past its lead). */
static int relative_climb(const char *name)
{
    if (name[0] == '/' || strlen(name) >= PATH_MAX / 2)
        return -1;
    int climb = 0;
    size_t parts = 0;
    for (const char *part = name;;) {
        const char *end = strchr(part, '/');
        size_t length = end != NULL ? (size_t)(end - part) : strlen(part);
        bool up = length == 2 && part[0] == '.' && part[1] == '.';
        if (length == 0 || length >= NAME_MAX || (length == 1 && part[0] == '.') ||
            (up && parts > 0))
            return -1;
        climb += up;
        parts += !up;
        if (end == NULL)
            break;
        part = end + 1;
    }
    return parts > 0 && climb <= REPRODUCE_MAX_CLIMB ? climb : -1;
}

static bool sha256_text(const char *text)
{
    size_t length = 0;
    while (isxdigit((unsigned char)text[length]) && !isupper((unsigned char)text[length]))
        length++;
    return length == 64 && text[length] == '\0';
}

static int input_read(json_t *entry, size_t index, const char *file, bool relative_names,
                      struct reproduce_input *input)
{
    const char *name = json_string_value(json_object_get(entry, "name"));
    const char *sha256 = json_string_value(json_object_get(entry, "sha256"));
    json_t *size = json_object_get(entry, "size");
    if (name == NULL)
        return error_set(EXIT_CORRUPT_INPUT, "malformed provenance: %s: input %zu has no name",
                         file, index + 1);
    if (relative_names ? relative_climb(name) < 0 : !plain_name(name))
        return error_set(EXIT_CORRUPT_INPUT, "hostile provenance: %s: input %zu is not named by "
                         "%s: %s", file, index + 1,
                         relative_names ? "a relative path (\"../\" only leading it)"
                                        : "a plain file name",
                         name);
    if (!json_is_integer(size) || json_integer_value(size) < 0)
        return error_set(EXIT_CORRUPT_INPUT, "malformed provenance: %s: input %s has no size",
                         file, name);
    if (sha256 == NULL || !sha256_text(sha256))
        return error_set(EXIT_CORRUPT_INPUT, "malformed provenance: %s: input %s has no sha256 "
                         "(64 lowercase hex digits)", file, name);
    if ((input->name = strdup(name)) == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    input->size = (uint64_t)json_integer_value(size);
    strcpy(input->sha256, sha256);
    return EXIT_OK;
}

static int name_order(const void *left, const void *right)
{
    return strcmp((*(const struct reproduce_input *const *)left)->name,
                  (*(const struct reproduce_input *const *)right)->name);
}

/* An input recorded twice, found by sorting the names. */
static int duplicates_check(const struct reproduce_outcome *outcome, const char *file)
{
    const struct reproduce_input **sorted = malloc((outcome->input_count + 1) * sizeof *sorted);
    if (sorted == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    for (size_t index = 0; index < outcome->input_count; index++)
        sorted[index] = &outcome->inputs[index];
    qsort(sorted, outcome->input_count, sizeof *sorted, name_order);
    int result = EXIT_OK;
    for (size_t index = 1; result == EXIT_OK && index < outcome->input_count; index++)
        if (strcmp(sorted[index - 1]->name, sorted[index]->name) == 0)
            result = error_set(EXIT_CORRUPT_INPUT, "malformed provenance: %s: input %s recorded "
                               "twice", file, sorted[index]->name);
    free(sorted);
    return result;
}

/* Room for one more input in OUTCOME (the list grows as the walk reads it). */
static int input_room(struct reproduce_outcome *outcome, size_t *capacity)
{
    if (outcome->input_count < *capacity)
        return EXIT_OK;
    size_t grown = *capacity * 2;
    struct reproduce_input *inputs = realloc(outcome->inputs, grown * sizeof *inputs);
    if (inputs == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    memset(inputs + *capacity, 0, (grown - *capacity) * sizeof *inputs);
    outcome->inputs = inputs;
    *capacity = grown;
    return EXIT_OK;
}

int reproduce_inputs_read(struct provenance_inputs *inputs, const char *file, bool relative_names,
                          struct reproduce_outcome *outcome)
{
    size_t capacity = 16;
    if (inputs->text == NULL)
        return error_set(EXIT_CORRUPT_INPUT, "malformed provenance: %s: no inputs list of at "
                         "most %d entries", file, REPRODUCE_MAX_INPUTS);
    if ((outcome->inputs = calloc(capacity, sizeof *outcome->inputs)) == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    for (;;) {
        json_t *entry;
        json_error_t failure;
        int read = provenance_inputs_next(inputs, &entry, &failure);
        if (read < 0)
            return error_set(EXIT_CORRUPT_INPUT, "malformed provenance: %s: input %zu: %s", file,
                             outcome->input_count + 1, failure.text);
        if (read == 0)
            break;
        size_t index = outcome->input_count;
        int result = index == REPRODUCE_MAX_INPUTS
                         ? error_set(EXIT_CORRUPT_INPUT, "malformed provenance: %s: no inputs "
                                     "list of at most %d entries", file, REPRODUCE_MAX_INPUTS)
                         : input_room(outcome, &capacity);
        if (result == EXIT_OK) {
            outcome->input_count++;
            result = input_read(entry, index, file, relative_names, &outcome->inputs[index]);
        }
        json_decref(entry);
        if (result != EXIT_OK)
            return result;
    }
    return duplicates_check(outcome, file);
}

/* What SEARCH found, kept in INPUT. */
static int found_keep(const struct input_search *search, struct reproduce_input *input)
{
    free(input->found);
    input->found = NULL;
    input->searched = search->state;
    if (search->state == INPUT_SEARCH_NOT_FOUND)
        return EXIT_OK;
    size_t length = strlen(search->path) + 1;
    if ((input->found = malloc(sizeof *input->found + length)) == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    input->found->size = search->size;
    memcpy(input->found->sha256, search->sha256, sizeof input->found->sha256);
    memcpy(input->found->path, search->path, length);
    return EXIT_OK;
}

/* An input found nowhere whose name a directory or a FIFO holds: not a regular file, in
   download's words (exit 4), rather than missing. */
static int occupied_check(const struct input_listing *listing,
                          const struct reproduce_input *input)
{
    struct input_wanted wanted = {input->name, input->size, input->sha256};
    char path[PATH_MAX];
    struct stat status;
    if (input->state != REPRODUCE_INPUT_MISSING ||
        !input_find_listed_occupied(&wanted, listing, path, &status))
        return EXIT_OK;
    return error_set(EXIT_CORRUPT_INPUT, "not a regular file: %s: exists but is %s", path,
                     input_kind_name(status.st_mode));
}

int reproduce_inputs_find(const struct reproduce_request *request,
                          struct reproduce_outcome *outcome)
{
    const struct stage_listener *listener = request->listener;
    if (listener != NULL)
        listener->stage(listener->context, "inputs looked for", outcome->input_count, "files");
    /* The folders are listed once: a provenance may record a million inputs. */
    struct input_listing *listing;
    int result = input_listing_create(&listing, request->directories, request->directory_count);
    for (size_t index = 0; result == EXIT_OK && index < outcome->input_count; index++) {
        struct reproduce_input *input = &outcome->inputs[index];
        struct input_wanted wanted = {input->name, input->size, input->sha256};
        struct input_search search;
        result = input_find_listed(&wanted, listing, &search);
        struct input_search stored;
        if (result == EXIT_OK && search.state != INPUT_SEARCH_FOUND && request->find_stored)
            result = request->find_stored(request->find_context, &wanted, &stored);
        if (result == EXIT_OK && search.state != INPUT_SEARCH_FOUND && request->find_stored &&
            stored.state == INPUT_SEARCH_FOUND)
            search = stored;
        if (result == EXIT_OK)
            result = found_keep(&search, input);
        if (result != EXIT_OK)
            break;
        static const enum reproduce_input_state states[] = {
            [INPUT_SEARCH_FOUND] = REPRODUCE_INPUT_FOUND,
            [INPUT_SEARCH_CHANGED] = REPRODUCE_INPUT_CHANGED,
            [INPUT_SEARCH_NOT_FOUND] = REPRODUCE_INPUT_MISSING};
        input->state = states[search.state];
        result = occupied_check(listing, input);
        if (listener != NULL)
            listener->advance(listener->context, index + 1);
    }
    input_listing_free(listing);
    if (result == EXIT_OK && listener != NULL && listener->end != NULL)
        listener->end(listener->context);
    return result;
}

/* The file of REQUEST's dataset called NAME; NULL when it has none. */
static const struct dataset_file *dataset_file(const struct reproduce_request *request,
                                               const char *name)
{
    for (size_t index = 0; request->dataset != NULL && index < request->dataset->file_count;
         index++)
        if (strcmp(request->dataset->files[index].name, name) == 0)
            return &request->dataset->files[index];
    return NULL;
}

bool reproduce_inputs_ready(const struct reproduce_request *request,
                            const struct reproduce_outcome *outcome)
{
    for (size_t index = 0; index < outcome->input_count; index++) {
        const struct reproduce_input *input = &outcome->inputs[index];
        if (input->state != REPRODUCE_INPUT_FOUND &&
            (!request->download || dataset_file(request, input->name) == NULL))
            return false;
    }
    return true;
}

/* The folders of LINK (DIRECTORY/NAME, NAME a relative name) below DIRECTORY, made. */
static int folders_make(char *link, size_t directory_length)
{
    for (char *slash = strchr(link + directory_length + 1, '/'); slash != NULL;
         slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        bool made = mkdir(link, 0700) == 0 || errno == EEXIST;
        *slash = '/';
        if (!made)
            return error_set(EXIT_WRITE, "cannot write: %s: %s", link, strerror(errno));
    }
    return EXIT_OK;
}

static int input_link(const struct reproduce_input *input, const char *directory)
{
    char target[PATH_MAX], link[PATH_MAX];
    const char *path = input->found != NULL ? input->found->path : input->name;
    if (realpath(path, target) == NULL)
        return error_set(EXIT_MISSING_INPUT, "cannot use input: %s: %s", path,
                         strerror(errno));
    if (snprintf(link, sizeof link, "%s/%s", directory, input->name) >= (int)sizeof link)
        return error_set(EXIT_WRITE, "cannot link input: %s: path too long", input->name);
    int result = folders_make(link, strlen(directory));
    if (result != EXIT_OK)
        return result;
    if (symlink(target, link) != 0)
        return error_set(EXIT_WRITE, "cannot link input: %s: %s", link, strerror(errno));
    return EXIT_OK;
}

/* The inputs not found, fetched from the dataset's URLs into DIRECTORY, each verified by its
   recorded size and sha256 (not the published checksum: the recorded bytes are the ones). */
static int inputs_download(const struct reproduce_request *request,
                           struct reproduce_outcome *outcome, const char *directory)
{
    struct item_table table = {0};
    struct download_item *items = calloc(outcome->input_count + 1, sizeof *items);
    int result = items == NULL ? error_set(EXIT_OTHER, "out of memory")
                               : item_table_build(&table, request->dataset, request->url_prefix,
                                                  request->config, NULL);
    size_t count = 0;
    for (size_t index = 0; result == EXIT_OK && index < outcome->input_count; index++) {
        struct reproduce_input *input = &outcome->inputs[index];
        for (size_t item = 0; input->state != REPRODUCE_INPUT_FOUND && item < table.count;
             item++)
            if (strcmp(table.items[item].name, input->name) == 0) {
                items[count] = table.items[item];
                items[count].size = input->size;
                items[count].checksum = input->sha256;
                items[count].content_size = 0;
                items[count++].content_sha256 = NULL;
                input->state = REPRODUCE_INPUT_DOWNLOADED;
            }
    }
    struct download_options options = request->download_options;
    options.directory = directory;
    options.content_digest = NULL;
    options.mismatch_hint = "the file published now is not the one the conversion read";
    if (result == EXIT_OK && count > 0)
        result = download_run(items, count, &options);
    item_table_free(&table);
    free(items);
    return result;
}

/* DIRECTORY, or with relative names DIRECTORY/up/up/... as deep as the names climb, made. */
static int base_make(const struct reproduce_request *request,
                     const struct reproduce_outcome *outcome, const char *directory, char *base,
                     size_t size)
{
    int climb = 0;
    for (size_t index = 0; request->relative_names && index < outcome->input_count; index++) {
        int climbed = relative_climb(outcome->inputs[index].name);
        climb = climbed > climb ? climbed : climb;
    }
    size_t length = (size_t)snprintf(base, size, "%s", directory);
    for (int level = 0; level < climb; level++) {
        if (length + 3 >= size)
            return error_set(EXIT_WRITE, "cannot write: %s: path too long", base);
        length += (size_t)snprintf(base + length, size - length, "/up");
        if (mkdir(base, 0700) != 0)
            return error_set(EXIT_WRITE, "cannot write: %s: %s", base, strerror(errno));
    }
    return EXIT_OK;
}

int reproduce_inputs_place(const struct reproduce_request *request,
                           struct reproduce_outcome *outcome, const char *directory, char *base,
                           size_t size)
{
    int result = base_make(request, outcome, directory, base, size);
    bool missing = false;
    for (size_t index = 0; result == EXIT_OK && index < outcome->input_count; index++)
        if (outcome->inputs[index].state == REPRODUCE_INPUT_FOUND)
            result = input_link(&outcome->inputs[index], base);
        else
            missing = true;
    if (result == EXIT_OK && missing && request->download && request->dataset != NULL)
        result = inputs_download(request, outcome, base);
    return result;
}
