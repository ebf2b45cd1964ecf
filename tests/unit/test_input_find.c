/* Unit tests of common/base/input_find.c: a file found by its size and sha256 under its name
   first, then under any name; another file of its name reported as changed; nothing else hashed;
   no recorded name leads out of the folders given. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/base/input_find.h"
#include "support.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* sha256 of "hello\n" and of "world\n"; a sha256 of no file. */
static const char hello[] = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03";
static const char world[] = "e258d248fda94c63753607f7c4494ee0fcbe92f1a76bfdac795c9d84101eb317";
static const char changed[] = "8cb88c8f3e7f9b3a6e56a2b6b2f7a8c0d2f7b3f0ea5e5b2a3d2f1e0c9b8a7f6e";

static char first[512], second[512], third[512];

static void file_write(const char *folder, const char *name, const char *text)
{
    char path[1024];
    test_path(path, sizeof path, folder, name);
    test_file_write(path, text);
}

/* SEARCH's path is DIRECTORY/NAME. */
static void assert_path(const struct input_search *search, const char *directory,
                        const char *name)
{
    char expected[1024];
    test_path(expected, sizeof expected, directory, name);
    assert_string_equal(search->path, expected);
}

static void found_by_name_in_order(void **state)
{
    (void)state;
    file_write(second, "a.gz", "hello\n");
    file_write(third, "a.gz", "hello\n");
    const char *directories[] = {"/nonexistent", first, second, third};
    struct input_wanted wanted = {"a.gz", 6, hello};
    struct input_search search;
    assert_int_equal(input_find(&wanted, directories, 4, &search), EXIT_OK);
    assert_int_equal(search.state, INPUT_SEARCH_FOUND);
    assert_path(&search, second, "a.gz");
}

static void found_under_another_name(void **state)
{
    (void)state;
    file_write(first, "other size.gz", "hello, world\n");
    file_write(first, "same size.gz", "HELLO\n");
    file_write(third, "renamed.gz", "hello\n");
    const char *directories[] = {first, third};
    struct input_wanted wanted = {"b.gz", 6, hello};
    struct input_search search;
    assert_int_equal(input_find(&wanted, directories, 2, &search), EXIT_OK);
    assert_int_equal(search.state, INPUT_SEARCH_FOUND);
    assert_path(&search, third, "renamed.gz");
}

/* A file of its name with other bytes: changed, unless its bytes are found elsewhere. */
static void changed_unless_found_elsewhere(void **state)
{
    (void)state;
    file_write(first, "c.gz", "w0rld\n");
    file_write(second, "c.gz", "longer than six\n");
    const char *directories[] = {first, second};
    struct input_wanted wanted = {"c.gz", 6, world};
    struct input_search search;
    assert_int_equal(input_find(&wanted, directories, 2, &search), EXIT_OK);
    assert_int_equal(search.state, INPUT_SEARCH_CHANGED);
    assert_path(&search, first, "c.gz");
    assert_int_equal(search.size, 6);
    assert_string_not_equal(search.sha256, world);
    assert_int_equal(strlen(search.sha256), 64);
    file_write(third, "copy of c.gz", "world\n");
    const char *more[] = {first, second, third};
    assert_int_equal(input_find(&wanted, more, 3, &search), EXIT_OK);
    assert_int_equal(search.state, INPUT_SEARCH_FOUND);
    assert_path(&search, third, "copy of c.gz");
}

static void not_found(void **state)
{
    (void)state;
    const char *directories[] = {first, "/nonexistent"};
    struct input_wanted wanted = {"d.gz", 6, changed};
    struct input_search search;
    assert_int_equal(input_find(&wanted, directories, 2, &search), EXIT_OK);
    assert_int_equal(search.state, INPUT_SEARCH_NOT_FOUND);
    assert_int_equal(input_find(&wanted, directories, 0, &search), EXIT_OK);
    assert_int_equal(search.state, INPUT_SEARCH_NOT_FOUND);
}

/* A directory of its name, or a file that cannot be read, is no candidate. */
static void unusable_candidates_skipped(void **state)
{
    (void)state;
    char path[1024];
    test_path(path, sizeof path, second, "e.gz");
    assert_int_equal(mkdir(path, 0700), 0);
    const char *directories[] = {second};
    struct input_wanted wanted = {"e.gz", 6, changed};
    struct input_search search;
    assert_int_equal(input_find(&wanted, directories, 1, &search), EXIT_OK);
    assert_int_equal(search.state, INPUT_SEARCH_NOT_FOUND);
}

/* A recorded name that climbs or is absolute is looked for by its last part inside the folders
   given: the file it names outside them, of the right bytes, is never taken; a FIFO of its name
   never blocks the search. */
static void names_kept_inside(void **state)
{
    (void)state;
    char inside[1024], fifo[1024];
    test_path(inside, sizeof inside, third, "inside");
    assert_int_equal(mkdir(inside, 0700), 0);
    file_write(third, "secret.bin", "world\n");
    test_path(fifo, sizeof fifo, inside, "pipe.bin");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    const char *directories[] = {inside};
    const char *names[] = {"../secret.bin", "/nonexistent/../secret.bin", "pipe.bin"};
    for (size_t index = 0; index < 3; index++) {
        struct input_wanted wanted = {names[index], 6, world};
        struct input_search search;
        assert_int_equal(input_find(&wanted, directories, 1, &search), EXIT_OK);
        assert_int_equal(search.state, INPUT_SEARCH_NOT_FOUND);
    }
    file_write(inside, "secret.bin", "world\n");
    struct input_wanted wanted = {"../secret.bin", 6, world};
    struct input_search search;
    assert_int_equal(input_find(&wanted, directories, 1, &search), EXIT_OK);
    assert_int_equal(search.state, INPUT_SEARCH_FOUND);
    assert_path(&search, inside, "secret.bin");
}

static int make_directories(void **state)
{
    if (test_directory_setup(state) != 0)
        return -1;
    test_path(first, sizeof first, test_directory, "first");
    test_path(second, sizeof second, test_directory, "second");
    test_path(third, sizeof third, test_directory, "third");
    return mkdir(first, 0777) | mkdir(second, 0777) | mkdir(third, 0777);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(found_by_name_in_order),
        cmocka_unit_test(found_under_another_name),
        cmocka_unit_test(changed_unless_found_elsewhere),
        cmocka_unit_test(not_found),
        cmocka_unit_test(unusable_candidates_skipped),
        cmocka_unit_test(names_kept_inside),
    };
    return cmocka_run_group_tests(tests, make_directories, test_directory_teardown);
}
