/* Unit tests for common/spool.c: appended bytes read back from a scratch file no name points to. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/formats/spool.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t directory_entries(const char *path)
{
    DIR *directory = opendir(path);
    assert_non_null(directory);
    size_t count = 0;
    struct dirent *entry;
    while ((entry = readdir(directory)) != NULL)
        count += strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0;
    closedir(directory);
    return count;
}

static void test_append_and_read_back_leaving_no_name(void **state)
{
    (void)state;
    char directory[] = "/tmp/test_spool.XXXXXX";
    assert_non_null(mkdtemp(directory));
    struct spool *spool;
    assert_int_equal(spool_create(&spool, directory), EXIT_OK);
    assert_int_equal(directory_entries(directory), 0);
    enum { SIZE = 3 << 20 };
    unsigned char *data = malloc(SIZE), *back = malloc(SIZE);
    assert_non_null(data);
    assert_non_null(back);
    for (size_t index = 0; index < SIZE; index++)
        data[index] = (unsigned char)(index * 7 + index / 4099);
    uint64_t first, second;
    assert_int_equal(spool_append(spool, data, 100, &first), EXIT_OK);
    assert_int_equal(spool_append(spool, data + 100, SIZE - 100, &second), EXIT_OK);
    assert_int_equal(first, 0);
    assert_int_equal(second, 100);
    assert_int_equal(spool_read(spool, 0, back, SIZE), EXIT_OK);
    assert_memory_equal(back, data, SIZE);
    assert_int_equal(spool_read(spool, 12345, back, 1000), EXIT_OK);
    assert_memory_equal(back, data + 12345, 1000);
    assert_int_equal(spool_read(spool, SIZE - 10, back, 20), EXIT_WRITE);
    spool_close(spool);
    assert_int_equal(directory_entries(directory), 0);
    assert_int_equal(rmdir(directory), 0);
    free(data);
    free(back);
}

static void test_unusable_directory(void **state)
{
    (void)state;
    struct spool *spool;
    assert_int_equal(spool_create(&spool, "/nonexistent/directory"), EXIT_WRITE);
    assert_null(spool);
    assert_non_null(strstr(error_message(), "/nonexistent/directory"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_append_and_read_back_leaving_no_name),
        cmocka_unit_test(test_unusable_directory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
