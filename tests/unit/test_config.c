/* Unit tests for common/config.c: the YAML config, the FUEL_* overrides and the data path lookup. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/base/config.h"
#include "common/base/error.h"
#include "support.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const FUEL_VARIABLES[] = {
    "FUEL_CONFIG", "FUEL_DATA_PATH", "FUEL_LOCAL_DATA_PATH", "FUEL_EXTRA_DOWNLOADERS",
    "FUEL_EXTRA_CONVERTERS", "FUEL_MIRROR", "FUEL_TEST_ROOT",
};

struct fixture {
    char directory[64];
    struct fuel_config config;
};

static int setup(void **state)
{
    struct fixture *fixture = calloc(1, sizeof *fixture);
    if (fixture == NULL)
        return -1;
    strcpy(fixture->directory, "/tmp/test_config.XXXXXX");
    if (test_directory_create(fixture->directory) != 0)
        return -1;
    for (size_t index = 0; index < sizeof FUEL_VARIABLES / sizeof FUEL_VARIABLES[0]; index++)
        unsetenv(FUEL_VARIABLES[index]);
    setenv("HOME", fixture->directory, 1);
    error_clear();
    *state = fixture;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fixture = *state;
    config_free(&fixture->config);
    int removed = test_directory_remove(fixture->directory);
    free(fixture);
    return removed;
}

/* DIRECTORY/NAME into PATH (of PATH_MAX bytes). */
static const char *in_directory(const struct fixture *fixture, const char *name, char *path)
{
    test_path(path, 4096, fixture->directory, name);
    return path;
}

static void write_file(const char *path, const char *text, size_t length)
{
    FILE *stream = fopen(path, "wb");
    assert_non_null(stream);
    assert_int_equal(fwrite(text, 1, length, stream), length);
    assert_int_equal(fclose(stream), 0);
}

/* Writes TEXT as $HOME/.fuelrc and returns that path in PATH. */
static const char *write_fuelrc(const struct fixture *fixture, const char *text, char *path)
{
    in_directory(fixture, ".fuelrc", path);
    write_file(path, text, strlen(text));
    return path;
}

static void assert_list(const struct string_list *list, size_t count, ...)
{
    assert_int_equal(list->count, count);
    va_list arguments;
    va_start(arguments, count);
    for (size_t index = 0; index < count; index++)
        assert_string_equal(list->items[index], va_arg(arguments, const char *));
    va_end(arguments);
}

/* Loads the config expecting failure CODE with exactly the message MESSAGE. */
static void assert_load_fails(struct fixture *fixture, int code, const char *message)
{
    assert_int_equal(config_load(&fixture->config), code);
    assert_int_equal(error_code(), code);
    assert_string_equal(error_message(), message);
    assert_null(fixture->config.file);
    assert_int_equal(fixture->config.data_path.count, 0);
}

/* Writes $HOME/.fuelrc and expects "malformed config: FILE:LINE: WHY". */
static void assert_malformed(struct fixture *fixture, const char *text, int line, const char *why)
{
    char path[4096], message[8192];
    write_fuelrc(fixture, text, path);
    snprintf(message, sizeof message, "malformed config: %s:%d: %s", path, line, why);
    assert_load_fails(fixture, EXIT_USAGE, message);
}

static void test_missing_file_is_no_config(void **state)
{
    struct fixture *fixture = *state;
    assert_int_equal(config_load(&fixture->config), EXIT_OK);
    assert_null(fixture->config.file);
    assert_int_equal(fixture->config.data_path.count, 0);
    assert_null(fixture->config.local_data_path);
    assert_int_equal(fixture->config.extra_downloaders.count, 0);
    assert_int_equal(fixture->config.extra_converters.count, 0);
    assert_null(fixture->config.mirror);
    assert_int_equal(fixture->config.mirrors.count, 0);
}

static void test_every_key_as_strings(void **state)
{
    struct fixture *fixture = *state;
    char path[4096];
    write_fuelrc(fixture,
                 "# fuel settings\n"
                 "data_path: /srv/data:/home/me/datasets\n"
                 "local_data_path: /scratch/cache\n"
                 "extra_downloaders: my.downloaders  other.downloaders\n"
                 "extra_converters: 'my.converters'\n"
                 "mirror: http://mirror.example/fuel/\n"
                 "mirrors: http://a.example/ https://b.example/x/\n",
                 path);
    assert_int_equal(config_load(&fixture->config), EXIT_OK);
    assert_string_equal(fixture->config.file, path);
    assert_list(&fixture->config.data_path, 2, "/srv/data", "/home/me/datasets");
    assert_string_equal(fixture->config.local_data_path, "/scratch/cache");
    assert_list(&fixture->config.extra_downloaders, 2, "my.downloaders", "other.downloaders");
    assert_list(&fixture->config.extra_converters, 1, "my.converters");
    assert_string_equal(fixture->config.mirror, "http://mirror.example/fuel/");
    assert_list(&fixture->config.mirrors, 2, "http://a.example/", "https://b.example/x/");
}

static void test_every_list_key_as_list(void **state)
{
    struct fixture *fixture = *state;
    char path[4096];
    write_fuelrc(fixture,
                 "data_path:\n"
                 "  - /srv/data\n"
                 "  - \"/with:colon\"\n"
                 "extra_downloaders: [a.downloaders, \"b c\"]\n"
                 "extra_converters:\n"
                 "- x.converters\n"
                 "mirrors:\n"
                 "  - http://a.example/\n"
                 "  - file:///srv/mirror/\n",
                 path);
    assert_int_equal(config_load(&fixture->config), EXIT_OK);
    assert_list(&fixture->config.data_path, 2, "/srv/data", "/with:colon");
    assert_list(&fixture->config.extra_downloaders, 2, "a.downloaders", "b c");
    assert_list(&fixture->config.extra_converters, 1, "x.converters");
    assert_list(&fixture->config.mirrors, 2, "http://a.example/", "file:///srv/mirror/");
    assert_null(fixture->config.mirror);
    assert_null(fixture->config.local_data_path);
}

static void test_fuel_config_names_the_file(void **state)
{
    struct fixture *fixture = *state;
    char home_file[4096], named[4096];
    write_fuelrc(fixture, "data_path: /from/home\n", home_file);
    in_directory(fixture, "other.yaml", named);
    write_file(named, "data_path: /from/named\n", 22);
    setenv("FUEL_CONFIG", named, 1);
    assert_int_equal(config_load(&fixture->config), EXIT_OK);
    assert_string_equal(fixture->config.file, named);
    assert_list(&fixture->config.data_path, 1, "/from/named");
}

static void test_fuel_config_missing_is_an_error_naming_it(void **state)
{
    struct fixture *fixture = *state;
    char home_file[4096], missing[4096];
    write_fuelrc(fixture, "data_path: /from/home\n", home_file);
    setenv("FUEL_CONFIG", in_directory(fixture, "absent.yaml", missing), 1);
    assert_int_equal(config_load(&fixture->config), EXIT_MISSING_INPUT);
    char expected[4200];
    snprintf(expected, sizeof expected, "config file not found: %s: named by FUEL_CONFIG", missing);
    assert_string_equal(error_message(), expected);
    config_free(&fixture->config);
}

static void test_fuel_config_not_a_file_is_no_config(void **state)
{
    struct fixture *fixture = *state;
    char home_file[4096];
    write_fuelrc(fixture, "data_path: /from/home\n", home_file);
    setenv("FUEL_CONFIG", "/dev/null", 1);
    assert_int_equal(config_load(&fixture->config), EXIT_OK);
    assert_null(fixture->config.file);
    assert_int_equal(fixture->config.data_path.count, 0);
}

static void test_environment_overrides_file(void **state)
{
    struct fixture *fixture = *state;
    char path[4096];
    write_fuelrc(fixture,
                 "data_path: /file/data\n"
                 "local_data_path: /file/local\n"
                 "extra_downloaders: file.downloaders\n"
                 "extra_converters: [file.converters]\n"
                 "mirror: http://file.example/\n"
                 "mirrors: [http://kept.example/]\n",
                 path);
    setenv("FUEL_DATA_PATH", "/env/one::/env/two:", 1);
    setenv("FUEL_LOCAL_DATA_PATH", "/env/local", 1);
    setenv("FUEL_EXTRA_DOWNLOADERS", "  env.a   env.b ", 1);
    setenv("FUEL_EXTRA_CONVERTERS", "env.converters", 1);
    setenv("FUEL_MIRROR", "http://env.example/", 1);
    assert_int_equal(config_load(&fixture->config), EXIT_OK);
    assert_string_equal(fixture->config.file, path);
    assert_list(&fixture->config.data_path, 2, "/env/one", "/env/two");
    assert_string_equal(fixture->config.local_data_path, "/env/local");
    assert_list(&fixture->config.extra_downloaders, 2, "env.a", "env.b");
    assert_list(&fixture->config.extra_converters, 1, "env.converters");
    assert_string_equal(fixture->config.mirror, "http://env.example/");
    assert_list(&fixture->config.mirrors, 1, "http://kept.example/");
}

static void test_s3_entries_keep_their_colon(void **state)
{
    struct fixture *fixture = *state;
    char path[4096];
    write_fuelrc(fixture, "data_path: s3://bucket/data:/local:s3:/odd:s3\n", path);
    assert_int_equal(config_load(&fixture->config), EXIT_OK);
    assert_list(&fixture->config.data_path, 5, "s3://bucket/data", "/local", "s3", "/odd", "s3");
    config_free(&fixture->config);
    setenv("FUEL_DATA_PATH", "/first:s3://b/p/:s3://c", 1);
    assert_int_equal(config_load(&fixture->config), EXIT_OK);
    assert_list(&fixture->config.data_path, 3, "/first", "s3://b/p/", "s3://c");
}

static void test_empty_environment_clears_file_values(void **state)
{
    struct fixture *fixture = *state;
    char path[4096];
    write_fuelrc(fixture, "data_path: /file/data\nmirror: http://file.example/\n"
                          "extra_converters: a b\nlocal_data_path: /l\n", path);
    setenv("FUEL_DATA_PATH", "", 1);
    setenv("FUEL_MIRROR", "", 1);
    setenv("FUEL_EXTRA_CONVERTERS", "", 1);
    setenv("FUEL_LOCAL_DATA_PATH", "", 1);
    assert_int_equal(config_load(&fixture->config), EXIT_OK);
    assert_int_equal(fixture->config.data_path.count, 0);
    assert_null(fixture->config.mirror);
    assert_int_equal(fixture->config.extra_converters.count, 0);
    assert_null(fixture->config.local_data_path);
}

static void test_environment_without_file(void **state)
{
    struct fixture *fixture = *state;
    setenv("FUEL_DATA_PATH", "/only/env", 1);
    setenv("FUEL_EXTRA_CONVERTERS", "one two", 1);
    assert_int_equal(config_load(&fixture->config), EXIT_OK);
    assert_null(fixture->config.file);
    assert_list(&fixture->config.data_path, 1, "/only/env");
    assert_list(&fixture->config.extra_converters, 2, "one", "two");
}

static void test_paths_expand_home_and_variables(void **state)
{
    struct fixture *fixture = *state;
    char path[4096], expected[3][4096];
    write_fuelrc(fixture,
                 "data_path:\n"
                 "  - ~/datasets\n"
                 "  - $FUEL_TEST_ROOT/a\n"
                 "  - ${FUEL_TEST_ROOT}b:$FUEL_UNSET_VARIABLE/c\n"
                 "  - /x/~/y\n"
                 "local_data_path: \"~\"\n"
                 "mirror: file://~/mirror/\n",
                 path);
    setenv("FUEL_TEST_ROOT", "/root/of/tests", 1);
    assert_int_equal(config_load(&fixture->config), EXIT_OK);
    snprintf(expected[0], sizeof expected[0], "%s/datasets", fixture->directory);
    assert_list(&fixture->config.data_path, 4, expected[0], "/root/of/tests/a",
                "/root/of/testsb:$FUEL_UNSET_VARIABLE/c", "/x/~/y");
    assert_string_equal(fixture->config.local_data_path, fixture->directory);
    assert_string_equal(fixture->config.mirror, "file://~/mirror/");
    config_free(&fixture->config);

    setenv("FUEL_DATA_PATH", "~/env:~root/r", 1);
    setenv("FUEL_LOCAL_DATA_PATH", "~/local", 1);
    assert_int_equal(config_load(&fixture->config), EXIT_OK);
    struct passwd *root = getpwnam("root");
    assert_non_null(root);
    snprintf(expected[1], sizeof expected[1], "%s/env", fixture->directory);
    snprintf(expected[2], sizeof expected[2], "%s/r", root->pw_dir);
    assert_list(&fixture->config.data_path, 2, expected[1], expected[2]);
    snprintf(expected[0], sizeof expected[0], "%s/local", fixture->directory);
    assert_string_equal(fixture->config.local_data_path, expected[0]);
}

static void test_empty_file_or_document_is_no_setting(void **state)
{
    struct fixture *fixture = *state;
    char path[4096];
    write_fuelrc(fixture, "", path);
    assert_int_equal(config_load(&fixture->config), EXIT_OK);
    assert_string_equal(fixture->config.file, path);
    assert_int_equal(fixture->config.data_path.count, 0);
    config_free(&fixture->config);
    write_fuelrc(fixture, "# only a comment\n---\n", path);
    assert_int_equal(config_load(&fixture->config), EXIT_OK);
    assert_int_equal(fixture->config.data_path.count, 0);
}

static void test_fuel_keys_without_use_are_accepted(void **state)
{
    struct fixture *fixture = *state;
    char path[4096];
    write_fuelrc(fixture, "floatX: float32\ndefault_seed: 1234\ndata_path: /d\n", path);
    assert_int_equal(config_load(&fixture->config), EXIT_OK);
    assert_list(&fixture->config.data_path, 1, "/d");
}

static void test_later_duplicate_key_wins(void **state)
{
    struct fixture *fixture = *state;
    char path[4096];
    write_fuelrc(fixture, "data_path: [/first, /second]\nmirror: a\ndata_path: /third\nmirror: b\n",
                 path);
    assert_int_equal(config_load(&fixture->config), EXIT_OK);
    assert_list(&fixture->config.data_path, 1, "/third");
    assert_string_equal(fixture->config.mirror, "b");
}

static void test_syntax_errors_name_file_and_line(void **state)
{
    struct fixture *fixture = *state;
    assert_malformed(fixture, "data_path: /a\nlocal_data_path: /b\nmirror: http://a: b\n", 3,
                     "mapping values are not allowed in this context");
    assert_malformed(fixture, "data_path: /a\nmirrors: [a, b\nmirror: x\n", 3,
                     "did not find expected ',' or ']' while parsing a flow sequence");
    assert_malformed(fixture, "mirror: a\n\tdata_path: /b\n", 2,
                     "found a tab character that violates indentation while scanning a plain "
                     "scalar");
    assert_malformed(fixture, "mirror: a\nmirrors: \"x\xff\"\n", 2, "invalid leading UTF-8 octet");
}

static void test_top_level_must_be_a_mapping(void **state)
{
    struct fixture *fixture = *state;
    assert_malformed(fixture, "# a list\n- /a\n- /b\n", 2,
                     "the top level is a list, not a mapping of keys to values");
    assert_malformed(fixture, "\n/just/a/path\n", 2,
                     "the top level is a string, not a mapping of keys to values");
    assert_malformed(fixture, "data_path: /a\n---\ndata_path: /b\n", 2, "more than one document");
}

static void test_keys_of_the_wrong_type(void **state)
{
    struct fixture *fixture = *state;
    assert_malformed(fixture, "mirror: a\ndata_path: {a: 1}\n", 2,
                     "data_path: expected a string or a list of strings, found a mapping");
    assert_malformed(fixture, "mirror: [http://a/]\n", 1,
                     "mirror: expected a string, found a list");
    assert_malformed(fixture, "local_data_path:\n  - /a\n", 2,
                     "local_data_path: expected a string, found a list");
    assert_malformed(fixture, "extra_converters:\n  - a\n  - [b]\n", 3,
                     "extra_converters: expected a list of strings, found a list");
    assert_malformed(fixture, "mirrors:\n  - {url: x}\n", 2,
                     "mirrors: expected a list of strings, found a mapping");
    assert_malformed(fixture, "data_path:\nmirror: x\n", 1, "data_path: no value");
    assert_malformed(fixture, "data_path: [/a, ~]\n", 1, "data_path: no value");
    assert_malformed(fixture, "mirror: \"a\\0b\"\n", 1, "mirror: contains a NUL character");
    assert_malformed(fixture, "data_path: &shared /a\nlocal_data_path: *shared\n", 2,
                     "local_data_path: expected a string, found an alias (aliases are not "
                     "supported)");
    assert_malformed(fixture, "[a]: b\n", 1, "expected a key, found a list");
    assert_malformed(fixture, "floatX: [float32]\n", 1, "floatX: expected a string, found a list");
}

static void test_unknown_key_is_an_error(void **state)
{
    struct fixture *fixture = *state;
    assert_malformed(fixture, "data_path: /a\n\ndata_paths: /b\n", 3,
                     "unknown key 'data_paths'; did you mean `data_path`? (known keys: data_path, local_data_path, "
                     "extra_downloaders, extra_converters, mirror, mirrors, default_seed, floatX)");
    assert_malformed(fixture, "\"a\\nb\\tc\": 1\n", 1,
                     "unknown key 'a?b?c' (known keys: data_path, local_data_path, "
                     "extra_downloaders, extra_converters, mirror, mirrors, default_seed, floatX)");
}

static void test_unclosed_quote_is_reported_where_it_began(void **state)
{
    struct fixture *fixture = *state;
    assert_malformed(fixture, "data_path: \"/a\nmirror: x\n", 1,
                     "found unexpected end of stream while scanning a quoted scalar");
    assert_malformed(fixture, "data_path: /a\nmirrors: [http://a/\n", 2,
                     "did not find expected ',' or ']' while parsing a flow sequence");
}

static void test_hostile_files_are_bounded(void **state)
{
    struct fixture *fixture = *state;
    char path[4096], message[8192];
    size_t length = (1 << 20) + 1;
    char *text = malloc(length);
    assert_non_null(text);
    memset(text, '#', length);
    in_directory(fixture, ".fuelrc", path);
    write_file(path, text, length);
    snprintf(message, sizeof message, "cannot read config: %s: larger than 1 MiB", path);
    assert_load_fails(fixture, EXIT_USAGE, message);

    size_t used = (size_t)snprintf(text, length, "data_path: ");
    for (int index = 0; index < 1025; index++)
        used += (size_t)snprintf(text + used, length - used, "/d%d:", index);
    text[used] = '\0';
    assert_malformed(fixture, text, 1, "data_path: more than 1024 entries");

    used = (size_t)snprintf(text, length, "mirrors:\n");
    for (int index = 0; index < 1025; index++)
        used += (size_t)snprintf(text + used, length - used, "- u%d\n", index);
    assert_malformed(fixture, text, 1026, "mirrors: more than 1024 entries");

    used = (size_t)snprintf(text, length, "data_path: ");
    memset(text + used, '[', 100000);
    text[used + 100000] = '\0';
    assert_malformed(fixture, text, 1,
                     "data_path: expected a list of strings, found a list");
    free(text);
}

static void test_unreadable_file_is_an_error(void **state)
{
    struct fixture *fixture = *state;
    char loop[4096], message[8192];
    in_directory(fixture, "loop", loop);
    assert_int_equal(symlink(loop, loop), 0);
    setenv("FUEL_CONFIG", loop, 1);
    snprintf(message, sizeof message, "cannot read config: %s: %s", loop, strerror(ELOOP));
    assert_load_fails(fixture, EXIT_USAGE, message);
}

/* Permission denied: in a child that drops root, since root reads every file. */
static void test_permission_denied_is_an_error(void **state)
{
    struct fixture *fixture = *state;
    char path[4096];
    write_fuelrc(fixture, "data_path: /a\n", path);
    assert_int_equal(chmod(path, 0), 0);
    assert_int_equal(chmod(fixture->directory, 0755), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        if (getuid() == 0 && setuid(65534) != 0)
            _exit(100);
        struct fuel_config config;
        int code = config_load(&config);
        char expected[8192];
        snprintf(expected, sizeof expected, "cannot read config: %s: %s", path, strerror(EACCES));
        _exit(code == EXIT_USAGE && strcmp(error_message(), expected) == 0 ? 0 : 101);
    }
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* Makes DIRECTORY/NAME and returns it in PATH (of 256 bytes). */
static void make_directory(const struct fixture *fixture, const char *name, char *path)
{
    test_path(path, 256, fixture->directory, name);
    assert_int_equal(mkdir(path, 0755), 0);
}

static void test_data_path_find_takes_the_first_directory_holding_name(void **state)
{
    struct fixture *fixture = *state;
    char first[256], second[256], third[256], file[4096], found[4096], value[1024];
    make_directory(fixture, "first", first);
    make_directory(fixture, "second", second);
    make_directory(fixture, "third", third);
    snprintf(file, sizeof file, "%s/mnist.hdf5", second);
    write_file(file, "x", 1);
    snprintf(file, sizeof file, "%s/mnist.hdf5", third);
    write_file(file, "y", 1);
    snprintf(file, sizeof file, "%s/cifar10", third);
    assert_int_equal(mkdir(file, 0755), 0);
    snprintf(file, sizeof file, "%s/mnist.hdf5", first);
    assert_int_equal(mkfifo(file, 0644), 0);
    snprintf(value, sizeof value, "%s:%s/:%s", first, second, third);
    setenv("FUEL_DATA_PATH", value, 1);
    assert_int_equal(config_load(&fixture->config), EXIT_OK);

    assert_int_equal(data_path_find(&fixture->config, "mnist.hdf5", found, sizeof found), EXIT_OK);
    snprintf(file, sizeof file, "%s/mnist.hdf5", second);
    assert_string_equal(found, file);
    assert_int_equal(data_path_find(&fixture->config, "cifar10", found, sizeof found), EXIT_OK);
    snprintf(file, sizeof file, "%s/cifar10", third);
    assert_string_equal(found, file);

    char message[16384];
    assert_int_equal(data_path_find(&fixture->config, "svhn.hdf5", found, sizeof found),
                     EXIT_MISSING_INPUT);
    snprintf(message, sizeof message, "not found in the data path: svhn.hdf5: searched %s, %s/, %s",
             first, second, third);
    assert_string_equal(error_message(), message);
    assert_int_equal(error_code(), EXIT_MISSING_INPUT);

    char small[8];
    assert_int_equal(data_path_find(&fixture->config, "mnist.hdf5", small, sizeof small),
                     EXIT_USAGE);
}

/* The first directory of the data path that exists and is one: not a missing one, not a file. */
static void test_data_path_writable(void **state)
{
    struct fixture *fixture = *state;
    char file[512], directory[256], value[1536];
    make_directory(fixture, "directory", directory);
    snprintf(file, sizeof file, "%s/plain", directory);
    write_file(file, "x", 1);
    snprintf(value, sizeof value, "%s/absent:%s:%s", directory, file, directory);
    setenv("FUEL_DATA_PATH", value, 1);
    assert_int_equal(config_load(&fixture->config), EXIT_OK);
    assert_string_equal(data_path_writable(&fixture->config), directory);
    config_free(&fixture->config);
    fixture->config = (struct fuel_config){0};
    snprintf(value, sizeof value, "%s/absent:%s", directory, file);
    setenv("FUEL_DATA_PATH", value, 1);
    assert_int_equal(config_load(&fixture->config), EXIT_OK);
    assert_null(data_path_writable(&fixture->config));
}

static void test_data_path_find_with_empty_data_path(void **state)
{
    struct fixture *fixture = *state;
    char found[4096];
    assert_int_equal(config_load(&fixture->config), EXIT_OK);
    assert_int_equal(data_path_find(&fixture->config, "mnist.hdf5", found, sizeof found),
                     EXIT_MISSING_INPUT);
    assert_string_equal(error_message(),
                        "not found: mnist.hdf5: the data path is empty; set data_path in "
                        "~/.fuelrc or FUEL_DATA_PATH (directories separated by ':')");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_missing_file_is_no_config, setup, teardown),
        cmocka_unit_test_setup_teardown(test_every_key_as_strings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_every_list_key_as_list, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fuel_config_names_the_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fuel_config_missing_is_an_error_naming_it, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fuel_config_not_a_file_is_no_config, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_environment_overrides_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_empty_environment_clears_file_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_s3_entries_keep_their_colon, setup, teardown),
        cmocka_unit_test_setup_teardown(test_environment_without_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_paths_expand_home_and_variables, setup, teardown),
        cmocka_unit_test_setup_teardown(test_empty_file_or_document_is_no_setting, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fuel_keys_without_use_are_accepted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_later_duplicate_key_wins, setup, teardown),
        cmocka_unit_test_setup_teardown(test_syntax_errors_name_file_and_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_top_level_must_be_a_mapping, setup, teardown),
        cmocka_unit_test_setup_teardown(test_keys_of_the_wrong_type, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown_key_is_an_error, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unclosed_quote_is_reported_where_it_began, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_hostile_files_are_bounded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unreadable_file_is_an_error, setup, teardown),
        cmocka_unit_test_setup_teardown(test_permission_denied_is_an_error, setup, teardown),
        cmocka_unit_test_setup_teardown(test_data_path_find_takes_the_first_directory_holding_name,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_data_path_find_with_empty_data_path, setup, teardown),
        cmocka_unit_test_setup_teardown(test_data_path_writable, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
