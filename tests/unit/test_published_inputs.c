/* Unit tests for info/published_inputs.c: inputs that are, are not, or cannot be shown to
   be a dataset's published files; re-compressed and fixture inputs; the verdict's sentence of
   each case. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "info/published_inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MD5_A "c58f30108f718f92721af3b95e74349a"
#define MD5_B "0123456789abcdef0123456789abcdef"
#define SHA_A "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

static const struct published_file cifar[] = {
    {"cifar-10-python.tar.gz", 170498071, MD5_A, 0, NULL},
};

static const struct published_file mixed[] = {
    {"a.gz", 10, MD5_A, 0, NULL},
    {"b.txt", 0, SHA_A, 0, NULL},
    {"c.data", 0, NULL, 0, NULL},
};

/* One input entry of a provenance. */
static void input_text(char *text, size_t size, const char *name, uint64_t bytes,
                       const char *md5, const char *extra)
{
    snprintf(text, size, "{\"name\":\"%s\",\"size\":%llu,\"sha256\":\"%s\"%s%s%s%s}", name,
             (unsigned long long)bytes, SHA_A, md5 ? ",\"md5\":\"" : "", md5 ? md5 : "",
             md5 ? "\"" : "", extra);
}

/* The summary of a provenance with INPUTS (a JSON list's body) against FILES. */
static char *summary_of(const char *inputs, const struct published_file *files, size_t count,
                        const char *dataset, struct inputs_publication *report)
{
    char provenance[4096];
    snprintf(provenance, sizeof provenance, "{\"tool\":\"fuel\",\"inputs\":[%s]}", inputs);
    assert_int_equal(inputs_publication_check(provenance, files, count, dataset, report), EXIT_OK);
    char *summary = inputs_publication_summary(report, dataset);
    assert_non_null(summary);
    return summary;
}

static void published_files(void **state)
{
    (void)state;
    char input[512];
    input_text(input, sizeof input, "cifar-10-python.tar.gz", 170498071, MD5_A, "");
    struct inputs_publication report;
    char *summary = summary_of(input, cifar, 1, "cifar10", &report);
    assert_string_equal(summary, "inputs of cifar10: the published files");
    assert_int_equal(report.count, 1);
    assert_int_equal(report.inputs[0].state, INPUT_PUBLISHED);
    assert_string_equal(report.inputs[0].algorithm, "md5");
    free(summary);
    inputs_publication_free(&report);
}

static void other_bytes_and_sizes(void **state)
{
    (void)state;
    char input[512];
    input_text(input, sizeof input, "cifar-10-python.tar.gz", 170498071, MD5_B, "");
    struct inputs_publication report;
    char *summary = summary_of(input, cifar, 1, "cifar10", &report);
    assert_string_equal(summary, "inputs of cifar10: not the published files: "
                                 "cifar-10-python.tar.gz (md5 " MD5_B ", published " MD5_A ")");
    assert_int_equal(report.inputs[0].state, INPUT_NOT_PUBLISHED);
    free(summary);
    inputs_publication_free(&report);
    input_text(input, sizeof input, "cifar-10-python.tar.gz", 2048, MD5_A, "");
    summary = summary_of(input, cifar, 1, "cifar10", &report);
    assert_string_equal(summary, "inputs of cifar10: not the published files: "
                                 "cifar-10-python.tar.gz (2048 bytes, published 170498071)");
    free(summary);
    inputs_publication_free(&report);
}

static const struct published_file fashion[] = {
    {"t.gz", 5148, MD5_A, 10008, SHA_A},
};

/* Other bytes whose recorded content is the published content: re-compressed; another content,
   or none recorded: not the published files. */
static void recompressed_inputs(void **state)
{
    (void)state;
    char input[512];
    input_text(input, sizeof input, "t.gz", 5125, MD5_B,
               ",\"content_size\":10008,\"content_sha256\":\"" SHA_A "\"");
    struct inputs_publication report;
    char *summary = summary_of(input, fashion, 1, "fashion_mnist", &report);
    assert_string_equal(summary, "inputs of fashion_mnist: the published content, re-compressed: t.gz");
    assert_int_equal(report.inputs[0].state, INPUT_REPACKED);
    struct input_evidence *evidence = inputs_publication_evidence(&report);
    assert_int_equal(input_verdict_combine(evidence, report.count), INPUT_VERDICT_CONTENT);
    assert_string_equal(input_verdict_value(evidence[0].verdict), "content");
    free(evidence);
    free(summary);
    inputs_publication_free(&report);
    input_text(input, sizeof input, "t.gz", 5125, MD5_B,
               ",\"content_size\":10007,\"content_sha256\":\"" SHA_A "\"");
    summary = summary_of(input, fashion, 1, "fashion_mnist", &report);
    assert_string_equal(summary, "inputs of fashion_mnist: not the published files: t.gz (5125 "
                                 "bytes, published 5148)");
    free(summary);
    inputs_publication_free(&report);
    input_text(input, sizeof input, "t.gz", 5148, MD5_B, "");
    summary = summary_of(input, fashion, 1, "fashion_mnist", &report);
    assert_string_equal(summary, "inputs of fashion_mnist: not the published files: t.gz (md5 "
                                 MD5_B ", published " MD5_A ")");
    free(summary);
    inputs_publication_free(&report);
}

static void fixture_inputs(void **state)
{
    (void)state;
    char input[512];
    input_text(input, sizeof input, "cifar-10-python.tar.gz", 2048, MD5_B,
               ",\"origin\":\"fuel fixture --raw\"");
    struct inputs_publication report;
    char *summary = summary_of(input, cifar, 1, "cifar10", &report);
    assert_string_equal(summary, "inputs of cifar10: not the published files: "
                                 "cifar-10-python.tar.gz (fuel fixture --raw output)");
    assert_int_equal(report.inputs[0].state, INPUT_FIXTURE);
    free(summary);
    inputs_publication_free(&report);
}

/* sha256 checksums, unpublished checksums, unlisted names, an old provenance without md5s. */
static void mixed_records(void **state)
{
    (void)state;
    char inputs[2048], one[512];
    size_t used = 0;
    const char *names[] = {"a.gz", "b.txt", "c.data"};
    for (size_t index = 0; index < 3; index++) {
        input_text(one, sizeof one, names[index], 10, index == 0 ? MD5_A : NULL, "");
        used += (size_t)snprintf(inputs + used, sizeof inputs - used, "%s%s", index ? "," : "",
                                 one);
    }
    struct inputs_publication report;
    char *summary = summary_of(inputs, mixed, 3, "toy", &report);
    assert_string_equal(summary, "inputs of toy: not checked against the published files: "
                                 "c.data (no published checksum)");
    assert_int_equal(report.inputs[1].state, INPUT_PUBLISHED);
    assert_string_equal(report.inputs[1].algorithm, "sha256");
    free(summary);
    inputs_publication_free(&report);
    input_text(inputs, sizeof inputs, "a.gz", 10, NULL, "");
    summary = summary_of(inputs, mixed, 3, "toy", &report);
    assert_string_equal(summary, "inputs of toy: not checked against the published files: "
                                 "a.gz (no md5 recorded)");
    free(summary);
    inputs_publication_free(&report);
    input_text(one, sizeof one, "a.gz", 10, MD5_A, "");
    snprintf(inputs, sizeof inputs, "%s,{\"name\":\"z.bin\",\"size\":1}", one);
    summary = summary_of(inputs, mixed, 3, "toy", &report);
    assert_string_equal(summary, "inputs of toy: not the published files: z.bin (not a file of "
                                 "toy)");
    assert_int_equal(report.inputs[1].state, INPUT_UNLISTED);
    free(summary);
    inputs_publication_free(&report);
    summary = summary_of("", mixed, 3, "toy", &report);
    assert_string_equal(summary, "inputs of toy: none recorded");
    free(summary);
    inputs_publication_free(&report);
}

static void malformed_provenance(void **state)
{
    (void)state;
    const char *texts[] = {"not json", "{\"inputs\": 3}", "{\"inputs\": [{\"size\": 1}]}", "[]"};
    for (size_t index = 0; index < 4; index++) {
        struct inputs_publication report = {.count = 7};
        assert_int_equal(inputs_publication_check(texts[index], cifar, 1, "cifar10", &report),
                         EXIT_CORRUPT_INPUT);
        assert_string_equal(error_message(), "no well-formed inputs in the provenance");
        assert_int_equal(report.count, 0);
        assert_null(report.inputs);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(published_files),
        cmocka_unit_test(other_bytes_and_sizes),
        cmocka_unit_test(recompressed_inputs),
        cmocka_unit_test(fixture_inputs),
        cmocka_unit_test(mixed_records),
        cmocka_unit_test(malformed_provenance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
