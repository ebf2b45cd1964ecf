/* The makers of fuel-reproduce's recipes: each builds its request itself from the recorded
   command line as parsed, with the scratch directory for output and the inputs found for input,
   recording the recorded argv. */
#include "reproduce_recipe.h"

#include "common/base/error.h"
#include "common/base/provenance_inputs.h"
#include "common/h5py/h5py_reader.h"
#include "conversion_progress.h"
#include "converters/conversion.h"
#include "converters/extra_conversion.h"
#include "dataset_arguments.h"
#include "fixture_options.h"
#include "packing/pack_make.h"
#include "stage_progress.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int reproduce_make_conversion(void *context, const char *inputs, const char *output, char *path,
                              size_t size)
{
    struct reproduce_recipe *recipe = context;
    const struct command_run *run = recipe->run;
    struct conversion_request request;
    conversion_request_init(&request, run->dataset->record);
    request.options = run->dataset_options;
    request.input_directory = inputs;
    request.output_directory = output;
    request.output_name = recipe->output_name;
    request.typed = &recipe->typed;
    struct conversion_listener listener;
    conversion_listen(&listener, recipe->quiet, &request);
    int result = conversion_run(&request, path, size);
    conversion_listener_end(&listener, &request);
    return result;
}

static void violation_print(const char *line)
{
    fprintf(stderr, "fuel-reproduce: %s\n", line);
}

int reproduce_make_extra(void *context, const char *inputs, const char *output, char *path,
                         size_t size)
{
    struct reproduce_recipe *recipe = context;
    const struct command_run *run = recipe->run;
    const char **words = calloc(run->parsed->word_count + 1, sizeof *words);
    if (words == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    struct extra_conversion conversion = {
        run->dataset->extra, inputs, output, recipe->output_name, words,
        dataset_extra_words(run->parsed, words), &recipe->typed, violation_print};
    int result = extra_conversion_write(&conversion, path, size);
    free(words);
    return result;
}

/* Whether the file PATH records the inputs RECIPE's file records (names, sizes and digests). */
static bool inputs_as_recorded(const struct reproduce_recipe *recipe, const char *path)
{
    struct h5py_file *file = NULL;
    bool same = false;
    if (h5py_reader_open(&file, path) == EXIT_OK) {
        const char *text = h5py_file_attribute(file, "fuel_provenance");
        same = text != NULL && provenance_inputs_equal(text, recipe->recorded.text);
    }
    h5py_reader_close(file);
    error_clear();
    return same;
}

/* The raw files' archive times are the recorded creation time when fuel-fixture ran under
   SOURCE_DATE_EPOCH, else 0: the first whose inputs match the recorded ones is kept. */
int reproduce_make_synthetic(void *context, const char *inputs, const char *output, char *path,
                             size_t size)
{
    (void)inputs;
    struct reproduce_recipe *recipe = context;
    struct fixture_request request = recipe->fixture_request;
    struct fixture_making making;
    recipe->fixture.output_directory = output;
    fixture_making_of(recipe->run, &recipe->fixture, NULL, &making);
    request.mtime = reproduce_created_seconds(json_string_value(
        json_object_get(recipe->recorded.provenance, "created")));
    int result = fixture_synthetic_make(&making, recipe->raw_fixture, &request, path, size);
    if (result == EXIT_OK && request.mtime != 0 && !inputs_as_recorded(recipe, path)) {
        request.mtime = 0;
        result = fixture_synthetic_make(&making, recipe->raw_fixture, &request, path, size);
    }
    return result;
}

int reproduce_make_cut(void *context, const char *inputs, const char *output, char *path,
                       size_t size)
{
    struct reproduce_recipe *recipe = context;
    struct fixture_making making;
    char parent[PATH_MAX];
    recipe->fixture.output_directory = output;
    fixture_making_of(recipe->run, &recipe->fixture, NULL, &making);
    if (snprintf(parent, sizeof parent, "%s/%s", inputs, recipe->parent_name) >=
        (int)sizeof parent)
        return error_set(EXIT_WRITE, "cannot write: %s: path too long", inputs);
    return fixture_cut_make(&making, parent, &recipe->cut, path, size);
}

/* A spec (or what it names) that fuel pack refuses, found by its recorded sha256: one line, exit 4
   (the file's provenance, not the command line, is at fault), the inputs' staging folder left
   out of the names in the message (it is gone once fuel-reproduce ends). */
static int pack_refusal(const char *file, const char *inputs, int code)
{
    char message[4096], cleaned[4096];
    snprintf(message, sizeof message, "%s", error_message());
    size_t length = strlen(inputs), used = 0;
    for (const char *at = message; *at != '\0' && used + 1 < sizeof cleaned;) {
        if (strncmp(at, inputs, length) == 0 && at[length] == '/') {
            at += length + 1;
            while (strncmp(at, "up/", 3) == 0)
                at += 3;
            continue;
        }
        cleaned[used++] = *at++;
    }
    cleaned[used] = '\0';
    return error_set(code == EXIT_USAGE ? EXIT_CORRUPT_INPUT : code,
                     "cannot reproduce: %s: the recorded spec is refused: %s", file, cleaned);
}

int reproduce_make_pack(void *context, const char *inputs, const char *output, char *path,
                        size_t size)
{
    struct reproduce_recipe *recipe = context;
    char spec[PATH_MAX];
    if (snprintf(spec, sizeof spec, "%s/%s", inputs, recipe->spec_name) >= (int)sizeof spec)
        return error_set(EXIT_WRITE, "cannot write: %s: path too long", inputs);
    struct pack_target target = {output, recipe->output_name, 0, NULL, &recipe->typed};
    struct stage_progress drawn;
    stage_progress_begin(&drawn, recipe->quiet, &target.listener);
    int result = pack_make(spec, &target, path, size);
    stage_progress_end(&drawn);
    return result == EXIT_OK ? result : pack_refusal(recipe->file, inputs, result);
}
