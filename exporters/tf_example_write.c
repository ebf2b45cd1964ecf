/* tf.train.Example protobuf messages encoded by hand (the protobuf wire format; TensorFlow's
   feature.proto): Example { Features features = 1 }, Features { map<string, Feature> feature =
   1 }, Feature { oneof { BytesList bytes_list = 1; FloatList float_list = 2; Int64List
   int64_list = 3 } }, each list { repeated value = 1 }, floats and int64s packed. A map is
   written as repeated entry messages { key = 1; value = 2 }, sorted by key as protobuf's
   deterministic serialisation does. */
#include "tf_example_write.h"

#include "common/base/error.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Field keys: field number << 3 | wire type 2 (length-delimited). */
enum { FIELD_1 = 0x0a, FIELD_2 = 0x12, FIELD_3 = 0x1a };
enum { BYTES_LIST = FIELD_1, FLOAT_LIST = FIELD_2, INT64_LIST = FIELD_3 };

struct feature {
    size_t key, key_length;   /* in the staging bytes */
    size_t list, list_length; /* the list message's content, in the staging bytes */
    uint64_t entry_length;    /* of the map entry message */
    const unsigned char *key_bytes; /* set when encoding, once the staging bytes stay put */
    unsigned char kind;
};

struct tf_example {
    unsigned char *staging;
    size_t staging_size, staging_capacity;
    struct feature *features;
    size_t count, capacity;
    uint64_t features_length; /* of the Features message's content */
    unsigned char *output;
    size_t output_capacity;
};

static size_t varint_size(uint64_t value)
{
    size_t size = 1;
    for (; value >= 0x80; value >>= 7)
        size++;
    return size;
}

static unsigned char *put_varint(unsigned char *cursor, uint64_t value)
{
    for (; value >= 0x80; value >>= 7)
        *cursor++ = (unsigned char)(value | 0x80);
    *cursor++ = (unsigned char)value;
    return cursor;
}

/* A field holding a message or bytes of LENGTH: its key, its length, the bytes. */
static uint64_t field_size(uint64_t length)
{
    return 1 + varint_size(length) + length;
}

int tf_example_create(struct tf_example **example)
{
    *example = calloc(1, sizeof **example);
    if (*example == NULL)
        return error_set(EXIT_OTHER, "cannot encode tf.train.Example: out of memory");
    return EXIT_OK;
}

void tf_example_clear(struct tf_example *example)
{
    example->staging_size = 0;
    example->count = 0;
    example->features_length = 0;
}

void tf_example_free(struct tf_example *example)
{
    if (example == NULL)
        return;
    free(example->staging);
    free(example->features);
    free(example->output);
    free(example);
}

/* Whether the SIZE bytes of TEXT are well-formed UTF-8 (protobuf's parsers refuse other keys). */
static bool is_utf8(const unsigned char *text, size_t size)
{
    for (size_t index = 0; index < size;) {
        unsigned char lead = text[index];
        size_t length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2
                      : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
        if (length == 0 || size - index < length)
            return false;
        for (size_t next = 1; next < length; next++)
            if ((text[index + next] & 0xc0) != 0x80)
                return false;
        unsigned char second = length > 1 ? text[index + 1] : 0x80;
        if ((lead == 0xe0 && second < 0xa0) || (lead == 0xed && second > 0x9f) ||
            (lead == 0xf0 && second < 0x90) || (lead == 0xf4 && second > 0x8f))
            return false; /* overlong, a surrogate, or beyond U+10FFFF */
        index += length;
    }
    return true;
}

static int grow(void **block, size_t *capacity, size_t needed, size_t element)
{
    if (needed <= *capacity)
        return EXIT_OK;
    size_t wanted = *capacity > 0 ? *capacity : 16;
    while (wanted < needed)
        wanted = wanted <= SIZE_MAX / 2 / element ? wanted * 2 : needed;
    void *grown = realloc(*block, wanted * element);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "cannot encode tf.train.Example: out of memory");
    *block = grown;
    *capacity = wanted;
    return EXIT_OK;
}

/* Checks KEY and the size the example would have with a list of LIST_LENGTH bytes, makes room
   for both in the staging bytes and appends the feature with KEY copied; its list bytes follow
   at the feature's list offset, LIST_LENGTH of them, for the caller to write. */
static int begin_feature(struct tf_example *example, const char *key, unsigned char kind,
                         uint64_t list_length, struct feature **added)
{
    size_t key_length = strlen(key);
    if (!is_utf8((const unsigned char *)key, key_length))
        return error_set(EXIT_OTHER, "cannot encode tf.train.Example: feature %s: its key is "
                         "not UTF-8", key);
    uint64_t entry = field_size(key_length) + field_size(field_size(list_length));
    uint64_t features = example->features_length + field_size(entry);
    if (list_length > TF_EXAMPLE_MAXIMUM_SIZE || features > TF_EXAMPLE_MAXIMUM_SIZE ||
        field_size(features) > TF_EXAMPLE_MAXIMUM_SIZE)
        return error_set(EXIT_OTHER, "cannot encode tf.train.Example: feature %s: the example "
                         "would exceed %zu bytes, protobuf's limit", key, TF_EXAMPLE_MAXIMUM_SIZE);
    size_t staging = example->staging_size + key_length + (size_t)list_length;
    if (grow((void **)&example->staging, &example->staging_capacity, staging, 1) != EXIT_OK ||
        grow((void **)&example->features, &example->capacity, example->count + 1,
             sizeof *example->features) != EXIT_OK)
        return EXIT_OTHER;
    struct feature *feature = &example->features[example->count++];
    *feature = (struct feature){.key = example->staging_size, .key_length = key_length,
                                .list = example->staging_size + key_length,
                                .list_length = (size_t)list_length, .entry_length = entry,
                                .kind = kind};
    memcpy(example->staging + feature->key, key, key_length);
    example->staging_size = staging;
    example->features_length = features;
    *added = feature;
    return EXIT_OK;
}

int tf_example_add_bytes(struct tf_example *example, const char *key, const void *const *values,
                         const size_t *sizes, size_t count)
{
    uint64_t length = 0;
    for (size_t index = 0; index < count && length <= TF_EXAMPLE_MAXIMUM_SIZE; index++)
        length += sizes[index] > TF_EXAMPLE_MAXIMUM_SIZE ? (uint64_t)TF_EXAMPLE_MAXIMUM_SIZE + 1
                                                          : field_size(sizes[index]);
    struct feature *feature;
    int status = begin_feature(example, key, BYTES_LIST, length, &feature);
    if (status != EXIT_OK)
        return status;
    unsigned char *cursor = example->staging + feature->list;
    for (size_t index = 0; index < count; index++) {
        *cursor++ = FIELD_1;
        cursor = put_varint(cursor, sizes[index]);
        if (sizes[index] > 0)
            memcpy(cursor, values[index], sizes[index]);
        cursor += sizes[index];
    }
    return EXIT_OK;
}

int tf_example_add_floats(struct tf_example *example, const char *key, const float *values,
                          size_t count)
{
    uint64_t payload = count <= TF_EXAMPLE_MAXIMUM_SIZE / 4 ? 4 * (uint64_t)count
                                                            : (uint64_t)TF_EXAMPLE_MAXIMUM_SIZE + 1;
    struct feature *feature;
    int status = begin_feature(example, key, FLOAT_LIST, count > 0 ? field_size(payload) : 0,
                               &feature);
    if (status != EXIT_OK || count == 0)
        return status;
    unsigned char *cursor = example->staging + feature->list;
    *cursor++ = FIELD_1;
    cursor = put_varint(cursor, payload);
    for (size_t index = 0; index < count; index++) {
        uint32_t bits;
        memcpy(&bits, &values[index], sizeof bits);
        for (int byte = 0; byte < 4; byte++)
            *cursor++ = (unsigned char)(bits >> (8 * byte));
    }
    return EXIT_OK;
}

int tf_example_add_int64s(struct tf_example *example, const char *key, const int64_t *values,
                          size_t count)
{
    /* Negative values are 10-byte varints of their two's complement, as int64 fields are. */
    uint64_t payload = count <= TF_EXAMPLE_MAXIMUM_SIZE ? 0 : (uint64_t)TF_EXAMPLE_MAXIMUM_SIZE + 1;
    for (size_t index = 0; index < count && payload <= TF_EXAMPLE_MAXIMUM_SIZE; index++)
        payload += varint_size((uint64_t)values[index]);
    struct feature *feature;
    int status = begin_feature(example, key, INT64_LIST, count > 0 ? field_size(payload) : 0,
                               &feature);
    if (status != EXIT_OK || count == 0)
        return status;
    unsigned char *cursor = example->staging + feature->list;
    *cursor++ = FIELD_1;
    cursor = put_varint(cursor, payload);
    for (size_t index = 0; index < count; index++)
        cursor = put_varint(cursor, (uint64_t)values[index]);
    return EXIT_OK;
}

static int compare_keys(const void *left, const void *right)
{
    const struct feature *first = left, *second = right;
    size_t common = first->key_length < second->key_length ? first->key_length : second->key_length;
    int order = memcmp(first->key_bytes, second->key_bytes, common);
    if (order != 0)
        return order;
    return (first->key_length > second->key_length) - (first->key_length < second->key_length);
}

int tf_example_size(struct tf_example *example, size_t *size)
{
    for (size_t index = 0; index < example->count; index++)
        example->features[index].key_bytes = example->staging + example->features[index].key;
    if (example->count > 1)
        qsort(example->features, example->count, sizeof *example->features, compare_keys);
    for (size_t index = 1; index < example->count; index++)
        if (compare_keys(&example->features[index - 1], &example->features[index]) == 0) {
            const struct feature *twice = &example->features[index];
            return error_set(EXIT_OTHER, "cannot encode tf.train.Example: feature %.*s given "
                             "twice", (int)twice->key_length, (const char *)twice->key_bytes);
        }
    *size = (size_t)field_size(example->features_length);
    return EXIT_OK;
}

void tf_example_write(struct tf_example *example, unsigned char *output)
{
    unsigned char *cursor = output;
    *cursor++ = FIELD_1;
    cursor = put_varint(cursor, example->features_length);
    for (size_t index = 0; index < example->count; index++) {
        const struct feature *feature = &example->features[index];
        *cursor++ = FIELD_1;
        cursor = put_varint(cursor, feature->entry_length);
        *cursor++ = FIELD_1;
        cursor = put_varint(cursor, feature->key_length);
        memcpy(cursor, feature->key_bytes, feature->key_length);
        cursor += feature->key_length;
        *cursor++ = FIELD_2;
        cursor = put_varint(cursor, field_size(feature->list_length));
        *cursor++ = feature->kind;
        cursor = put_varint(cursor, feature->list_length);
        if (feature->list_length > 0)
            memcpy(cursor, example->staging + feature->list, feature->list_length);
        cursor += feature->list_length;
    }
}

int tf_example_encode(struct tf_example *example, const unsigned char **bytes, size_t *size)
{
    int status = tf_example_size(example, size);
    if (status == EXIT_OK)
        status = grow((void **)&example->output, &example->output_capacity, *size, 1);
    if (status != EXIT_OK)
        return status;
    tf_example_write(example, example->output);
    *bytes = example->output;
    return EXIT_OK;
}
