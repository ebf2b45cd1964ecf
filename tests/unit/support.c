/* Helpers shared by the unit tests: a temporary directory per test group, paths in it, whole files. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "support.h"

#include "common/base/error.h"
#include "common/h5py/h5py_reader.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char test_directory[256];

int test_directory_create(char *template)
{
    return mkdtemp(template) == NULL ? -1 : 0;
}

int test_directory_setup(void **state)
{
    (void)state;
    int length = snprintf(test_directory, sizeof test_directory, "/tmp/fuel-%s-XXXXXX",
                          program_invocation_short_name);
    if (length < 0 || (size_t)length >= sizeof test_directory)
        return -1;
    return test_directory_create(test_directory);
}

int test_directory_teardown(void **state)
{
    (void)state;
    return test_directory_remove(test_directory);
}

int test_directory_remove(const char *directory)
{
    char command[4200];
    int length = snprintf(command, sizeof command, "rm -rf '%s'", directory);
    if (length < 0 || (size_t)length >= sizeof command)
        return -1;
    return system(command) == 0 ? 0 : -1;
}

void test_path(char *path, size_t size, const char *directory, const char *name)
{
    int length = snprintf(path, size, "%s/%s", directory, name);
    assert_true(length >= 0 && (size_t)length < size);
}

void test_variant_path(char *path, size_t size, const char *variant)
{
    char name[64];
    snprintf(name, sizeof name, "%s.hdf5", variant);
    test_path(path, size, test_directory, name);
}

int test_content_files_make(void **state, const char *const *variants, size_t count)
{
    if (test_directory_setup(state) != 0)
        return -1;
    for (size_t index = 0; index < count; index++) {
        char path[512], command[1024];
        test_variant_path(path, sizeof path, variants[index]);
        snprintf(command, sizeof command, "/usr/bin/python3 tests/helpers/content_files.py %s %s",
                 path, variants[index]);
        if (system(command) != 0)
            return -1;
    }
    return 0;
}

char test_file[256];

static int file_make(const char *text)
{
    int length = snprintf(test_file, sizeof test_file, "/tmp/fuel-%s-XXXXXX",
                          program_invocation_short_name);
    if (length < 0 || (size_t)length >= sizeof test_file)
        return -1;
    int descriptor = mkstemp(test_file);
    if (descriptor < 0)
        return -1;
    size_t size = strlen(text);
    ssize_t written = write(descriptor, text, size);
    close(descriptor);
    return written == (ssize_t)size ? 0 : -1;
}

void test_file_make(const char *text)
{
    assert_int_equal(file_make(text), 0);
}

void test_file_remove(void)
{
    unlink(test_file);
}

int test_file_setup(void **state)
{
    (void)state;
    return file_make("");
}

int test_file_teardown(void **state)
{
    (void)state;
    test_file_remove();
    return 0;
}

void test_file_write(const char *path, const char *text)
{
    FILE *stream = fopen(path, "w");
    assert_non_null(stream);
    fputs(text, stream);
    assert_int_equal(fclose(stream), 0);
}

size_t test_file_read(const char *path, char *text, size_t size)
{
    FILE *stream = fopen(path, "r");
    assert_non_null(stream);
    size_t length = fread(text, 1, size - 1, stream);
    text[length] = '\0';
    fclose(stream);
    return length;
}

const char *test_data_directory(void)
{
    const char *directory = getenv("FUEL_FIXTURES");
    return directory != NULL ? directory : FUEL_TEST_DATA;
}

struct h5py_file *test_open_expected(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/expected/%s", test_data_directory(), name);
    struct h5py_file *file = NULL;
    assert_int_equal(h5py_reader_open(&file, path), EXIT_OK);
    return file;
}
