/* The makers of fuel-reproduce: each builds its request itself from the recorded command line as
   the command layer read it, with the scratch directory for output and the inputs found for
   input, recording the recorded argv. */
#include "reproduce_makers.h"

#include "common/base/error.h"
#include "common/base/provenance_inputs.h"
#include "common/h5py/h5py_reader.h"
#include "converters/conversion.h"
#include "converters/extra_conversion.h"
#include "packing/pack_make.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int make_conversion(void *context, const char *inputs, const char *output, char *path,
                           size_t size)
{
    struct reproduce_making *making = context;
    struct conversion_request request;
    conversion_request_init(&request, making->record);
    request.options = making->dataset_options;
    request.input_directory = inputs;
    request.output_directory = output;
    request.output_name = making->output_name;
    request.typed = making->typed;
    making->drawing.begin(making->drawing.context, making->record, &request.progress);
    int result = conversion_run(&request, path, size);
    making->drawing.end(making->drawing.context);
    return result;
}

static void violation_print(const char *line)
{
    fprintf(stderr, "fuel-reproduce: %s\n", line);
}

static int make_extra(void *context, const char *inputs, const char *output, char *path,
                      size_t size)
{
    struct reproduce_making *making = context;
    struct extra_conversion conversion = {
        making->extra,      inputs,       output,         making->output_name, making->extra_words,
        making->extra_word_count, making->typed, violation_print};
    return extra_conversion_write(&conversion, path, size);
}

/* Whether the file PATH records the inputs MAKING's file records (names, sizes and digests). */
static bool inputs_as_recorded(const struct reproduce_making *making, const char *path)
{
    struct h5py_file *file = NULL;
    bool same = false;
    if (h5py_reader_open(&file, path) == EXIT_OK) {
        const char *text = h5py_file_attribute(file, "fuel_provenance");
        same = text != NULL && provenance_inputs_equal(text, making->provenance_text);
    }
    h5py_reader_close(file);
    error_clear();
    return same;
}

/* The raw files' archive times are the recorded creation time when fuel-fixture ran under
   SOURCE_DATE_EPOCH, else 0: the first whose inputs match the recorded ones is kept. */
static int make_synthetic(void *context, const char *inputs, const char *output, char *path,
                          size_t size)
{
    (void)inputs;
    struct reproduce_making *making = context;
    struct fixture_request request = making->fixture_request;
    struct fixture_making fixture = making->fixture;
    fixture.output_directory = output;
    request.mtime = reproduce_created_seconds(
        json_string_value(json_object_get(making->provenance, "created")));
    int result = fixture_synthetic_make(&fixture, making->raw_fixture, &request, path, size);
    if (result == EXIT_OK && request.mtime != 0 && !inputs_as_recorded(making, path)) {
        request.mtime = 0;
        result = fixture_synthetic_make(&fixture, making->raw_fixture, &request, path, size);
    }
    return result;
}

static int make_cut(void *context, const char *inputs, const char *output, char *path,
                    size_t size)
{
    struct reproduce_making *making = context;
    struct fixture_making fixture = making->fixture;
    char parent[PATH_MAX];
    fixture.output_directory = output;
    if (snprintf(parent, sizeof parent, "%s/%s", inputs, making->parent_name) >=
        (int)sizeof parent)
        return error_set(EXIT_WRITE, "cannot write: %s: path too long", inputs);
    return fixture_cut_make(&fixture, parent, NULL, &making->cut, path, size);
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

static int make_pack(void *context, const char *inputs, const char *output, char *path,
                     size_t size)
{
    struct reproduce_making *making = context;
    char spec[PATH_MAX];
    if (snprintf(spec, sizeof spec, "%s/%s", inputs, making->spec_name) >= (int)sizeof spec)
        return error_set(EXIT_WRITE, "cannot write: %s: path too long", inputs);
    struct pack_target target = {output, making->output_name, 0, NULL, making->typed};
    making->drawing.begin(making->drawing.context, NULL, &target.listener);
    int result = pack_make(spec, &target, path, size);
    making->drawing.end(making->drawing.context);
    return result == EXIT_OK ? result : pack_refusal(making->file, inputs, result);
}

void reproduce_making_request(struct reproduce_making *making, struct reproduce_request *request)
{
    static reproduce_make_function *const makers[] = {
        [REPRODUCE_CONVERSION] = make_conversion, [REPRODUCE_EXTRA] = make_extra,
        [REPRODUCE_SYNTHETIC] = make_synthetic,   [REPRODUCE_CUT] = make_cut,
        [REPRODUCE_PACK] = make_pack};
    request->make = makers[making->kind];
    request->context = making;
    request->inputs_made = making->kind == REPRODUCE_SYNTHETIC;
    request->relative_names = making->kind == REPRODUCE_PACK;
    request->dataset =
        making->kind == REPRODUCE_CONVERSION || making->kind == REPRODUCE_EXTRA ? making->record
                                                                                : NULL;
}
