/* Unit tests of progress output: sizes, one line per finished file, notes, quiet, live redraws. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *capture(FILE *stream)
{
    static char text[4096];
    fflush(stream);
    rewind(stream);
    size_t length = fread(text, 1, sizeof text - 1, stream);
    text[length] = '\0';
    fclose(stream);
    return text;
}

static void test_format_size(void **state)
{
    (void)state;
    char text[32];
    progress_format_size(text, sizeof text, 0);
    assert_string_equal(text, "0 B");
    progress_format_size(text, sizeof text, 1023);
    assert_string_equal(text, "1023 B");
    progress_format_size(text, sizeof text, 1536);
    assert_string_equal(text, "1.5 KiB");
    progress_format_size(text, sizeof text, 9912422);
    assert_string_equal(text, "9.5 MiB");
    progress_format_size(text, sizeof text, 1955489752.0);
    assert_string_equal(text, "1.8 GiB");
}

static void test_lines_mode_prints_finished_files_and_notes(void **state)
{
    (void)state;
    FILE *stream = tmpfile();
    struct progress *progress = progress_begin(PROGRESS_LINES, stream, 2);
    progress_start(progress, 1, "b.gz", 2048, 0);
    progress_update(progress, 1, 1024, 0);
    progress_refresh(progress);
    progress_note(progress, "a.gz: %s", "already present and verified");
    progress_finish(progress, 1, 2048, 2.0);
    progress_end(progress);
    assert_string_equal(capture(stream), "a.gz: already present and verified\n"
                                         "b.gz: 2.0 KiB in 2.0 s (1.0 KiB/s)\n");
}

static void test_quiet_prints_nothing(void **state)
{
    (void)state;
    FILE *stream = tmpfile();
    struct progress *progress = progress_begin(PROGRESS_QUIET, stream, 1);
    progress_start(progress, 0, "a.gz", 10, 0);
    progress_note(progress, "warning: %s", "something");
    progress_finish(progress, 0, 10, 1.0);
    progress_end(progress);
    assert_string_equal(capture(stream), "");
}

static void test_live_mode_redraws_in_place(void **state)
{
    (void)state;
    FILE *stream = tmpfile();
    struct progress *progress = progress_begin(PROGRESS_LIVE, stream, 2);
    progress_start(progress, 0, "a.gz", 1000, 0);
    progress_start(progress, 1, "b.gz", 0, 0);
    progress_update(progress, 0, 500, 0);
    progress_update(progress, 1, 0, 4096);
    progress_note(progress, "note");
    progress_finish(progress, 0, 1000, 1.0);
    progress_end(progress);
    char *text = capture(stream);
    /* the note is drawn, then both live lines; the finished line replaces them (cursor up 2) */
    assert_non_null(strstr(text, "note\na.gz  500 B of 1000 B  50%"));
    assert_non_null(strstr(text, "b.gz  0 B of 4.0 KiB   0%"));
    assert_non_null(strstr(text, "\033[2A\r\033[Ja.gz: 1000 B in 1.0 s"));
    /* the end clears the one line left (b.gz) */
    size_t length = strlen(text);
    assert_true(length > 9 && strcmp(text + length - 8, "\033[1A\r\033[J") == 0);
}

static void test_restart_below_the_resume_point_counts_every_byte(void **state)
{
    (void)state;
    FILE *stream = tmpfile();
    struct progress *progress = progress_begin(PROGRESS_LINES, stream, 1);
    progress_start(progress, 0, "a.gz", 0, 100 * 1024);
    progress_update(progress, 0, 1024, 0);
    progress_finish(progress, 0, 200 * 1024, 2.0);
    progress_end(progress);
    assert_string_equal(capture(stream), "a.gz: 200.0 KiB in 2.0 s (100.0 KiB/s)\n");
}

static void test_counted_slot_draws_items_and_redraws_on_demand(void **state)
{
    (void)state;
    FILE *stream = tmpfile();
    struct progress *progress = progress_begin(PROGRESS_LIVE, stream, 1);
    progress_start_count(progress, 0, "svhn 1: train.tar.gz", 33402, "examples");
    progress_redraw(progress);
    progress_update(progress, 0, 16701, 0);
    progress_redraw(progress);
    progress_end(progress);
    char *text = capture(stream);
    assert_non_null(strstr(text, "svhn 1: train.tar.gz  0 of 33402 examples   0%  0 examples/s\033[K\n"));
    assert_non_null(strstr(text, "\033[1A\r\033[Jsvhn 1: train.tar.gz  16701 of 33402 examples  50%  "));
    assert_non_null(strstr(text, " examples/s ETA "));
    /* a counted slot started as bytes again draws sizes */
    stream = tmpfile();
    progress = progress_begin(PROGRESS_LIVE, stream, 1);
    progress_start_count(progress, 0, "x", 10, "examples");
    progress_start(progress, 0, "a.gz", 1000, 0);
    progress_redraw(progress);
    progress_end(progress);
    assert_non_null(strstr(capture(stream), "a.gz  0 B of 1000 B   0%"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_size),
        cmocka_unit_test(test_lines_mode_prints_finished_files_and_notes),
        cmocka_unit_test(test_quiet_prints_nothing),
        cmocka_unit_test(test_live_mode_redraws_in_place),
        cmocka_unit_test(test_restart_below_the_resume_point_counts_every_byte),
        cmocka_unit_test(test_counted_slot_draws_items_and_redraws_on_demand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
