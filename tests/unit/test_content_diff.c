/* Unit tests for diff/content_diff*.c and content_compare.c: the same content in another
   layout is the same whatever the provenance says; each kind of change is reported where it is,
   in the report's order; text and JSON renderings; examples larger than a block. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "diff/content_diff.h"
#include "info/content_digest.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const variants[] = {"plain", "chunked", "value", "target", "box", "comment",
                                       "label", "extra", "longer", "bare", "big", "bigchanged"};
enum { VARIANT_COUNT = sizeof variants / sizeof variants[0] };

static int files_make(void **state)
{
    return test_content_files_make(state, variants, VARIANT_COUNT);
}

static void compare(const char *left_variant, const char *right_variant,
                    struct content_diff_report *report)
{
    char paths[2][512];
    test_variant_path(paths[0], sizeof paths[0], left_variant);
    test_variant_path(paths[1], sizeof paths[1], right_variant);
    struct h5py_file *left, *right;
    assert_int_equal(h5py_reader_open(&left, paths[0]), EXIT_OK);
    assert_int_equal(h5py_reader_open(&right, paths[1]), EXIT_OK);
    assert_int_equal(content_diff_compare(left, right, NULL, report), EXIT_OK);
    h5py_reader_close(left);
    h5py_reader_close(right);
}

static void assert_values(const struct content_values *values, const char *source,
                          const char *split, uint64_t examples, uint64_t differing,
                          const uint64_t *first, size_t first_count)
{
    assert_string_equal(values->source, source);
    if (split == NULL)
        assert_null(values->split);
    else
        assert_string_equal(values->split, split);
    assert_int_equal(values->examples, examples);
    assert_int_equal(values->differing, differing);
    assert_int_equal(values->first_count, first_count);
    for (size_t index = 0; index < first_count; index++)
        assert_int_equal(values->first[index], first[index]);
}

static void assert_provenance(const struct content_provenance_change *change, const char *key,
                              const char *name, const char *property, const char *left,
                              const char *right)
{
    assert_string_equal(change->key, key);
    const char *expected[] = {name, property, left, right};
    const char *actual[] = {change->name, change->property, change->left, change->right};
    for (size_t index = 0; index < 4; index++)
        if (expected[index] == NULL)
            assert_null(actual[index]);
        else
            assert_string_equal(actual[index], expected[index]);
}

static void same_content_other_layout_and_provenance(void **state)
{
    (void)state;
    struct content_diff_report report;
    compare("plain", "chunked", &report);
    assert_true(content_diff_same(&report));
    assert_int_equal(report.only_count + report.structure_count + report.values_count, 0);
    assert_int_equal(report.provenance_count, 6);
    assert_provenance(&report.provenance[0], "command", NULL, NULL, "fuel-convert x -o a",
                      "fuel-convert x -o b");
    assert_provenance(&report.provenance[1], "inputs", "x.gz", "size", "11", "12");
    char left_sha[65], right_sha[65];
    memset(left_sha, 'a', 64);
    memset(right_sha, 'b', 64);
    left_sha[64] = right_sha[64] = '\0';
    assert_provenance(&report.provenance[2], "inputs", "x.gz", "sha256", left_sha, right_sha);
    assert_provenance(&report.provenance[3], "libraries", "hdf5", NULL, "1.10.8", "1.12.2");
    assert_provenance(&report.provenance[4], "created", NULL, NULL, "1970-01-01T00:00:00Z",
                      "2024-01-01T00:00:00Z");
    assert_provenance(&report.provenance[5], "attribute", "fuel_convert_command", NULL,
                      "by hand one", "by hand two");
    content_diff_free(&report);
    compare("plain", "plain", &report);
    assert_true(content_diff_same(&report));
    assert_int_equal(report.provenance_count, 0);
    content_diff_free(&report);
}

/* A file without provenance: each entry of the other's is listed against (none). */
static void provenance_against_none(void **state)
{
    (void)state;
    struct content_diff_report report;
    compare("plain", "bare", &report);
    assert_true(content_diff_same(&report));
    assert_int_equal(report.provenance_count, 8);
    assert_provenance(&report.provenance[0], "command", NULL, NULL, "fuel-convert x -o a", NULL);
    char input[256];
    snprintf(input, sizeof input, "{\"name\":\"x.gz\",\"size\":11,\"sha256\":\"%0*d\"}", 64, 0);
    memset(strstr(input, "\"sha256\":\"") + 10, 'a', 64);
    assert_provenance(&report.provenance[1], "inputs", "x.gz", NULL, input, NULL);
    assert_provenance(&report.provenance[2], "libraries", "hdf5", NULL, "1.10.8", NULL);
    assert_provenance(&report.provenance[3], "created", NULL, NULL, "1970-01-01T00:00:00Z", NULL);
    assert_provenance(&report.provenance[4], "tool", NULL, NULL, "fuel", NULL);
    assert_provenance(&report.provenance[5], "version", NULL, NULL, "0.1.0", NULL);
    assert_provenance(&report.provenance[6], "attribute", "fuel_convert_command", NULL,
                      "by hand one", NULL);
    assert_provenance(&report.provenance[7], "attribute", "h5py_interface_version", NULL, "0.3",
                      NULL);
    content_diff_free(&report);
}

static void one_value_reported_per_source_and_split(void **state)
{
    (void)state;
    struct content_diff_report report;
    compare("plain", "value", &report);
    assert_false(content_diff_same(&report));
    assert_int_equal(report.only_count + report.structure_count, 0);
    assert_int_equal(report.values_count, 3);
    const uint64_t whole[] = {8}, within[] = {1};
    assert_values(&report.values[0], "features", NULL, 10, 1, whole, 1);
    assert_values(&report.values[1], "features", "test", 3, 1, within, 1);
    assert_values(&report.values[2], "features", "valid", 3, 1, within, 1);
    content_diff_free(&report);
    compare("plain", "target", &report);
    const uint64_t target[] = {2};
    assert_int_equal(report.values_count, 2);
    assert_values(&report.values[0], "targets", NULL, 10, 1, target, 1);
    assert_values(&report.values[1], "targets", "train", 7, 1, target, 1);
    content_diff_free(&report);
    compare("box", "plain", &report);
    const uint64_t box[] = {1};
    assert_int_equal(report.values_count, 2);
    assert_values(&report.values[0], "boxes", NULL, 10, 1, box, 1);
    assert_values(&report.values[1], "boxes", "train", 7, 1, box, 1);
    content_diff_free(&report);
}

static void split_rows_labels_and_shapes(void **state)
{
    (void)state;
    struct content_diff_report report;
    compare("plain", "comment", &report);
    assert_int_equal(report.structure_count, 1);
    assert_string_equal(report.structure[0].split, "train");
    assert_string_equal(report.structure[0].source, "features");
    assert_string_equal(report.structure[0].property, "comment");
    assert_string_equal(report.structure[0].left, ".");
    assert_string_equal(report.structure[0].right, "changed");
    assert_int_equal(report.values_count, 0);
    content_diff_free(&report);
    compare("plain", "label", &report);
    assert_int_equal(report.structure_count, 1);
    assert_null(report.structure[0].split);
    assert_string_equal(report.structure[0].property, "axis labels");
    assert_string_equal(report.structure[0].left, "batch,height,width");
    assert_string_equal(report.structure[0].right, "batch,height,column");
    content_diff_free(&report);
    compare("plain", "longer", &report);
    assert_int_equal(report.structure_count, 1);
    assert_string_equal(report.structure[0].property, "shape");
    assert_string_equal(report.structure[0].left, "10x2x3");
    assert_string_equal(report.structure[0].right, "11x2x3");
    const uint64_t extra[] = {10};
    assert_int_equal(report.values_count, 1);
    assert_values(&report.values[0], "features", NULL, 11, 1, extra, 1);
    content_diff_free(&report);
}

static void splits_and_sources_in_one_file_only(void **state)
{
    (void)state;
    struct content_diff_report report;
    compare("plain", "extra", &report);
    assert_int_equal(report.only_count, 2);
    assert_string_equal(report.only[0].kind, "split");
    assert_string_equal(report.only[0].name, "more");
    assert_int_equal(report.only[0].side, CONTENT_RIGHT);
    assert_string_equal(report.only[1].kind, "source");
    assert_string_equal(report.only[1].name, "extra");
    assert_int_equal(report.only[1].side, CONTENT_RIGHT);
    assert_int_equal(report.structure_count + report.values_count, 0);
    content_diff_free(&report);
}

static void examples_larger_than_a_block(void **state)
{
    (void)state;
    struct content_diff_report report;
    compare("big", "bigchanged", &report);
    const uint64_t differing[] = {1, 2};
    assert_int_equal(report.values_count, 2);
    assert_values(&report.values[0], "features", NULL, 3, 2, differing, 2);
    assert_values(&report.values[1], "features", "train", 3, 2, differing, 2);
    content_diff_free(&report);
}

static void text_report(void **state)
{
    (void)state;
    struct content_diff_report report;
    compare("plain", "value", &report);
    char path[512], text[4096], expected[4096];
    test_path(path, sizeof path, test_directory, "report.txt");
    FILE *stream = fopen(path, "w");
    assert_non_null(stream);
    assert_int_equal(content_diff_print_text(stream, &report), EXIT_OK);
    fclose(stream);
    test_file_read(path, text, sizeof text);
    snprintf(expected, sizeof expected,
             "the content of %s and %s differs\n"
             "source features: 1 of 10 examples differ: indices 8\n"
             "split test, source features: 1 of 3 examples differ: positions 1\n"
             "split valid, source features: 1 of 3 examples differ: positions 1\n",
             report.left, report.right);
    content_diff_free(&report);
    assert_string_equal(text, expected);
}

static void json_report(void **state)
{
    (void)state;
    struct content_diff_report report;
    compare("plain", "comment", &report);
    json_t *document = content_diff_json(&report);
    assert_non_null(document);
    char *text = json_dumps(document, JSON_COMPACT);
    char expected[2048];
    snprintf(expected, sizeof expected,
             "{\"left\":\"%s\",\"right\":\"%s\",\"same_content\":false,\"only\":[],"
             "\"structure\":[{\"split\":\"train\",\"source\":\"features\",\"property\":"
             "\"comment\",\"left\":\".\",\"right\":\"changed\"}],\"values\":[],\"provenance\":[]}",
             report.left, report.right);
    assert_string_equal(text, expected);
    free(text);
    json_decref(document);
    content_diff_free(&report);
}

static void variant_digest(const char *variant, char sha256[HASH_HEX_SIZE])
{
    char path[512];
    test_variant_path(path, sizeof path, variant);
    struct h5py_file *file;
    assert_int_equal(h5py_reader_open(&file, path), EXIT_OK);
    struct content_digest digest;
    assert_int_equal(content_digest_compute(file, &digest), EXIT_OK);
    memcpy(sha256, digest.sha256, HASH_HEX_SIZE);
    content_digest_free(&digest);
    h5py_reader_close(file);
}

/* For every pair of files, the diff says "same" exactly when the content digests are equal. */
static void diff_agrees_with_digests(void **state)
{
    (void)state;
    char digests[VARIANT_COUNT][HASH_HEX_SIZE];
    for (size_t index = 0; index < VARIANT_COUNT; index++)
        variant_digest(variants[index], digests[index]);
    size_t same = 0;
    for (size_t left = 0; left < VARIANT_COUNT; left++)
        for (size_t right = 0; right < VARIANT_COUNT; right++) {
            struct content_diff_report report;
            compare(variants[left], variants[right], &report);
            bool equal = strcmp(digests[left], digests[right]) == 0;
            assert_int_equal(content_diff_same(&report), equal);
            same += equal;
            content_diff_free(&report);
        }
    /* Each file with itself; plain, chunked and bare with each other. */
    assert_int_equal(same, VARIANT_COUNT + 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_content_other_layout_and_provenance),
        cmocka_unit_test(provenance_against_none),
        cmocka_unit_test(one_value_reported_per_source_and_split),
        cmocka_unit_test(split_rows_labels_and_shapes),
        cmocka_unit_test(splits_and_sources_in_one_file_only),
        cmocka_unit_test(examples_larger_than_a_block),
        cmocka_unit_test(text_report),
        cmocka_unit_test(json_report),
        cmocka_unit_test(diff_agrees_with_digests),
    };
    return cmocka_run_group_tests(tests, files_make, test_directory_teardown);
}
