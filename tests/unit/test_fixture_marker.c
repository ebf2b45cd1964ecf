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
    assert_true(fixture_marker_found(head, length));
    length = gzip_header(head, 4 | 8 | 16, FIXTURE_MARKER);
    assert_true(fixture_marker_found(head, length));
    assert_false(fixture_marker_found(head, length - 10));
    length = gzip_header(head, 16, FIXTURE_MARKER " but longer");
    assert_false(fixture_marker_found(head, length));
    length = gzip_header(head, 8, "");
    assert_false(fixture_marker_found(head, length));
    /* A mark as the name, not the comment, is no mark. */
    memcpy(head, (const unsigned char[]){0x1f, 0x8b, 8, 8, 0, 0, 0, 0, 0, 3}, 10);
    memcpy(head + 10, FIXTURE_MARKER, sizeof FIXTURE_MARKER);
    assert_false(fixture_marker_found(head, 10 + sizeof FIXTURE_MARKER));
}

static void headers_and_text_lines(void **state)
{
    (void)state;
    unsigned char head[512];
    memset(head, ' ', sizeof head);
    memcpy(head, FIXTURE_MATLAB_TEXT, strlen(FIXTURE_MATLAB_TEXT));
    assert_true(fixture_marker_found(head, 128));
    const char *line = FIXTURE_TEXT_LINE "0 1 1 0\n";
    assert_true(fixture_marker_found((const unsigned char *)line, strlen(line)));
    assert_false(fixture_marker_found((const unsigned char *)line, 20));
    const char *plain = "5.1,3.5,1.4,0.2,Iris-setosa\n";
    assert_false(fixture_marker_found((const unsigned char *)plain, strlen(plain)));
    /* Past the first 128 bytes the mark does not count. */
    memset(head, '0', sizeof head);
    memcpy(head + 130, FIXTURE_MARKER, strlen(FIXTURE_MARKER));
    assert_false(fixture_marker_found(head, sizeof head));
    assert_false(fixture_marker_found(head, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gzip_comments),
        cmocka_unit_test(headers_and_text_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
