/* Unit tests of reproduce/reproduce_*.c: the recorded inputs found and linked, the maker run with
   the recorded creation time in a staging that is removed, the verdicts (the same bytes, the same
   content, other content), inputs missing, malformed and hostile provenance. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/h5py/h5py_reader.h"
#include "converters/conversion.h"
#include "downloaders/dataset_registry.h"
#include "reproduce/reproduce_engine.h"
#include "support.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char raw_directory[4096], original[4096], scratch[4096];
static char *const recorded_argv[] = {"fuel-convert", "iris", "-d", "raw", "-o", "data", NULL};
static const struct typed_command typed = {6, recorded_argv};

/* What a maker saw and did. */
struct maker {
    int calls;
    char epoch[32];
    const char *copied; /* a reference file copied instead of converting; NULL: convert */
    int failure;        /* returned instead of making anything; 0: none */
};

static int iris_convert(const char *inputs, const char *output, char *path, size_t size)
{
    struct conversion_request request;
    conversion_request_init(&request, &iris_dataset);
    request.input_directory = inputs;
    request.output_directory = output;
    request.typed = &typed;
    return conversion_run(&request, path, size);
}

static int make(void *context, const char *inputs, const char *output, char *path, size_t size)
{
    struct maker *maker = context;
    const char *epoch = getenv("SOURCE_DATE_EPOCH");
    maker->calls++;
    snprintf(maker->epoch, sizeof maker->epoch, "%s", epoch != NULL ? epoch : "");
    if (maker->failure != 0)
        return error_set(maker->failure, "cannot make it");
    if (maker->copied == NULL)
        return iris_convert(inputs, output, path, size);
    char source[4096], text[1 << 16];
    snprintf(source, sizeof source, "%s/expected/%s", test_data_directory(), maker->copied);
    snprintf(path, size, "%s/copy.hdf5", output);
    FILE *in = fopen(source, "rb"), *out = fopen(path, "wb");
    size_t count;
    while (in != NULL && out != NULL && (count = fread(text, 1, sizeof text, in)) > 0)
        fwrite(text, 1, count, out);
    fclose(in);
    fclose(out);
    return EXIT_OK;
}

/* The fuel_provenance text of PATH (caller frees). */
static char *provenance_of(const char *path)
{
    struct h5py_file *file = NULL;
    assert_int_equal(h5py_reader_open(&file, path), EXIT_OK);
    char *text = strdup(h5py_file_attribute(file, "fuel_provenance"));
    h5py_reader_close(file);
    return text;
}

static int scratch_entries(void)
{
    DIR *listing = opendir(scratch);
    int count = 0;
    for (struct dirent *entry; listing != NULL && (entry = readdir(listing)) != NULL;)
        count += strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0;
    if (listing != NULL)
        closedir(listing);
    return count;
}

static struct reproduce_outcome outcome_of(struct maker *maker, const char *provenance,
                                           const char *const *directories, size_t count,
                                           int expected)
{
    struct reproduce_request request = {
        .file = original, .provenance = provenance, .make = make, .context = maker,
        .directories = directories, .directory_count = count, .scratch_parent = scratch};
    struct reproduce_outcome outcome;
    assert_int_equal(reproduce_run(&request, &outcome), expected);
    assert_int_equal(scratch_entries(), 0);
    assert_null(getenv("SOURCE_DATE_EPOCH"));
    return outcome;
}

static void created_seconds(void **state)
{
    (void)state;
    assert_int_equal(reproduce_created_seconds("2009-02-13T23:31:30Z"), 1234567890);
    assert_int_equal(reproduce_created_seconds("1970-01-01T00:00:00Z"), 0);
    static const char *const bad[] = {"2009-02-13 23:31:30Z", "2009-02-13T23:31:30Z ",
                                      "2009-02-13T23:31:30", "", "yesterday", NULL};
    for (size_t index = 0; index < sizeof bad / sizeof bad[0]; index++)
        assert_int_equal(reproduce_created_seconds(bad[index]), -1);
}

static void same_bytes(void **state)
{
    (void)state;
    char *provenance = provenance_of(original);
    const char *directories[] = {"/nonexistent", raw_directory};
    struct maker maker = {0};
    struct reproduce_outcome outcome = outcome_of(&maker, provenance, directories, 2, EXIT_OK);
    assert_int_equal(outcome.verdict, REPRODUCE_BYTES);
    assert_int_equal(maker.calls, 1);
    assert_string_equal(maker.epoch, "1234567890");
    assert_int_equal(outcome.input_count, 1);
    assert_string_equal(outcome.inputs[0].name, "iris.data");
    assert_int_equal(outcome.inputs[0].state, REPRODUCE_INPUT_FOUND);
    reproduce_outcome_free(&outcome);
    free(provenance);
}

static void same_content_other_content(void **state)
{
    (void)state;
    char *provenance = provenance_of(original);
    const char *directories[] = {raw_directory};
    struct maker maker = {.copied = "iris.hdf5"};
    struct reproduce_outcome outcome = outcome_of(&maker, provenance, directories, 1, EXIT_OK);
    assert_int_equal(outcome.verdict, REPRODUCE_BYTES_DIFFER);
    assert_true(content_diff_same(&outcome.report));
    assert_string_equal(outcome.report.right, "the re-run");
    assert_true(outcome.report.provenance_count > 0);
    reproduce_outcome_free(&outcome);
    maker = (struct maker){.copied = "mnist.hdf5"};
    outcome = outcome_of(&maker, provenance, directories, 1, EXIT_OK);
    assert_int_equal(outcome.verdict, REPRODUCE_CONTENT_DIFFERS);
    assert_false(content_diff_same(&outcome.report));
    assert_string_equal(outcome.report.left, original);
    reproduce_outcome_free(&outcome);
    free(provenance);
}

static void missing_inputs_make_nothing(void **state)
{
    (void)state;
    char *provenance = provenance_of(original);
    struct maker maker = {0};
    struct reproduce_outcome outcome = outcome_of(&maker, provenance, NULL, 0, EXIT_OK);
    assert_int_equal(outcome.verdict, REPRODUCE_INPUTS_MISSING);
    assert_int_equal(outcome.inputs[0].state, REPRODUCE_INPUT_MISSING);
    assert_int_equal(maker.calls, 0);
    reproduce_outcome_free(&outcome);
    const char *directories[] = {raw_directory};
    maker.failure = EXIT_CORRUPT_INPUT;
    outcome = outcome_of(&maker, provenance, directories, 1, EXIT_CORRUPT_INPUT);
    assert_int_equal(maker.calls, 1);
    reproduce_outcome_free(&outcome);
    free(provenance);
}

static void malformed_and_hostile(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "{\"created\": \"later\", \"inputs\": []}",
        "{\"inputs\": []}",
        "{\"created\": \"2009-02-13T23:31:30Z\"}",
        "{\"created\": \"2009-02-13T23:31:30Z\", \"inputs\": [{\"name\": \"../x\", \"size\": 1, "
        "\"sha256\": \"5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03\"}]}",
        "{\"created\": \"2009-02-13T23:31:30Z\", \"inputs\": [{\"name\": \"x\", \"size\": -1, "
        "\"sha256\": \"5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03\"}]}",
        "{\"created\": \"2009-02-13T23:31:30Z\", \"inputs\": [{\"name\": \"x\", \"size\": 1, "
        "\"sha256\": \"5891B5B522D5DF086D0FF0B110FBD9D21BB4FC7163AF34D08286A2E846F6BE03\"}]}",
    };
    static const char *const messages[] = {"malformed provenance", "malformed provenance",
                                           "malformed provenance", "hostile provenance",
                                           "malformed provenance", "malformed provenance"};
    for (size_t index = 0; index < sizeof texts / sizeof texts[0]; index++) {
        struct maker maker = {0};
        error_clear();
        struct reproduce_outcome outcome =
            outcome_of(&maker, texts[index], NULL, 0, EXIT_CORRUPT_INPUT);
        assert_int_equal(strncmp(error_message(), messages[index], strlen(messages[index])), 0);
        assert_int_equal(maker.calls, 0);
        reproduce_outcome_free(&outcome);
    }
}

static int setup(void **state)
{
    if (test_directory_setup(state) != 0)
        return -1;
    snprintf(raw_directory, sizeof raw_directory, "%s/raw/iris", test_data_directory());
    test_path(scratch, sizeof scratch, test_directory, "scratch");
    char data[4096];
    test_path(data, sizeof data, test_directory, "data");
    if (mkdir(scratch, 0700) != 0 || mkdir(data, 0700) != 0 ||
        setenv("SOURCE_DATE_EPOCH", "1234567890", 1) != 0 ||
        iris_convert(raw_directory, data, original, sizeof original) != EXIT_OK)
        return -1;
    return unsetenv("SOURCE_DATE_EPOCH");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(created_seconds),
        cmocka_unit_test(same_bytes),
        cmocka_unit_test(same_content_other_content),
        cmocka_unit_test(missing_inputs_make_nothing),
        cmocka_unit_test(malformed_and_hostile),
    };
    return cmocka_run_group_tests(tests, setup, test_directory_teardown);
}
