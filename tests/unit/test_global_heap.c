/* Unit tests for common/h5py/global_heap.c: heap IDs decoded, objects found in a collection of
   several (padding, an empty object), and every malformed collection refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/h5py/global_heap.h"
#include "support.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A collection at offset 64 of a scratch file: objects 1 (5 bytes), 3 (0 bytes), 2 (16 bytes),
   then the free space (index 0). */
enum { COLLECTION = 64 };

static unsigned char image[512];
static size_t image_size;
static char path[256];

static void put(unsigned char *at, uint64_t value, int count)
{
    for (int index = 0; index < count; index++)
        at[index] = (unsigned char)(value >> (8 * index));
}

static size_t object_put(size_t position, uint16_t index, const char *data, uint64_t size)
{
    put(image + position, index, 2);
    put(image + position + 2, 1, 2);
    put(image + position + 8, size, 8);
    memcpy(image + position + 16, data, size);
    return position + 16 + ((size + 7) & ~(uint64_t)7);
}

static void collection_make(void)
{
    memset(image, 0xee, sizeof image);
    memcpy(image + COLLECTION, "GCOL\x01\0\0\0", 8);
    size_t position = object_put(COLLECTION + 16, 1, "hello", 5);
    position = object_put(position, 3, "", 0);
    position = object_put(position, 2, "0123456789abcdef", 16);
    object_put(position, 0, "", 0);
    image_size = position + 16 + 24;
    put(image + COLLECTION + 8, image_size - COLLECTION, 8);
}

/* Writes the image to the scratch file and looks up object OBJECT of LENGTH bytes. */
static bool locate(uint32_t object, uint32_t length, uint64_t *offset)
{
    int descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    assert_true(descriptor >= 0);
    assert_int_equal(write(descriptor, image, image_size), (ssize_t)image_size);
    struct global_heap_id id = {length, COLLECTION, object};
    bool found = global_heap_locate(descriptor, image_size, &id, offset);
    close(descriptor);
    return found;
}

static int setup(void **state)
{
    if (test_directory_setup(state) != 0)
        return -1;
    test_path(path, sizeof path, test_directory, "heap");
    return 0;
}

static void test_id_decoded(void **state)
{
    (void)state;
    unsigned char bytes[GLOBAL_HEAP_ID_BYTES];
    put(bytes, 87493, 4);
    put(bytes + 4, 0x0102030405060708u, 8);
    put(bytes + 12, 7, 4);
    struct global_heap_id id;
    global_heap_id_decode(bytes, &id);
    assert_int_equal(id.length, 87493);
    assert_int_equal(id.collection, 0x0102030405060708u);
    assert_int_equal(id.object, 7);
}

static void test_objects_found(void **state)
{
    (void)state;
    collection_make();
    uint64_t offset = 0;
    assert_true(locate(1, 5, &offset));
    assert_memory_equal(image + offset, "hello", 5);
    assert_true(locate(2, 16, &offset));
    assert_memory_equal(image + offset, "0123456789abcdef", 16);
    assert_true(locate(3, 0, &offset));
    assert_int_equal(offset, COLLECTION + 16 + 16 + 8 + 16);
}

static void test_malformed_refused(void **state)
{
    (void)state;
    uint64_t offset;
    collection_make();
    assert_false(locate(1, 6, &offset)); /* another length than the ID's */
    assert_false(locate(4, 0, &offset)); /* no such object: the walk ends at the free space */
    assert_false(locate(0, 0, &offset)); /* index 0 is the free space */
    image[COLLECTION] = 'X';
    assert_false(locate(1, 5, &offset));
    collection_make();
    image[COLLECTION + 4] = 2; /* another version */
    assert_false(locate(1, 5, &offset));
    collection_make();
    put(image + COLLECTION + 8, image_size, 8); /* past the end of the file */
    assert_false(locate(1, 5, &offset));
    collection_make();
    put(image + COLLECTION + 8, 16, 8); /* no room for an object */
    assert_false(locate(1, 5, &offset));
    collection_make();
    put(image + COLLECTION + 16 + 8, UINT64_MAX - 3, 8); /* an object larger than its room */
    assert_false(locate(2, 16, &offset));
    collection_make();
    put(image + COLLECTION + 16 + 8, 200, 8); /* object 1 claims the rest: object 2 unreachable */
    assert_false(locate(2, 16, &offset));
}

static void test_address_outside(void **state)
{
    (void)state;
    collection_make();
    int descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    assert_int_equal(write(descriptor, image, image_size), (ssize_t)image_size);
    uint64_t offset;
    struct global_heap_id beyond = {5, image_size - 8, 1}, huge = {5, UINT64_MAX, 1};
    assert_false(global_heap_locate(descriptor, image_size, &beyond, &offset));
    assert_false(global_heap_locate(descriptor, image_size, &huge, &offset));
    /* A file shorter than it says: the reads fail, nothing is found. */
    struct global_heap_id id = {5, COLLECTION, 1};
    assert_false(global_heap_locate(descriptor, image_size + 4096, &(struct global_heap_id){
                                        16, COLLECTION + 4096, 2}, &offset));
    assert_true(global_heap_locate(descriptor, image_size, &id, &offset));
    close(descriptor);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_id_decoded),
        cmocka_unit_test(test_objects_found),
        cmocka_unit_test(test_malformed_refused),
        cmocka_unit_test(test_address_outside),
    };
    return cmocka_run_group_tests(tests, setup, test_directory_teardown);
}
