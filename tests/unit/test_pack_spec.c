/* Unit tests of fuel pack's spec reader (packing/spec.c, spec_sources.c): what a spec declares,
   and each refusal with its line and, for unknown keys and names, the closest valid one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "packing/spec.h"
#include "support.h"

#include <stdio.h>
#include <string.h>

static struct pack_spec *read_spec(const char *text)
{
    char path[512];
    test_path(path, sizeof path, test_directory, "spec.yaml");
    test_file_write(path, text);
    struct pack_spec *spec = NULL;
    assert_int_equal(pack_spec_read(path, &spec), EXIT_OK);
    return spec;
}

static void reads_a_spec(void **state)
{
    (void)state;
    struct pack_spec *spec = read_spec(
        "name: toy\n"
        "splits:\n"
        "  train: {examples: 90}\n"
        "  valid: {rows: '80:90', comment: held out}\n"
        "  test: {indices: idx/test.npy}\n"
        "sources:\n"
        "  features:\n"
        "    axes: [batch, feature]\n"
        "    from: [a.npy, 'b.npz:x', /abs/c.csv, d.tsv, 'e.h5:/g/d', {images: pics}]\n"
        "    dtype: float32\n"
        "    scale: 0.5\n"
        "    columns: [p, q]\n"
        "  targets: {from: {classes: pics}, splits: [train, test], comment: labels}\n");
    assert_string_equal(spec->name, "toy");
    assert_int_equal(spec->split_count, 3);
    assert_int_equal(spec->splits[0].kind, SPLIT_EXAMPLES);
    assert_int_equal(spec->splits[0].examples, 90);
    assert_int_equal(spec->splits[1].kind, SPLIT_ROWS);
    assert_int_equal(spec->splits[1].start, 80);
    assert_int_equal(spec->splits[1].stop, 90);
    assert_string_equal(spec->splits[1].comment, "held out");
    char expected[600];
    snprintf(expected, sizeof expected, "%s/idx/test.npy", test_directory);
    assert_string_equal(spec->splits[2].indices, expected);
    const struct pack_source *features = &spec->sources[0];
    assert_int_equal(features->input_count, 6);
    const enum input_kind kinds[6] = {INPUT_NPY, INPUT_NPZ, INPUT_CSV, INPUT_TSV, INPUT_HDF5,
                                      INPUT_IMAGES};
    for (size_t index = 0; index < 6; index++)
        assert_int_equal(features->inputs[index].kind, kinds[index]);
    assert_string_equal(features->inputs[1].member, "x");
    assert_string_equal(features->inputs[2].path, "/abs/c.csv");
    assert_string_equal(features->inputs[4].member, "/g/d");
    assert_string_equal(features->inputs[5].shown, "{images: pics}");
    assert_true(features->has_dtype && features->dtype == ELEMENT_FLOAT32);
    assert_true(features->has_scale && features->scale == 0.5);
    assert_int_equal(features->axis_count, 2);
    assert_int_equal(features->column_count, 2);
    const struct pack_source *targets = &spec->sources[1];
    assert_true(targets->available[0] && !targets->available[1] && targets->available[2]);
    assert_int_equal(targets->inputs[0].kind, INPUT_CLASSES);
    pack_spec_free(spec);
}

static void expect_refusal(const char *text, int code, const char *why)
{
    char path[512], expected[1024];
    test_path(path, sizeof path, test_directory, "spec.yaml");
    test_file_write(path, text);
    struct pack_spec *spec = NULL;
    assert_int_equal(pack_spec_read(path, &spec), code);
    assert_null(spec);
    snprintf(expected, sizeof expected, "malformed spec: %s:%s", path, why);
    if (strcmp(error_message(), expected) != 0)
        fail_msg("%s\n  got      %s\n  expected %s", text, error_message(), expected);
}

static void refuses_malformed_specs(void **state)
{
    (void)state;
    const char *sources = "sources: {x: {from: a.npy}}\n";
    char text[512];
    expect_refusal("splits: {train: {exmples: 3}}\nsources: {x: {from: a.npy}}\n", EXIT_USAGE,
                   "1: unknown key 'exmples' in split train; did you mean `examples`?");
    expect_refusal("splits: {all: {examples: 3}}\nsoures: {x: {from: a.npy}}\n", EXIT_USAGE,
                   "2: unknown key 'soures' in the spec; did you mean `sources`?");
    snprintf(text, sizeof text, "splits: {all: {examples: 3, rows: '0:3'}}\n%s", sources);
    expect_refusal(text, EXIT_USAGE, "1: split all: give one of examples, rows and indices");
    snprintf(text, sizeof text, "splits: {all: {rows: '5:3'}}\n%s", sources);
    expect_refusal(text, EXIT_USAGE,
                   "1: rows of split all: expected START:STOP with START <= STOP, found '5:3'");
    snprintf(text, sizeof text, "splits: {all: {examples: -3}}\n%s", sources);
    expect_refusal(text, EXIT_USAGE, "1: examples: expected a whole number from 0 to "
                                     "9223372036854775807, found '-3'");
    expect_refusal("splits: {all: {examples: 3}}\nsources: {x: {from: a.txt}}\n", EXIT_USAGE,
                   "2: from: cannot tell what 'a.txt' is: give FILE.npy, FILE.npz:MEMBER, "
                   "FILE.csv, FILE.tsv, FILE.h5:/DATASET, {images: DIR}, {classes: DIR} or "
                   "{arrays: DIR}");
    expect_refusal("splits: {all: {examples: 3}}\nsources: {x: {from: a.npz}}\n", EXIT_USAGE,
                   "2: from: 'a.npz' names a file of arrays: add the member, FILE.npz:MEMBER or "
                   "FILE.h5:/DATASET");
    expect_refusal("splits: {all: {examples: 3}}\nsources: {x: {from: {image: d}}}\n",
                   EXIT_USAGE, "2: unknown key 'image' in from; did you mean `images`?");
    expect_refusal("splits: {all: {examples: 3}}\nsources: {x: {from: a.npy, dtype: flaot32}}\n",
                   EXIT_USAGE, "2: dtype of x: unknown dtype 'flaot32'; did you mean `float32`?");
    expect_refusal("splits: {all: {examples: 3}}\nsources: {x: {from: a.npy, scale: 2}}\n",
                   EXIT_USAGE, "2: source x: scale needs dtype float32 or float64");
    expect_refusal("splits: {train: {examples: 3}}\nsources: {x: {from: a.npy, splits: [trian]}}\n",
                   EXIT_USAGE, "2: splits of x: unknown split 'trian'; did you mean `train`?");
    expect_refusal("splits: {a: {examples: 3}, b: {examples: 1}}\n"
                   "sources: {x: {from: a.npy, splits: [a]}}\n",
                   EXIT_USAGE, "1: split b: no source is in it");
    expect_refusal("splits: {all: {examples: 3}}\nsources: {x: {from: a.npy, columns: [c]}}\n",
                   EXIT_USAGE, "2: source x: columns are for CSV and TSV inputs");
    expect_refusal("splits: {all: {examples: 3}}\nsources: {x: {axes: [a]}}\n", EXIT_USAGE,
                   "2: source x: from missing");
    expect_refusal("splits: {all: {examples: 3}}\n", EXIT_USAGE, "1: sources missing");
    expect_refusal("name: a/b\nsplits: {all: {examples: 3}}\nsources: {x: {from: a.npy}}\n",
                   EXIT_USAGE, "1: name: a file name without '/', found 'a/b'");
    expect_refusal("splits: {all: {examples: 3}}\nsources: {x: &a {from: a.npy}, y: *a}\n",
                   EXIT_USAGE, "2: aliases are not supported");
    expect_refusal("splits: [a, b]\nsources: {x: {from: a.npy}}\n", EXIT_USAGE,
                   "1: splits: expected a mapping, found a list");
    expect_refusal("splits: {all: {examples: 3}\n", EXIT_USAGE,
                   "2: did not find expected ',' or '}' while parsing a flow mapping");
}

static void missing_spec(void **state)
{
    (void)state;
    struct pack_spec *spec = NULL;
    assert_int_equal(pack_spec_read("/nonexistent/spec.yaml", &spec), EXIT_MISSING_INPUT);
    assert_string_equal(error_message(), "not found: /nonexistent/spec.yaml");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_a_spec),
        cmocka_unit_test(refuses_malformed_specs),
        cmocka_unit_test(missing_spec),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
