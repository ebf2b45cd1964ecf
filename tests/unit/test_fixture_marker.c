/* Unit tests for common/formats/fixture_marker.c: the mark found as a gzip comment (after an extra
   field and a name), in a MAT-file header and a text line; not found elsewhere or when cut. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/formats/fixture_marker.h"

#include <stdbool.h>
#include <string.h>

/* A gzip header with FLAGS, an extra field of 3 bytes and a name when flagged, then COMMENT. */
static size_t gzip_header(unsigned char *head, unsigned flags, const char *comment)
{
    const unsigned char start[10] = {0x1f, 0x8b, 8, (unsigned char)flags, 0, 0, 0, 0, 0, 3};
    memcpy(head, start, 10);
    size_t used = 10;
    if (flags & 4) {
        memcpy(head + used, "\3\0xyz", 5);
        used += 5;
    }
    if (flags & 8) {
        memcpy(head + used, "name\0", 5);
        used += 5;
    }
    if (flags & 16) {
        memcpy(head + used, comment, strlen(comment) + 1);
        used += strlen(comment) + 1;
    }
    memcpy(head + used, "\x4b\x4c\x02\0", 4);
    return used + 4;
}

static void gzip_comments(void **state)
{
    (void)state;
    unsigned char head[512];
    size_t length = gzip_header(head, 16, FIXTURE_MARKER);
    assert_true(fixture_marker_found(head, length, NULL, 0));
    length = gzip_header(head, 4 | 8 | 16, FIXTURE_MARKER);
    assert_true(fixture_marker_found(head, length, NULL, 0));
    assert_false(fixture_marker_found(head, length - 10, NULL, 0));
    length = gzip_header(head, 16, FIXTURE_MARKER " but longer");
    assert_false(fixture_marker_found(head, length, NULL, 0));
    length = gzip_header(head, 8, "");
    assert_false(fixture_marker_found(head, length, NULL, 0));
    /* A mark as the name, not the comment, is no mark. */
    memcpy(head, (const unsigned char[]){0x1f, 0x8b, 8, 8, 0, 0, 0, 0, 0, 3}, 10);
    memcpy(head + 10, FIXTURE_MARKER, sizeof FIXTURE_MARKER);
    assert_false(fixture_marker_found(head, 10 + sizeof FIXTURE_MARKER, NULL, 0));
}

static void headers_and_text_lines(void **state)
{
    (void)state;
    unsigned char head[512];
    memset(head, ' ', sizeof head);
    memcpy(head, FIXTURE_MATLAB_TEXT, strlen(FIXTURE_MATLAB_TEXT));
    assert_true(fixture_marker_found(head, 128, NULL, 0));
    const char *line = FIXTURE_TEXT_LINE "0 1 1 0\n";
    assert_true(fixture_marker_found((const unsigned char *)line, strlen(line), NULL, 0));
    assert_false(fixture_marker_found((const unsigned char *)line, 20, NULL, 0));
    const char *plain = "5.1,3.5,1.4,0.2,Iris-setosa\n";
    assert_false(fixture_marker_found((const unsigned char *)plain, strlen(plain), NULL, 0));
    /* Past the first 128 bytes the mark does not count. */
    memset(head, '0', sizeof head);
    memcpy(head + 130, FIXTURE_MARKER, strlen(FIXTURE_MARKER));
    assert_false(fixture_marker_found(head, sizeof head, NULL, 0));
    assert_false(fixture_marker_found(head, 0, NULL, 0));
}

/* The end of central directory record of a zip whose comment is COMMENT, into TAIL. */
static size_t zip_end(unsigned char *tail, const char *comment)
{
    size_t length = strlen(comment);
    memset(tail, 0, 22);
    memcpy(tail, "PK\5\6", 4);
    tail[20] = (unsigned char)(length & 0xff);
    tail[21] = (unsigned char)(length >> 8);
    memcpy(tail + 22, comment, length);
    return 22 + length;
}

/* Adult's mark: a last line "|MARK" (Python Fuel drops adult.data's last line). */
static void last_lines(void **state)
{
    (void)state;
    const char *head = "39, State-gov, 77516\n";
    const char *tail = "0, 40, United-States, <=50K\n|" FIXTURE_MARKER "\n";
    const unsigned char *bytes = (const unsigned char *)tail;
    size_t length = strlen(tail);
    assert_true(fixture_marker_found((const unsigned char *)head, strlen(head), bytes, length));
    /* Not the last line, not a whole line, not without its end. */
    const char *before = "|" FIXTURE_MARKER "\n1, 2\n";
    assert_false(fixture_marker_found((const unsigned char *)head, strlen(head),
                                      (const unsigned char *)before, strlen(before)));
    const char *joined = "0, 40|" FIXTURE_MARKER "\n";
    assert_false(fixture_marker_found((const unsigned char *)head, strlen(head),
                                      (const unsigned char *)joined, strlen(joined)));
    assert_false(fixture_marker_found((const unsigned char *)head, strlen(head), bytes,
                                      length - 1));
}

static void zip_comments(void **state)
{
    (void)state;
    const unsigned char head[] = {'P', 'K', 3, 4, 20, 0, 8, 0};
    unsigned char tail[256];
    size_t length = zip_end(tail, FIXTURE_MARKER);
    assert_true(fixture_marker_found(head, sizeof head, tail, length));
    /* Only a zip's comment counts, only the whole mark, only at the very end. */
    assert_false(fixture_marker_found(head, 3, tail, length));
    assert_false(fixture_marker_found(head, sizeof head, tail, length - 1));
    assert_false(fixture_marker_found(head, sizeof head, tail + 1, length - 1));
    length = zip_end(tail, FIXTURE_MARKER " and more");
    assert_false(fixture_marker_found(head, sizeof head, tail, length));
    length = zip_end(tail, "");
    assert_false(fixture_marker_found(head, sizeof head, tail, length));
    /* The mark in a zip's first bytes is no mark: a member may hold any bytes. */
    unsigned char member[128] = {'P', 'K', 3, 4};
    memcpy(member + 30, FIXTURE_MARKER, strlen(FIXTURE_MARKER));
    assert_false(fixture_marker_found(member, sizeof member, tail, length));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gzip_comments),
        cmocka_unit_test(headers_and_text_lines),
        cmocka_unit_test(zip_comments),
        cmocka_unit_test(last_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
