/* Says in words that a file is a fixture (fuel-fixture's provenance entry, or inputs marked as
   fuel fixture --raw output), so that no one takes it for the real data. */
#include "info_fixture.h"

#include "common/base/provenance_inputs.h"
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

static void fixture_input_count(json_t *input, void *marked)
{
    const char *origin = json_string_value(json_object_get(input, "origin"));
    *(size_t *)marked += origin != NULL && strcmp(origin, PROVENANCE_FIXTURE_ORIGIN) == 0;
}

/* TEXT's provenance (NULL when TEXT is), its inputs walked: *MARKED of *TOTAL are fuel fixture
   --raw output. */
static json_t *fixture_parse(const char *text, size_t *marked, size_t *total)
{
    *marked = *total = 0;
    return text != NULL ? provenance_bounded_parse(text, 0, NULL, 0, total, fixture_input_count,
                                                   marked)
                        : NULL;
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
    size_t marked, total;
    json_t *provenance = fixture_parse(h5py_file_attribute(file, "fuel_provenance"), &marked,
                                       &total);
    json_t *fixture = json_object_get(provenance, "fixture");
    if (json_is_object(fixture))
        note_print(fixture);
    else if (marked > 0)
        printf("THIS IS A FIXTURE, NOT THE REAL DATA: converted from fuel fixture --raw output, "
               "synthetic raw files (marked: %zu of its %zu inputs).\n", marked, total);
    json_decref(provenance);
}

bool info_is_fixture(const struct h5py_file *file)
{
    size_t marked, total;
    json_t *provenance = fixture_parse(h5py_file_attribute(file, "fuel_provenance"), &marked,
                                       &total);
    bool fixture = json_is_object(json_object_get(provenance, "fixture")) || marked > 0;
    json_decref(provenance);
    return fixture;
}
