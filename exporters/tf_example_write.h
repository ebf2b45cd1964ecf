/* tf.train.Example protobuf messages encoded by hand: features of bytes, floats or int64s. */
#ifndef FUEL_TF_EXAMPLE_WRITE_H
#define FUEL_TF_EXAMPLE_WRITE_H

#include <stddef.h>
#include <stdint.h>

/* Protobuf refuses messages of 2 GiB and more. */
#define TF_EXAMPLE_MAXIMUM_SIZE ((size_t)INT32_MAX)

struct tf_example;

/* An encoder without features. EXIT_OTHER when memory runs out. */
int tf_example_create(struct tf_example **example);

/* Drops the features, keeping the memory for the next example. */
void tf_example_clear(struct tf_example *example);

/* Adds the feature KEY (UTF-8): a BytesList of COUNT values, VALUES[i] of SIZES[i] bytes; a
   FloatList or an Int64List of COUNT values. The values are copied. EXIT_OTHER (nothing added)
   when KEY is not UTF-8, when the example would reach TF_EXAMPLE_MAXIMUM_SIZE (checked before
   any value is read) or when memory runs out. */
int tf_example_add_bytes(struct tf_example *example, const char *key, const void *const *values,
                         const size_t *sizes, size_t count);
int tf_example_add_floats(struct tf_example *example, const char *key, const float *values,
                          size_t count);
int tf_example_add_int64s(struct tf_example *example, const char *key, const int64_t *values,
                          size_t count);

/* The wire bytes of Example { features { feature: map<KEY, Feature> } }, the map's entries in
   the byte order of their keys (the same features give the same bytes, whatever order they were
   added in), lists packed. *BYTES is valid until the encoder is next used. EXIT_OTHER when a key
   was added twice or memory runs out. */
int tf_example_encode(struct tf_example *example, const unsigned char **bytes, size_t *size);

/* The same written into OUTPUT, which has room for tf_example_size's *SIZE bytes: so that the
   caller can frame it in place (tfrecord_encode at OUTPUT - TFRECORD_HEADER_SIZE). */
int tf_example_size(struct tf_example *example, size_t *size);
void tf_example_write(struct tf_example *example, unsigned char *output);

void tf_example_free(struct tf_example *example);

#endif
