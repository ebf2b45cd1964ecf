/* Helpers shared by the unit tests: a temporary directory per test group, paths in it, whole files. */
#ifndef FUEL_TESTS_UNIT_SUPPORT_H
#define FUEL_TESTS_UNIT_SUPPORT_H

#include <stddef.h>

/* The temporary directory of a test group, /tmp/fuel-PROGRAM-XXXXXX, once test_directory_setup made it. */
extern char test_directory[];

/* Group setup and teardown for cmocka_run_group_tests: make test_directory, remove it and its content. */
int test_directory_setup(void **state);
int test_directory_teardown(void **state);

/* Makes the directory named by TEMPLATE (ending in XXXXXX, replaced in place); 0, or -1 on failure. */
int test_directory_create(char *template);

/* Removes DIRECTORY and everything below it; 0, or -1 on failure. */
int test_directory_remove(const char *directory);

/* Writes DIRECTORY/NAME into PATH of SIZE bytes; fails the test when it does not fit. */
void test_path(char *path, size_t size, const char *directory, const char *name);

/* test_directory/VARIANT.hdf5 into PATH of SIZE bytes. */
void test_variant_path(char *path, size_t size, const char *variant);

/* Group setup: test_directory, then each of the COUNT VARIANTS written there by
   tests/helpers/content_files.py as VARIANT.hdf5; 0, or -1 on failure. */
int test_content_files_make(void **state, const char *const *variants, size_t count);

/* A temporary file, /tmp/fuel-PROGRAM-XXXXXX, once test_file_make or test_file_setup made it. */
extern char test_file[];

/* Makes test_file anew holding TEXT; fails the test when it cannot. */
void test_file_make(const char *text);

/* Removes test_file. */
void test_file_remove(void);

/* Setup and teardown for cmocka: make test_file empty, remove it. */
int test_file_setup(void **state);
int test_file_teardown(void **state);

/* Writes TEXT as the whole content of PATH; fails the test when it cannot. */
void test_file_write(const char *path, const char *text);

/* Reads at most SIZE - 1 bytes of PATH into TEXT, terminated; returns how many bytes were read. */
size_t test_file_read(const char *path, char *text, size_t size);

struct h5py_file;

/* The reference files' directory: FUEL_FIXTURES, else the repository's tests/data (an absolute
   path the Makefile compiles in). */
const char *test_data_directory(void);

/* Opens NAME of the reference files' expected/ folder with h5py_reader_open; fails the test when
   it cannot. */
struct h5py_file *test_open_expected(const char *name);

#endif
