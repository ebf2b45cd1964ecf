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

static void test_mapped_bytes_are_copy_on_write(void **state)
{
    (void)state;
    struct spool *spool;
    assert_int_equal(spool_create(&spool, NULL), EXIT_OK);
    enum { SIZE = 5 * 4096 + 123 };
    static unsigned char data[SIZE], back[SIZE];
    for (size_t index = 0; index < SIZE; index++)
        data[index] = (unsigned char)(index * 13 + 1);
    assert_int_equal(spool_append(spool, data, SIZE, NULL), EXIT_OK);
    struct spool_view view;
    assert_int_equal(spool_map(spool, 4097, SIZE - 4097, &view), EXIT_OK);
    assert_int_equal(view.size, SIZE - 4097);
    assert_memory_equal(view.bytes, data + 4097, SIZE - 4097);
    /* written in memory, never in the file; forgotten pages come back from the file */
    memset(view.bytes, 0xAB, 3 * 4096);
    assert_int_equal(spool_read(spool, 0, back, SIZE), EXIT_OK);
    assert_memory_equal(back, data, SIZE);
    spool_view_forget(&view, 0, 3 * 4096);
    assert_int_equal(view.bytes[0], 0xAB); /* its page is only partly inside: kept */
    assert_memory_equal(view.bytes + 4095, data + 4097 + 4095, 2 * 4096);
    spool_unmap(&view);
    assert_null(view.base);
    assert_int_equal(spool_map(spool, SIZE - 10, 11, &view), EXIT_OTHER);
    assert_int_equal(spool_map(spool, 0, 0, &view), EXIT_OTHER);
    spool_close(spool);
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
        cmocka_unit_test(test_mapped_bytes_are_copy_on_write),
        cmocka_unit_test(test_unusable_directory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
