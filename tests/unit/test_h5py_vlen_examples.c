/* Unit tests of reading variable-length sources: SVHN format 1 as Fuel wrote it (shapes, elements,
   element types), and the refusals (fixed sources, missing sources, examples past the end). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/h5py/h5py_vlen_examples.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Values h5py reads from svhn_format_1.hdf5: features_shapes[3], features[3][:5], bbox_lefts[3]. */
static void test_images_of_svhn_format_1(void **state)
{
    (void)state;
    struct h5py_file *file = test_open_expected("svhn_format_1.hdf5");
    struct h5py_vlen_examples examples;
    assert_int_equal(h5py_vlen_examples_open(&examples, file, "features"), EXIT_OK);
    assert_int_equal(examples.count, 22);
    assert_int_equal(examples.example_rank, 3);
    assert_int_equal(examples.element_size, 1);
    assert_false(examples.is_float);
    uint64_t shape[H5PY_VLEN_MAX_RANK];
    assert_int_equal(h5py_vlen_examples_shape(&examples, 3, shape), EXIT_OK);
    assert_int_equal(shape[0], 3);
    assert_int_equal(shape[1], 54);
    assert_int_equal(shape[2], 38);
    void *data = NULL;
    size_t count = 0;
    assert_int_equal(h5py_vlen_examples_read(&examples, 3, &data, &count), EXIT_OK);
    assert_int_equal(count, 3 * 54 * 38);
    const uint8_t first[5] = {136, 38, 54, 139, 9};
    assert_memory_equal(data, first, sizeof first);
    free(data);
    /* Read straight from the file, every example as HDF5 reads it. */
    assert_true(examples.direct.descriptor >= 0);
    struct h5py_vlen_examples through_hdf5 = examples;
    through_hdf5.direct.descriptor = -1;
    through_hdf5.direct.table = NULL;
    for (uint64_t index = 0; index < examples.count; index++) {
        void *direct = NULL, *read = NULL;
        size_t direct_count = 0, read_count = 0;
        assert_int_equal(h5py_vlen_examples_read(&examples, index, &direct, &direct_count),
                         EXIT_OK);
        assert_int_equal(h5py_vlen_examples_read(&through_hdf5, index, &read, &read_count),
                         EXIT_OK);
        assert_int_equal(direct_count, read_count);
        assert_memory_equal(direct, read, read_count);
        free(direct);
        free(read);
    }
    assert_int_equal(h5py_vlen_examples_read(&examples, 22, &data, &count), EXIT_CORRUPT_INPUT);
    assert_null(data);
    assert_int_equal(h5py_vlen_examples_shape(&examples, 22, shape), EXIT_CORRUPT_INPUT);
    h5py_vlen_examples_close(&examples);
    h5py_reader_close(file);
}

static void test_boxes_of_svhn_format_1(void **state)
{
    (void)state;
    struct h5py_file *file = test_open_expected("svhn_format_1.hdf5");
    struct h5py_vlen_examples examples;
    assert_int_equal(h5py_vlen_examples_open(&examples, file, "bbox_lefts"), EXIT_OK);
    assert_int_equal(examples.element_size, 2);
    assert_int_equal(examples.direct.descriptor, -1); /* two-byte elements: through HDF5 */
    void *data = NULL;
    size_t count = 0;
    assert_int_equal(h5py_vlen_examples_read(&examples, 3, &data, &count), EXIT_OK);
    assert_int_equal(count, 3);
    const uint16_t lefts[3] = {10, 11, 4};
    assert_memory_equal(data, lefts, sizeof lefts);
    free(data);
    h5py_vlen_examples_close(&examples);
    h5py_reader_close(file);
}

static void test_refusals(void **state)
{
    (void)state;
    struct h5py_file *file = test_open_expected("mnist.hdf5");
    struct h5py_vlen_examples examples;
    assert_int_equal(h5py_vlen_examples_open(&examples, file, "features"), EXIT_USAGE);
    assert_int_equal(h5py_vlen_examples_open(&examples, file, "labels"), EXIT_MISSING_INPUT);
    h5py_reader_close(file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_images_of_svhn_format_1),
        cmocka_unit_test(test_boxes_of_svhn_format_1),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
