/* Unit tests for common/provenance.c: the JSON fields and their order, md5 beside sha256, the
   origin of inputs fuel fixture --raw marked, created, missing inputs, digests from the bytes
   read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/base/hash.h"
#include "common/formats/fixture_marker.h"
#include "common/formats/gzip/gzip_write.h"
#include "common/formats/gzip/inflate_file.h"
#include "common/h5py/h5py_writer.h"
#include "common/h5py/provenance.h"
#include "common/base/versions.h"
#include "support.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static char abc_path[256], empty_path[256];

static void write_text(const char *path, const char *text)
{
    FILE *file = fopen(path, "w");
    fputs(text, file);
    fclose(file);
}

static int make_inputs(void **state)
{
    if (test_directory_setup(state) != 0)
        return -1;
    char inner[256];
    snprintf(inner, sizeof inner, "%s/inner", test_directory);
    mkdir(inner, 0700);
    snprintf(abc_path, sizeof abc_path, "%s/abc.txt", test_directory);
    snprintf(empty_path, sizeof empty_path, "%s/inner/empty.bin", test_directory);
    write_text(abc_path, "abc");
    write_text(empty_path, "");
    return 0;
}

static char *provenance_of(const char *const *paths, size_t count)
{
    char *argv[] = {"fuel-convert", "mnist", "-d", "raw dir", NULL};
    struct provenance *provenance;
    assert_int_equal(provenance_begin(&provenance, 4, argv, paths, count, true), EXIT_OK);
    return provenance_finish(provenance);
}

static void assert_keys(json_t *object, const char *const *keys, size_t count)
{
    assert_int_equal(json_object_size(object), count);
    void *iterator = json_object_iter(object);
    for (size_t index = 0; index < count; index++, iterator = json_object_iter_next(object, iterator))
        assert_string_equal(json_object_iter_key(iterator), keys[index]);
}

/* An inputs entry's size, and its sha256 and md5 when given. */
static void assert_input(json_t *entry, json_int_t size, const char *sha256, const char *md5)
{
    assert_int_equal(json_integer_value(json_object_get(entry, "size")), size);
    if (sha256 != NULL)
        assert_string_equal(json_string_value(json_object_get(entry, "sha256")), sha256);
    if (md5 != NULL)
        assert_string_equal(json_string_value(json_object_get(entry, "md5")), md5);
}

static void test_fields(void **state)
{
    (void)state;
    setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
    const char *paths[] = {abc_path, empty_path};
    char *text = provenance_of(paths, 2);
    assert_non_null(text);
    json_error_t problem;
    json_t *root = json_loads(text, 0, &problem);
    assert_non_null(root);
    const char *keys[] = {"tool", "version", "argv", "inputs", "libraries", "created"};
    assert_keys(root, keys, 6);
    assert_string_equal(json_string_value(json_object_get(root, "tool")), "fuel");
    assert_string_equal(json_string_value(json_object_get(root, "version")), FUEL_VERSION);
    json_t *argv = json_object_get(root, "argv");
    assert_int_equal(json_array_size(argv), 4);
    assert_string_equal(json_string_value(json_array_get(argv, 0)), "fuel-convert");
    assert_string_equal(json_string_value(json_array_get(argv, 3)), "raw dir");
    json_t *inputs = json_object_get(root, "inputs");
    assert_int_equal(json_array_size(inputs), 2);
    json_t *abc = json_array_get(inputs, 0);
    const char *input_keys[] = {"name", "size", "sha256", "md5"};
    assert_keys(abc, input_keys, 4);
    assert_string_equal(json_string_value(json_object_get(abc, "name")), "abc.txt");
    assert_input(abc, 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                 "900150983cd24fb0d6963f7d28e17f72");
    json_t *empty = json_array_get(inputs, 1);
    assert_string_equal(json_string_value(json_object_get(empty, "name")), "empty.bin");
    assert_input(empty, 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                 "d41d8cd98f00b204e9800998ecf8427e");
    assert_keys(empty, input_keys, 4);
    struct library_version versions[LIBRARY_VERSION_COUNT];
    library_versions(versions);
    json_t *libraries = json_object_get(root, "libraries");
    const char *library_keys[] = {"hdf5",   "zlib",    "libarchive", "libcurl",
                                  "libpng", "jansson", "libisal"};
    assert_keys(libraries, library_keys, LIBRARY_VERSION_COUNT);
    for (int index = 0; index < LIBRARY_VERSION_COUNT; index++)
        assert_string_equal(json_string_value(json_object_get(libraries, versions[index].name)),
                            versions[index].version);
    assert_string_equal(json_string_value(json_object_get(root, "created")), "2023-11-14T22:13:20Z");
    json_decref(root);
    free(text);
}

static void test_deterministic(void **state)
{
    (void)state;
    setenv("SOURCE_DATE_EPOCH", "0", 1);
    const char *paths[] = {abc_path};
    char *first = provenance_of(paths, 1);
    char *second = provenance_of(paths, 1);
    assert_non_null(first);
    assert_non_null(second);
    assert_string_equal(first, second);
    assert_non_null(strstr(first, "\"created\":\"1970-01-01T00:00:00Z\""));
    free(first);
    free(second);
}

/* Inputs marked by fuel fixture --raw (a text first line, a gzip comment) get an "origin" after
   their digests; an unmarked input, or a gzip whose comment is another text, none. */
static void test_fixture_origin(void **state)
{
    (void)state;
    char text_path[256], gzip_path[256], other_path[256];
    test_path(text_path, sizeof text_path, test_directory, "iris.data");
    test_path(gzip_path, sizeof gzip_path, test_directory, "labels.gz");
    test_path(other_path, sizeof other_path, test_directory, "other.gz");
    write_text(text_path, FIXTURE_TEXT_LINE "5.1,3.5,1.4,0.2,Iris-setosa\n");
    const char *comments[] = {FIXTURE_MARKER, FIXTURE_MARKER " and more"};
    const char *gzips[] = {gzip_path, other_path};
    for (size_t index = 0; index < 2; index++) {
        struct gzip_writer *writer;
        assert_int_equal(gzip_writer_open(&writer, gzips[index], comments[index]), EXIT_OK);
        assert_int_equal(gzip_writer_write(writer, "\0\0\x08\x01", 4), EXIT_OK);
        assert_int_equal(gzip_writer_close(writer), EXIT_OK);
    }
    const char *paths[] = {text_path, gzip_path, other_path, abc_path};
    char *text = provenance_of(paths, 4);
    json_t *root = json_loads(text, 0, NULL);
    json_t *inputs = json_object_get(root, "inputs");
    const char *marked_keys[] = {"name", "size", "sha256", "md5", "origin"};
    for (size_t index = 0; index < 4; index++) {
        json_t *input = json_array_get(inputs, index);
        if (index < 2) {
            assert_keys(input, marked_keys, 5);
            assert_string_equal(json_string_value(json_object_get(input, "origin")),
                                "fuel fixture --raw");
        } else {
            assert_keys(input, marked_keys, 4);
        }
    }
    json_decref(root);
    free(text);
}

static void test_no_inputs(void **state)
{
    (void)state;
    setenv("SOURCE_DATE_EPOCH", "86400", 1);
    char *text = provenance_of(NULL, 0);
    assert_non_null(text);
    assert_non_null(strstr(text, "\"inputs\":[]"));
    assert_non_null(strstr(text, "\"created\":\"1970-01-02T00:00:00Z\""));
    free(text);
}

static void test_missing_input(void **state)
{
    (void)state;
    char missing[256];
    snprintf(missing, sizeof missing, "%s/absent.gz", test_directory);
    const char *paths[] = {abc_path, missing};
    error_clear();
    assert_null(provenance_of(paths, 2));
    assert_int_equal(error_code(), EXIT_MISSING_INPUT);
    assert_non_null(strstr(error_message(), missing));
    assert_non_null(strstr(error_message(), "No such file or directory"));
}

/* Inputs that are no dataset's raw files (an exported file, a packed array) get no md5. */
static void test_no_md5_but_for_raw_files(void **state)
{
    (void)state;
    const char *paths[] = {abc_path};
    char *argv[] = {"fuel-export", NULL};
    struct provenance *provenance;
    assert_int_equal(provenance_begin(&provenance, 1, argv, paths, 1, false), EXIT_OK);
    char *text = provenance_finish(provenance);
    json_t *root = json_loads(text, 0, NULL);
    json_t *abc = json_array_get(json_object_get(root, "inputs"), 0);
    const char *input_keys[] = {"name", "size", "sha256"};
    assert_keys(abc, input_keys, 3);
    assert_string_equal(json_string_value(json_object_get(abc, "sha256")),
                        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    json_decref(root);
    free(text);
}

/* Supplied inputs: the digests of the bytes handed (not of the file, here other bytes), the same
   bytes twice accepted, other bytes the second time refused; one never handed hashed from its
   file at the end; md5 and the fixture mark from the bytes too. */
static void test_supplied(void **state)
{
    (void)state;
    const char *paths[] = {abc_path, empty_path, abc_path};
    const bool supplied[] = {true, false, true};
    char *argv[] = {"fuel-pack", NULL};
    struct provenance *provenance;
    assert_int_equal(provenance_begin_supplied(&provenance, 1, argv, paths, NULL, 3, true,
                                               supplied, NULL), EXIT_OK);
    assert_int_equal(provenance_supply(provenance, 0, "hello", 5), EXIT_OK);
    assert_int_equal(provenance_supply(provenance, 0, "hello", 5), EXIT_OK);
    error_clear();
    assert_int_equal(provenance_supply(provenance, 0, "hellO", 5), EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "input changed while being read: "));
    assert_non_null(strstr(error_message(), abc_path));
    char *text = provenance_finish(provenance);
    assert_non_null(text);
    json_t *root = json_loads(text, 0, NULL);
    json_t *inputs = json_object_get(root, "inputs");
    json_t *handed = json_array_get(inputs, 0);
    assert_input(handed, 5, "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
                 "5d41402abc4b2a76b9719d911017c592");
    json_t *hashed = json_array_get(inputs, 2);
    assert_input(hashed, 3, NULL, "900150983cd24fb0d6963f7d28e17f72");
    assert_input(json_array_get(inputs, 1), 0, NULL, NULL);
    json_decref(root);
    free(text);
}

static const char *zero_md5 = "00000000000000000000000000000000";

/* The raw inputs PATHS (COUNT) begun with their records PUBLISHED: with provenance_begin_read
   (APART as flagged) when READ, else provenance_begin_supplied. */
static struct provenance *published_begin(const char *const *paths, size_t count, bool read,
                                          const bool *apart,
                                          const struct provenance_publication *published)
{
    char *argv[] = {"fuel-convert", NULL};
    struct provenance *provenance;
    int begun = read ? provenance_begin_read(&provenance, 1, argv, paths, NULL, count, true, NULL,
                                             apart, published)
                     : provenance_begin_supplied(&provenance, 1, argv, paths, NULL, count, true,
                                                 NULL, published);
    assert_int_equal(begun, EXIT_OK);
    return provenance;
}

/* PATHS' provenance, the record publishing GZIP for the gzip (its md5 "0...0", so its content is
   digested), an md5 of no size for the others, with provenance_begin_read when READ (the gzip
   read whole through the inflater, the text flagged apart), else provenance_begin_supplied. */
static char *published_provenance(const char *const *paths, bool read,
                                  const struct provenance_publication *gzip)
{
    const bool apart[] = {false, true, false};
    const struct provenance_publication published[] = {
        *gzip, {.checksum = zero_md5}, {.checksum = zero_md5}};
    struct provenance *provenance = published_begin(paths, 3, read, apart, published);
    struct inflate_file *file;
    assert_int_equal(inflate_file_open(&file, paths[0], "cannot open", 1), EXIT_OK);
    char content[64];
    size_t count;
    assert_int_equal(inflate_file_read(file, content, sizeof content, &count), EXIT_OK);
    assert_int_equal(count, 11);
    inflate_file_close(file);
    return provenance_finish(provenance);
}

/* The digests taken from the bytes read, the content's from the inflater's output, are those the
   thread takes reading the files again. */
static void test_read_through_inputs(void **state)
{
    (void)state;
    setenv("SOURCE_DATE_EPOCH", "0", 1);
    char gzip_path[256];
    test_path(gzip_path, sizeof gzip_path, test_directory, "hello.gz");
    struct gzip_writer *writer;
    assert_int_equal(gzip_writer_open(&writer, gzip_path, NULL), EXIT_OK);
    assert_int_equal(gzip_writer_write(writer, "hello world", 11), EXIT_OK);
    assert_int_equal(gzip_writer_close(writer), 0);
    const char *paths[] = {gzip_path, abc_path, empty_path};
    struct stat status;
    assert_int_equal(stat(gzip_path, &status), 0);
    /* Its published size (the content inflated again at the finish), then another (hashed as
       read, no md5 taken: it cannot match). */
    for (int other = 0; other < 2; other++) {
        const struct provenance_publication publication = {
            .checksum = zero_md5, .size = (uint64_t)status.st_size + (uint64_t)other,
            .content = true};
        char *tapped = published_provenance(paths, true, &publication);
        char *threaded = published_provenance(paths, false, &publication);
        assert_non_null(tapped);
        assert_non_null(threaded);
        assert_string_equal(tapped, threaded);
        assert_non_null(strstr(tapped, "\"content_size\":11,\"content_sha256\":\"b94d27b9934d3e"
                                       "08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9\""));
        json_t *root = json_loads(tapped, 0, NULL);
        json_t *gzip = json_array_get(json_object_get(root, "inputs"), 0);
        assert_true((json_object_get(gzip, "md5") == NULL) == other);
        assert_non_null(json_object_get(json_array_get(json_object_get(root, "inputs"), 1), "md5"));
        json_decref(root);
        free(tapped);
        free(threaded);
    }
}

/* ABC's recorded md5 when its record publishes md5 ONES and SHA256, read (taps) when READ. */
static char *md5_recorded(const char *sha256, bool read)
{
    const char *paths[] = {abc_path};
    const struct provenance_publication published[] = {
        {.checksum = "11111111111111111111111111111111", .sha256 = sha256, .size = 3}};
    struct provenance *provenance = published_begin(paths, 1, read, NULL, published);
    char *text = provenance_finish(provenance);
    assert_non_null(text);
    json_t *root = json_loads(text, 0, NULL);
    free(text);
    const char *md5 = json_string_value(
        json_object_get(json_array_get(json_object_get(root, "inputs"), 0), "md5"));
    char *kept = md5 != NULL ? strdup(md5) : NULL;
    json_decref(root);
    return kept;
}

/* With the published file's sha256 known, the md5 is the published one when the sha256 is that
   one (the made-up "1...1" shows it was not computed), and computed when it is another. */
static void test_md5_implied_by_sha256(void **state)
{
    (void)state;
    for (int read = 0; read < 2; read++) {
        char *implied = md5_recorded(
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", read);
        assert_string_equal(implied, "11111111111111111111111111111111");
        char *computed = md5_recorded(
            "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", read);
        assert_string_equal(computed, "900150983cd24fb0d6963f7d28e17f72");
        free(implied);
        free(computed);
    }
}

/* The gzip's provenance, its record publishing another size, the content CONTENT_SHA256 of
   CONTENT_SIZE bytes and a re-compressed copy of the gzip's size with REPACKED_SHA256. */
static json_t *repacked_provenance(const char *const *paths, const char *repacked_sha256,
                                   uint64_t content_size, const char *content_sha256)
{
    struct stat status;
    assert_int_equal(stat(paths[0], &status), 0);
    const struct provenance_publication gzip = {
        .checksum = zero_md5, .size = (uint64_t)status.st_size + 1, .content = true,
        .content_size = content_size, .content_sha256 = content_sha256,
        .repacked_size = (uint64_t)status.st_size, .repacked_sha256 = repacked_sha256};
    char *text = published_provenance(paths, true, &gzip);
    assert_non_null(text);
    json_t *root = json_loads(text, 0, NULL);
    free(text);
    json_t *input = json_incref(json_array_get(json_object_get(root, "inputs"), 0));
    json_decref(root);
    return input;
}

/* A gzip with the sha256 of the copy its record knows gets the record's content digest and size
   (the content is not inflated: a record claiming 99 bytes is believed); with another sha256 its
   own content is inflated at the finish. */
static void test_known_repacked_copy(void **state)
{
    (void)state;
    char gzip_path[256];
    test_path(gzip_path, sizeof gzip_path, test_directory, "repacked.gz");
    struct gzip_writer *writer;
    assert_int_equal(gzip_writer_open(&writer, gzip_path, NULL), EXIT_OK);
    assert_int_equal(gzip_writer_write(writer, "hello world", 11), EXIT_OK);
    assert_int_equal(gzip_writer_close(writer), 0);
    const char *paths[] = {gzip_path, abc_path, empty_path};
    struct file_digests digests;
    assert_int_equal(hash_file_digests(gzip_path, false, &digests), EXIT_OK);
    const char *claimed = "abababababababababababababababababababababababababababababababab";
    const char *hello = "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9";
    json_t *known = repacked_provenance(paths, digests.sha256, 99, claimed);
    assert_string_equal(json_string_value(json_object_get(known, "sha256")), digests.sha256);
    assert_int_equal(json_integer_value(json_object_get(known, "content_size")), 99);
    assert_string_equal(json_string_value(json_object_get(known, "content_sha256")), claimed);
    json_decref(known);
    json_t *other = repacked_provenance(paths, claimed, 99, claimed);
    assert_int_equal(json_integer_value(json_object_get(other, "content_size")), 11);
    assert_string_equal(json_string_value(json_object_get(other, "content_sha256")), hello);
    json_decref(other);
}

/* An md5 taken only where it can match the published one: an md5 published and the file of its
   size or of no published size; none for another size, a sha256 or nothing published. */
static void test_md5_where_it_can_match(void **state)
{
    (void)state;
    const char *paths[] = {abc_path, abc_path, abc_path, abc_path, abc_path};
    const char *md5 = "900150983cd24fb0d6963f7d28e17f72";
    const char *sha256 = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    const struct provenance_publication published[] = {
        {.checksum = md5, .size = 3}, {.checksum = md5}, {.checksum = md5, .size = 4},
        {.checksum = sha256, .size = 3}, {.checksum = NULL}};
    const bool expected[] = {true, true, false, false, false};
    char *argv[] = {"fuel-convert", NULL};
    struct provenance *provenance;
    assert_int_equal(provenance_begin_supplied(&provenance, 1, argv, paths, NULL, 5, true, NULL,
                                               published), EXIT_OK);
    char *text = provenance_finish(provenance);
    assert_non_null(text);
    json_t *root = json_loads(text, 0, NULL);
    json_t *inputs = json_object_get(root, "inputs");
    for (size_t index = 0; index < 5; index++) {
        json_t *input = json_array_get(inputs, index);
        assert_input(input, 3, sha256, expected[index] ? md5 : NULL);
        assert_true((json_object_get(input, "md5") != NULL) == expected[index]);
    }
    json_decref(root);
    free(text);
}

static void test_discard(void **state)
{
    (void)state;
    const char *paths[] = {abc_path, empty_path};
    char *argv[] = {"fuel-convert", NULL};
    struct provenance *provenance;
    assert_int_equal(provenance_begin(&provenance, 1, argv, paths, 2, true), EXIT_OK);
    provenance_discard(provenance);
    provenance_discard(NULL);
}

static void test_created_now_without_epoch(void **state)
{
    (void)state;
    char created[32], expected[32];
    unsetenv("SOURCE_DATE_EPOCH");
    time_t before = time(NULL);
    provenance_created(created, sizeof created);
    time_t after = time(NULL);
    struct tm calendar;
    bool matched = false;
    for (time_t second = before; second <= after; second++) {
        gmtime_r(&second, &calendar);
        strftime(expected, sizeof expected, "%Y-%m-%dT%H:%M:%SZ", &calendar);
        matched = matched || strcmp(created, expected) == 0;
    }
    assert_true(matched);
    setenv("SOURCE_DATE_EPOCH", "12ab", 1);
    provenance_created(created, sizeof created);
    assert_int_not_equal(strcmp(created, "1970-01-01T00:00:12Z"), 0);
    assert_int_equal(strlen(created), 20);
}

/* Writes an H5PYDataset file of one empty source at PATH with PROVENANCE (NULL: none). */
static void write_file(const char *path, const char *provenance)
{
    struct h5py_writer *writer;
    struct h5py_source_declaration source = {
        .name = "features", .type = ELEMENT_UINT8, .rank = 1, .shape = {0},
        .axis_labels = {"batch"}};
    struct h5py_attributes attributes = {
        .command = "fuel-convert toy", .version = "0.1.0", .provenance_json = provenance};
    int index;
    assert_int_equal(h5py_writer_create(&writer, path), EXIT_OK);
    assert_int_equal(h5py_writer_add_source(writer, &source, &index), EXIT_OK);
    assert_int_equal(h5py_writer_add_split(writer, "all", NULL, 0, 0), EXIT_OK);
    assert_int_equal(h5py_writer_finish(writer, &attributes), EXIT_OK);
}

static void test_created_read_back(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/toy.hdf5", test_directory);
    write_file(path, "{\"tool\": \"fuel-convert\", \"created\": \"2023-11-14T22:13:20Z\"}");
    char *created = provenance_file_created(path);
    assert_non_null(created);
    assert_string_equal(created, "2023-11-14T22:13:20Z");
    free(created);
    write_file(path, NULL);
    assert_null(provenance_file_created(path));
    write_file(path, "{\"created\": 1700000000}");
    assert_null(provenance_file_created(path));
    assert_null(provenance_file_created(abc_path));
    assert_null(provenance_file_created("/nonexistent/toy.hdf5"));
    assert_int_equal(error_code(), EXIT_OK);
}

/* fuel_convert_command: the basename of argv[0], then every argument as typed. */
static void test_typed_command_text(void **state)
{
    (void)state;
    char *argv[] = {"/usr/local/bin/fuel", "fetch", "fashion_mnist", "--dtype=float32", "-q"};
    struct typed_command typed = {5, argv};
    char *text = typed_command_text(&typed);
    assert_string_equal(text, "fuel fetch fashion_mnist --dtype=float32 -q");
    free(text);
    assert_string_equal(argv[0], "/usr/local/bin/fuel");
    assert_string_equal(argv[3], "--dtype=float32");
    struct typed_command alone = {1, argv};
    text = typed_command_text(&alone);
    assert_string_equal(text, "fuel");
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_typed_command_text),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_fixture_origin),
        cmocka_unit_test(test_no_inputs),
        cmocka_unit_test(test_missing_input),
        cmocka_unit_test(test_no_md5_but_for_raw_files),
        cmocka_unit_test(test_supplied),
        cmocka_unit_test(test_read_through_inputs),
        cmocka_unit_test(test_md5_implied_by_sha256),
        cmocka_unit_test(test_md5_where_it_can_match),
        cmocka_unit_test(test_known_repacked_copy),
        cmocka_unit_test(test_discard),
        cmocka_unit_test(test_created_now_without_epoch),
        cmocka_unit_test(test_created_read_back),
    };
    return cmocka_run_group_tests(tests, make_inputs, test_directory_teardown);
}
