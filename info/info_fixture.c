/* Says in words that a file is a fixture (fuel-fixture's provenance entry, or inputs marked as
   fuel fixture --raw output), so that no one takes it for the real data. */
#include "info_fixture.h"

#include "common/base/provenance_text.h"
#include "common/h5py/provenance.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static void examples_print(json_t *examples)
{
    const char *split, *separator = "";
    json_t *count;
    json_object_foreach(examples, split, count) {
        printf("%s%s %lld", separator, split, (long long)json_integer_value(count));
        separator = ", ";
    }
}

/* How many of PROVENANCE's inputs are fuel fixture --raw output, of *TOTAL. */
static size_t fixture_inputs(json_t *provenance, size_t *total)
{
    json_t *inputs = json_object_get(provenance, "inputs"), *input;
    size_t index, marked = 0;
    *total = json_array_size(inputs);
    json_array_foreach(inputs, index, input) {
        const char *origin = json_string_value(json_object_get(input, "origin"));
        marked += origin != NULL && strcmp(origin, PROVENANCE_FIXTURE_ORIGIN) == 0;
    }
    return marked;
}

static void note_print(json_t *fixture)
{
    json_t *parent = json_object_get(fixture, "parent");
    json_t *examples = json_object_get(fixture, "examples");
    if (json_is_object(parent)) {
        bool shuffled = json_is_true(json_object_get(fixture, "shuffle"));
        printf("THIS IS A FIXTURE, NOT THE REAL DATA: a cut of %s (sha256 %s): ",
               json_string_value(json_object_get(parent, "name")),
               json_string_value(json_object_get(parent, "sha256")));
        if (shuffled)
            printf("random examples of each split, seed %lld (",
                   (long long)json_integer_value(json_object_get(fixture, "seed")));
        else
            printf("the first examples of each split (");
        examples_print(examples);
        printf(").\n");
    } else {
        printf("THIS IS A FIXTURE, NOT THE REAL DATA: synthetic examples written by fuel-fixture "
               "in the real layout, seed %lld (",
               (long long)json_integer_value(json_object_get(fixture, "seed")));
        examples_print(examples);
        printf(").\n");
    }
}

void info_fixture_print(const struct h5py_file *file)
{
    const char *text = h5py_file_attribute(file, "fuel_provenance");
    json_t *provenance = text != NULL ? provenance_text_parse(text, 0, NULL) : NULL;
    json_t *fixture = json_object_get(provenance, "fixture");
    size_t total, marked = fixture_inputs(provenance, &total);
    if (json_is_object(fixture))
        note_print(fixture);
    else if (marked > 0)
        printf("THIS IS A FIXTURE, NOT THE REAL DATA: converted from fuel fixture --raw output, "
               "synthetic raw files (marked: %zu of its %zu inputs).\n", marked, total);
    json_decref(provenance);
}

bool info_is_fixture(const struct h5py_file *file)
{
    const char *text = h5py_file_attribute(file, "fuel_provenance");
    json_t *provenance = text != NULL ? provenance_text_parse(text, 0, NULL) : NULL;
    size_t total;
    bool fixture = json_is_object(json_object_get(provenance, "fixture")) ||
                   fixture_inputs(provenance, &total) > 0;
    json_decref(provenance);
    return fixture;
}
