/* Unit tests of the raw fixtures against the dataset records: every built-in dataset has one, it
   writes exactly the files of the record's table, which are the converter's inputs, each of them
   carries the fixture mark, and the bytes its free-space check counts are a floor. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/base/hash.h"
#include "common/formats/fixture_marker.h"
#include "converters/conversion.h"
#include "fixtures/fixture.h"
#include "support.h"

#include <dirent.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void every_dataset_has_one_fixture(void **state)
{
    (void)state;
    size_t count = 0;
    for (size_t index = 0; datasets[index] != NULL; index++, count++) {
        const struct raw_fixture *fixture = raw_fixture_of(datasets[index]);
        assert_non_null(fixture);
        assert_ptr_equal(fixture->dataset, datasets[index]);
        assert_in_range(fixture->split_count, 1, FIXTURE_MAX_SPLITS);
    }
    size_t fixtures = 0;
    while (raw_fixtures[fixtures] != NULL)
        fixtures++;
    assert_int_equal(fixtures, count);
}

/* The entries of DIRECTORY but . and .., counted. */
static size_t entry_count(const char *directory)
{
    DIR *folder = opendir(directory);
    assert_non_null(folder);
    size_t count = 0;
    for (struct dirent *entry; (entry = readdir(folder)) != NULL;)
        count += strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0;
    closedir(folder);
    return count;
}

/* Whether raw file NAME is one whose format has no place for the mark that its readers look past:
   ILSVRC's plain tars of JPEGs and its ground-truth lines. */
static bool mark_impossible(const char *name)
{
    const char *names[] = {"ILSVRC2010_test_ground_truth.txt"};
    for (size_t index = 0; index < sizeof names / sizeof names[0]; index++)
        if (strcmp(name, names[index]) == 0)
            return true;
    size_t length = strlen(name);
    return strncmp(name, "ILSVRC", 6) == 0 ? length > 4 && strcmp(name + length - 4, ".tar") == 0
                                           : strcmp(name, "patch_images.tar") == 0;
}

/* Each fixture, written, holds its dataset's files and MD5SUMS, nothing else, and the converter
   finds every input it reads among them. */
static void fixtures_write_the_record_files(void **state)
{
    (void)state;
    for (size_t index = 0; raw_fixtures[index] != NULL; index++) {
        const struct raw_fixture *fixture = raw_fixtures[index];
        const struct dataset *dataset = fixture->dataset;
        char directory[512], path[1024];
        snprintf(directory, sizeof directory, "%s/%zu", test_directory, index);
        assert_int_equal(mkdir(directory, 0700), 0);
        struct fixture_request request = {.dataset = dataset, .seed = 1};
        for (size_t split = 0; split < fixture->split_count; split++)
            request.examples[split] = 3;
        assert_int_equal(raw_fixture_write(fixture, &request, directory), EXIT_OK);
        assert_int_equal(entry_count(directory), dataset->file_count + 1);
        for (size_t file = 0; file < dataset->file_count; file++) {
            struct file_digests digests;
            snprintf(path, sizeof path, "%s/%s", directory, dataset->files[file].name);
            assert_int_equal(hash_file_digests(path, true, &digests), EXIT_OK);
            if (!mark_impossible(dataset->files[file].name) &&
                !fixture_marker_found(digests.head, digests.head_length, digests.tail,
                                      digests.tail_length))
                fail_msg("%s carries no fixture mark", path);
        }
        struct conversion_request conversion;
        conversion_request_init(&conversion, dataset);
        conversion.input_directory = directory;
        struct conversion_inputs inputs;
        conversion_inputs_list(&conversion, &inputs);
        assert_int_equal(inputs.count, dataset->converter->input_count);
        for (size_t input = 0; input < inputs.count; input++) {
            struct stat status;
            assert_int_equal(stat(inputs.paths[input], &status), 0);
            assert_true(status.st_size > 0);
        }
    }
}

/* The bytes of the files in DIRECTORY, which it then empties. */
static uint64_t files_bytes_take(const char *directory)
{
    DIR *folder = opendir(directory);
    assert_non_null(folder);
    uint64_t bytes = 0;
    for (struct dirent *entry; (entry = readdir(folder)) != NULL;) {
        char path[1024];
        struct stat status;
        snprintf(path, sizeof path, "%s/%s", directory, entry->d_name);
        if (stat(path, &status) == 0 && S_ISREG(status.st_mode)) {
            bytes += (uint64_t)status.st_size;
            assert_int_equal(unlink(path), 0);
        }
    }
    closedir(folder);
    return bytes;
}

/* What the free-space check counts is a floor: each split's GROWN more examples add at least
   GROWN times example_bytes to the files, whatever the seed. */
static void example_bytes_are_a_floor(void **state)
{
    (void)state;
    enum { BASE = 3, GROWN = 40 };
    char directory[512];
    snprintf(directory, sizeof directory, "%s/floor", test_directory);
    assert_int_equal(mkdir(directory, 0700), 0);
    for (size_t index = 0; raw_fixtures[index] != NULL; index++) {
        const struct raw_fixture *fixture = raw_fixtures[index];
        assert_true(fixture->example_bytes > 0);
        struct fixture_request request = {.dataset = fixture->dataset, .seed = 7 + index};
        for (size_t split = 0; split < fixture->split_count; split++)
            request.examples[split] = BASE + fixture->minimum_examples[split];
        assert_int_equal(raw_fixture_write(fixture, &request, directory), EXIT_OK);
        uint64_t base = files_bytes_take(directory);
        for (size_t split = 0; split < fixture->split_count; split++) {
            request.examples[split] += GROWN;
            assert_int_equal(raw_fixture_write(fixture, &request, directory), EXIT_OK);
            uint64_t grown = files_bytes_take(directory);
            if (grown - base < GROWN * fixture->example_bytes)
                fail_msg("%s %s: %d examples added %llu bytes, under %d x %llu",
                         fixture->dataset->name, fixture->splits[split], GROWN,
                         (unsigned long long)(grown - base), GROWN,
                         (unsigned long long)fixture->example_bytes);
            request.examples[split] -= GROWN;
        }
        uint64_t expected = 0;
        for (size_t split = 0; split < fixture->split_count; split++)
            expected += request.examples[split] * fixture->example_bytes;
        assert_int_equal(raw_fixture_bytes(fixture, &request), expected);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_dataset_has_one_fixture),
        cmocka_unit_test(fixtures_write_the_record_files),
        cmocka_unit_test(example_bytes_are_a_floor),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
