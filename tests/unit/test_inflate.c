/* Unit tests of common/formats/gzip/inflate.c: gzip members, trailers, zeros, garbage, zlib streams,
   in whatever pieces the input and output come, with the backend the build chose. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/formats/gzip/inflate.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum { DATA_SIZE = 300000, PACKED_CAPACITY = 700000 };

static unsigned char data[DATA_SIZE], second[DATA_SIZE / 3];
static unsigned char packed[PACKED_CAPACITY], result[2 * DATA_SIZE];

/* Text-like bytes that deflate compresses into Huffman blocks with matches. */
static void make_data(unsigned char *bytes, size_t size, unsigned seed)
{
    for (size_t index = 0; index < size; index++) {
        seed = seed * 1103515245u + 12345u;
        bytes[index] = (unsigned char)("abcdefgh  \n"[(seed >> 16) % 11] + (index / 4096) % 3);
    }
}

/* Compresses BYTES as gzip (GZIP) or zlib at PACKED + OFFSET; returns the end offset. */
static size_t compress_at(bool gzip, const unsigned char *bytes, size_t size, size_t offset)
{
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    assert_int_equal(deflateInit2(&stream, 6, Z_DEFLATED, gzip ? 31 : 15, 8, Z_DEFAULT_STRATEGY),
                     Z_OK);
    stream.next_in = (Bytef *)bytes;
    stream.avail_in = (uInt)size;
    stream.next_out = packed + offset;
    stream.avail_out = (uInt)(PACKED_CAPACITY - offset);
    assert_int_equal(deflate(&stream, Z_FINISH), Z_STREAM_END);
    size_t end = offset + stream.total_out;
    deflateEnd(&stream);
    return end;
}

static size_t append(size_t offset, const void *bytes, size_t size)
{
    memcpy(packed + offset, bytes, size);
    return offset + size;
}

/* Inflates PACKED[0, SIZE) fed FEED bytes at a time, pulled PULL bytes at a time, into result;
   returns the last status and sets *PRODUCED. */
static enum inflate_status inflate_pieces(enum inflate_format format, size_t size, size_t feed,
                                          size_t pull, size_t *produced)
{
    struct inflater *inflater;
    assert_int_equal(inflater_create(&inflater, format), EXIT_OK);
    size_t fed = 0, total = 0;
    enum inflate_status status = INFLATE_NEED_INPUT;
    for (;;) {
        if (status == INFLATE_NEED_INPUT) {
            size_t part = size - fed < feed ? size - fed : feed;
            inflater_feed(inflater, packed + fed, part);
            fed += part;
            if (fed == size)
                inflater_end_input(inflater);
        }
        size_t room = sizeof result - total < pull ? sizeof result - total : pull;
        size_t count;
        status = inflater_pull(inflater, result + total, room, &count);
        total += count;
        if (status == INFLATE_END || status == INFLATE_CORRUPT || total == sizeof result)
            break;
    }
    if (status == INFLATE_CORRUPT)
        error_set(EXIT_CORRUPT_INPUT, "%s", inflater_reason(inflater));
    inflater_free(inflater);
    *produced = total;
    return status;
}

static void check_one_member(size_t feed, size_t pull)
{
    size_t size = compress_at(true, data, DATA_SIZE, 0), produced;
    assert_int_equal(inflate_pieces(INFLATE_GZIP, size, feed, pull, &produced), INFLATE_END);
    assert_int_equal(produced, DATA_SIZE);
    assert_memory_equal(result, data, DATA_SIZE);
}

static void gzip_member_in_any_pieces(void **state)
{
    (void)state;
    check_one_member(SIZE_MAX, SIZE_MAX);
    check_one_member(65536, 4096);
    check_one_member(1, 65536);
    check_one_member(65536, 1);
    check_one_member(7, 13);
}

static void concatenated_members_are_all_inflated(void **state)
{
    (void)state;
    size_t end = compress_at(true, data, DATA_SIZE, 0);
    size_t first_end = end;
    end = compress_at(true, second, sizeof second, end);
    end = compress_at(true, data, 10, end);
    /* Fed so that one piece ends right after 1f, the first byte of the second member. */
    size_t feeds[] = {SIZE_MAX, 1, 3, first_end + 1};
    for (size_t index = 0; index < sizeof feeds / sizeof feeds[0]; index++) {
        size_t produced;
        size_t feed = feeds[index] == first_end + 1 ? first_end + 1 : feeds[index];
        if (feeds[index] == first_end + 1) {
            struct inflater *inflater;
            assert_int_equal(inflater_create(&inflater, INFLATE_GZIP), EXIT_OK);
            inflater_feed(inflater, packed, feed);
            assert_int_equal(inflater_pull(inflater, result, sizeof result, &produced),
                             INFLATE_NEED_INPUT);
            assert_int_equal(produced, DATA_SIZE);
            /* The 1f was taken: the inflater reads a member's header itself. */
            assert_int_equal(inflater_unused(inflater), 0);
            size_t more;
            inflater_feed(inflater, packed + feed, end - feed);
            inflater_end_input(inflater);
            assert_int_equal(inflater_pull(inflater, result + produced, sizeof result - produced,
                                           &more), INFLATE_END);
            produced += more;
            inflater_free(inflater);
        } else {
            assert_int_equal(inflate_pieces(INFLATE_GZIP, end, feed, 100000, &produced),
                             INFLATE_END);
        }
        assert_int_equal(produced, DATA_SIZE + sizeof second + 10);
        assert_memory_equal(result, data, DATA_SIZE);
        assert_memory_equal(result + DATA_SIZE, second, sizeof second);
        assert_memory_equal(result + DATA_SIZE + sizeof second, data, 10);
    }
}

static void trailing_zeros_are_ignored(void **state)
{
    (void)state;
    static const unsigned char zeros[700];
    size_t end = append(compress_at(true, data, 1000, 0), zeros, sizeof zeros), produced;
    assert_int_equal(inflate_pieces(INFLATE_GZIP, end, 64, 4096, &produced), INFLATE_END);
    assert_int_equal(produced, 1000);
    assert_memory_equal(result, data, 1000);
}

/* Inflates PACKED[0, SIZE) whole and pieces by pieces, expecting INFLATE_CORRUPT with REASON. */
static void check_corrupt(enum inflate_format format, size_t size, const char *reason)
{
    size_t pieces[] = {SIZE_MAX, 1, 5000}, produced;
    for (size_t index = 0; index < sizeof pieces / sizeof pieces[0]; index++) {
        error_clear();
        assert_int_equal(inflate_pieces(format, size, pieces[index], 3000, &produced),
                         INFLATE_CORRUPT);
        assert_string_equal(error_message(), reason);
    }
}

static void trailing_garbage_is_refused(void **state)
{
    (void)state;
    size_t member = compress_at(true, data, 1000, 0);
    check_corrupt(INFLATE_GZIP, append(member, "garbage", 7), "trailing garbage after the gzip data");
    check_corrupt(INFLATE_GZIP, append(member, "\0\0abc", 5), "trailing garbage after the gzip data");
    check_corrupt(INFLATE_GZIP, append(member, "\x1fx", 2), "trailing garbage after the gzip data");
    /* A member after garbage is not looked at. */
    size_t end = compress_at(true, data, 50, append(member, "xy", 2));
    check_corrupt(INFLATE_GZIP, end, "trailing garbage after the gzip data");
}

static void a_started_member_must_be_whole(void **state)
{
    (void)state;
    size_t member = compress_at(true, data, 1000, 0);
    check_corrupt(INFLATE_GZIP, append(member, "\x1f", 1), "unexpected end of file");
    check_corrupt(INFLATE_GZIP, append(member, "\x1f\x8b", 2), "unexpected end of file");
    size_t end = append(member, "\x1f\x8b\x08\0\0\0\0\0\0\x03garbagegarbage", 24);
    check_corrupt(INFLATE_GZIP, end, "invalid compressed data--format violated");
}

static void truncation_is_unexpected_end_of_file(void **state)
{
    (void)state;
    size_t size = compress_at(true, data, DATA_SIZE, 0);
    check_corrupt(INFLATE_GZIP, size / 2, "unexpected end of file");
    check_corrupt(INFLATE_GZIP, size - 3, "unexpected end of file");
    check_corrupt(INFLATE_GZIP, 5, "unexpected end of file");
    check_corrupt(INFLATE_GZIP, 0, "unexpected end of file");
    /* Before the end of the input is known, a cut stream only asks for more. */
    struct inflater *inflater;
    size_t produced;
    assert_int_equal(inflater_create(&inflater, INFLATE_GZIP), EXIT_OK);
    inflater_feed(inflater, packed, size / 2);
    assert_int_equal(inflater_pull(inflater, result, sizeof result, &produced), INFLATE_NEED_INPUT);
    assert_true(produced > 0);
    assert_memory_equal(result, data, produced);
    inflater_end_input(inflater);
    assert_int_equal(inflater_pull(inflater, result, sizeof result, &produced), INFLATE_CORRUPT);
    assert_string_equal(inflater_reason(inflater), "unexpected end of file");
    inflater_free(inflater);
}

static void wrong_crc_and_wrong_length_are_told_apart(void **state)
{
    (void)state;
    size_t size = compress_at(true, data, DATA_SIZE, 0);
    packed[size - 8] ^= 1;
    check_corrupt(INFLATE_GZIP, size, "invalid compressed data--crc error");
    packed[size - 8] ^= 1;
    packed[size - 4] ^= 1;
    check_corrupt(INFLATE_GZIP, size, "invalid compressed data--length error");
    packed[size - 4] ^= 1;
    size_t produced;
    assert_int_equal(inflate_pieces(INFLATE_GZIP, size, SIZE_MAX, SIZE_MAX, &produced), INFLATE_END);
}

static void corrupt_data_and_wrong_wrappers(void **state)
{
    (void)state;
    size_t size = compress_at(true, data, DATA_SIZE, 0);
    packed[10] |= 0x06; /* the first block's type: 11, reserved */
    check_corrupt(INFLATE_GZIP, size, "invalid compressed data--format violated");
    memcpy(packed, "plain text, not gzip at all", 27);
    check_corrupt(INFLATE_GZIP, 27, "not in gzip format");
    size = compress_at(true, data, 1000, 0);
    check_corrupt(INFLATE_ZLIB, size, "not a zlib stream");
}

/* Found by fuzzing: ISA-L 2.30 reports this member's invalid symbol with avail_in at -1. */
static void a_corrupt_member_after_a_valid_start(void **state)
{
    (void)state;
    static const unsigned char member[] = {0x1f, 0x8b, 8, 0, 1, 0, 0, 0, 0, 0, 2, 0xff, 0x63,
                                           0x60, 0x08, 0xe0, 0x60, 0x60, 0xe2, 0x60, 0x01, 0x28,
                                           0x00, 0x08, 0, 0};
    size_t size = append(0, member, sizeof member), produced;
    for (size_t feed = 1; feed <= sizeof member; feed++)
        assert_int_equal(inflate_pieces(INFLATE_GZIP, size, feed, 7, &produced), INFLATE_CORRUPT);
}

/* Writes at PACKED + OFFSET a gzip member of BYTES whose header has FLAGS and, for each flag set,
   an extra field, a name, a comment and a header CRC (CRC_FLIP xored into it); returns its end. */
static size_t member_with_header(unsigned flags, unsigned crc_flip, const unsigned char *bytes,
                                 size_t size, size_t offset)
{
    size_t start = offset;
    const unsigned char fixed[10] = {0x1f, 0x8b, 8, (unsigned char)flags, 1, 2, 3, 4, 0, 3};
    offset = append(offset, fixed, sizeof fixed);
    if (flags & 0x04)
        offset = append(offset, "\x06\0AB\x02\0xy", 8);
    if (flags & 0x08)
        offset = append(offset, "a-name.idx", 11);
    if (flags & 0x10)
        offset = append(offset, "a comment", 10);
    if (flags & 0x02) {
        unsigned crc = ((unsigned)crc32(0, packed + start, (uInt)(offset - start)) & 0xffff) ^
                       crc_flip;
        const unsigned char header_crc[2] = {(unsigned char)crc, (unsigned char)(crc >> 8)};
        offset = append(offset, header_crc, 2);
    }
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    assert_int_equal(deflateInit2(&stream, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
    stream.next_in = (Bytef *)bytes;
    stream.avail_in = (uInt)size;
    stream.next_out = packed + offset;
    stream.avail_out = (uInt)(PACKED_CAPACITY - offset);
    assert_int_equal(deflate(&stream, Z_FINISH), Z_STREAM_END);
    offset += stream.total_out;
    deflateEnd(&stream);
    uLong crc = crc32(0, bytes, (uInt)size);
    const unsigned char trailer[8] = {
        (unsigned char)crc, (unsigned char)(crc >> 8), (unsigned char)(crc >> 16),
        (unsigned char)(crc >> 24), (unsigned char)size, (unsigned char)(size >> 8),
        (unsigned char)(size >> 16), (unsigned char)(size >> 24)};
    return append(offset, trailer, sizeof trailer);
}

/* Every optional field of the header, in pieces of every size up to past the header's end (ISA-L
   2.30 read a header split between calls with an uninitialised flags byte). */
static void optional_header_fields_in_any_pieces(void **state)
{
    (void)state;
    unsigned flag_sets[] = {0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1e, 0x1f};
    for (size_t set = 0; set < sizeof flag_sets / sizeof flag_sets[0]; set++) {
        size_t size = member_with_header(flag_sets[set], 0, data, 5000, 0), produced;
        for (size_t feed = 1; feed <= 50; feed++) {
            assert_int_equal(inflate_pieces(INFLATE_GZIP, size, feed, 777, &produced),
                             INFLATE_END);
            assert_int_equal(produced, 5000);
            assert_memory_equal(result, data, 5000);
        }
    }
    /* A second member with every field, after a plain one. */
    size_t end = member_with_header(0x1e, 0, second, 3000, compress_at(true, data, 1000, 0));
    size_t produced;
    assert_int_equal(inflate_pieces(INFLATE_GZIP, end, 1, 64, &produced), INFLATE_END);
    assert_int_equal(produced, 4000);
    assert_memory_equal(result + 1000, second, 3000);
}

/* RFC 1952: reserved flag bits must be zero; gzip 1.12 refuses them. Found by fuzzing: ISA-L took
   such a header whole as corrupt and, fed a byte at a time, as an empty stream. */
static void reserved_header_flags_are_refused_however_fed(void **state)
{
    (void)state;
    static const unsigned reserved[] = {0x20, 0x40, 0x80, 0xe0};
    static const char *const reasons[] = {
        "reserved flags 0x20 set in the gzip header -- not supported",
        "reserved flags 0x40 set in the gzip header -- not supported",
        "reserved flags 0x80 set in the gzip header -- not supported",
        "reserved flags 0xe0 set in the gzip header -- not supported",
    };
    for (size_t index = 0; index < sizeof reserved / sizeof reserved[0]; index++) {
        check_corrupt(INFLATE_GZIP, member_with_header(reserved[index], 0, data, 1000, 0),
                      reasons[index]);
        check_corrupt(INFLATE_GZIP, member_with_header(reserved[index] | 0x1e, 0, data, 1000, 0),
                      reasons[index]);
        /* In a later member too. */
        size_t member = compress_at(true, data, 1000, 0);
        check_corrupt(INFLATE_GZIP, member_with_header(reserved[index], 0, data, 10, member),
                      reasons[index]);
    }
    /* The fuzzer's input: reserved flags, a name and nothing after the header's fixed part. */
    size_t size = append(0, "\x1f\x8b\x08\xe8\0\0\0\0\0\0", 10);
    check_corrupt(INFLATE_GZIP, size, "reserved flags 0xe0 set in the gzip header -- not supported");
}

static void a_wrong_header_crc_is_refused(void **state)
{
    (void)state;
    size_t size = member_with_header(0x0a, 0x0101, data, 1000, 0);
    unsigned computed = (unsigned)crc32(0, packed, 21) & 0xffff;
    char reason[80];
    snprintf(reason, sizeof reason, "header checksum 0x%04x != computed checksum 0x%04x",
             computed ^ 0x0101, computed);
    check_corrupt(INFLATE_GZIP, size, reason);
    check_corrupt(INFLATE_GZIP, 15, "unexpected end of file");
}

static void zlib_stream_leaves_what_follows(void **state)
{
    (void)state;
    size_t size = compress_at(false, data, DATA_SIZE, 0), produced;
    size_t end = append(size, "padding", 7);
    assert_int_equal(inflate_pieces(INFLATE_ZLIB, end, 4096, 5000, &produced), INFLATE_END);
    assert_int_equal(produced, DATA_SIZE);
    assert_memory_equal(result, data, DATA_SIZE);
    struct inflater *inflater;
    assert_int_equal(inflater_create(&inflater, INFLATE_ZLIB), EXIT_OK);
    inflater_feed(inflater, packed, end);
    assert_int_equal(inflater_pull(inflater, result, sizeof result, &produced), INFLATE_END);
    /* ISA-L may read up to 8 bytes past a zlib stream's end; zlib stops at it. */
    assert_true(inflater_unused(inflater) <= 7);
#ifdef FUEL_INFLATE_ZLIB
    assert_int_equal(inflater_unused(inflater), 7);
#endif
    assert_int_equal(inflater_pull(inflater, result, sizeof result, &produced), INFLATE_END);
    assert_int_equal(produced, 0);
    /* Reset: the next stream, here the same one again. */
    inflater_reset(inflater);
    inflater_feed(inflater, packed, size);
    inflater_end_input(inflater);
    assert_int_equal(inflater_pull(inflater, result, sizeof result, &produced), INFLATE_END);
    assert_int_equal(produced, DATA_SIZE);
    assert_memory_equal(result, data, DATA_SIZE);
    inflater_free(inflater);
}

static void zlib_checksum_and_truncation(void **state)
{
    (void)state;
    size_t size = compress_at(false, data, DATA_SIZE, 0);
    packed[size - 1] ^= 1;
    check_corrupt(INFLATE_ZLIB, size, "invalid compressed data--adler32 error");
    packed[size - 1] ^= 1;
    check_corrupt(INFLATE_ZLIB, size - 2, "unexpected end of file");
}

static void output_full_and_exact_sizes(void **state)
{
    (void)state;
    size_t size = compress_at(true, data, DATA_SIZE, 0), produced;
    struct inflater *inflater;
    assert_int_equal(inflater_create(&inflater, INFLATE_GZIP), EXIT_OK);
    inflater_feed(inflater, packed, size);
    inflater_end_input(inflater);
    assert_int_equal(inflater_pull(inflater, result, DATA_SIZE - 1, &produced),
                     INFLATE_OUTPUT_FULL);
    assert_int_equal(produced, DATA_SIZE - 1);
    enum inflate_status status = inflater_pull(inflater, result + produced, 1, &produced);
    assert_int_equal(produced, 1);
    assert_memory_equal(result, data, DATA_SIZE);
    if (status != INFLATE_END)
        assert_int_equal(inflater_pull(inflater, result, 1, &produced), INFLATE_END);
    assert_int_equal(inflater_pull(inflater, result, 1, &produced), INFLATE_END);
    assert_int_equal(produced, 0);
    inflater_free(inflater);
}

/* As the MAT-file reader does at each element: a pull before anything is fed asks for input. */
static void pulling_before_any_input(void **state)
{
    (void)state;
    struct inflater *inflater;
    size_t produced = 1;
    assert_int_equal(inflater_create(&inflater, INFLATE_ZLIB), EXIT_OK);
    assert_int_equal(inflater_pull(inflater, result, 100, &produced), INFLATE_NEED_INPUT);
    assert_int_equal(produced, 0);
    inflater_reset(inflater);
    assert_int_equal(inflater_pull(inflater, result, 100, &produced), INFLATE_NEED_INPUT);
    inflater_end_input(inflater);
    assert_int_equal(inflater_pull(inflater, result, 100, &produced), INFLATE_CORRUPT);
    assert_string_equal(inflater_reason(inflater), "unexpected end of file");
    inflater_free(inflater);
}

static void names_its_library(void **state)
{
    (void)state;
#ifdef FUEL_INFLATE_ZLIB
    assert_memory_equal(inflate_library(), "zlib ", 5);
#else
    assert_memory_equal(inflate_library(), "ISA-L ", 6);
#endif
}

int main(void)
{
    make_data(data, sizeof data, 1);
    make_data(second, sizeof second, 2);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gzip_member_in_any_pieces),
        cmocka_unit_test(concatenated_members_are_all_inflated),
        cmocka_unit_test(trailing_zeros_are_ignored),
        cmocka_unit_test(trailing_garbage_is_refused),
        cmocka_unit_test(a_started_member_must_be_whole),
        cmocka_unit_test(truncation_is_unexpected_end_of_file),
        cmocka_unit_test(wrong_crc_and_wrong_length_are_told_apart),
        cmocka_unit_test(corrupt_data_and_wrong_wrappers),
        cmocka_unit_test(a_corrupt_member_after_a_valid_start),
        cmocka_unit_test(optional_header_fields_in_any_pieces),
        cmocka_unit_test(reserved_header_flags_are_refused_however_fed),
        cmocka_unit_test(a_wrong_header_crc_is_refused),
        cmocka_unit_test(zlib_stream_leaves_what_follows),
        cmocka_unit_test(zlib_checksum_and_truncation),
        cmocka_unit_test(output_full_and_exact_sizes),
        cmocka_unit_test(pulling_before_any_input),
        cmocka_unit_test(names_its_library),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
