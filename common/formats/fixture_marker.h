/* The mark `fuel fixture --raw` leaves in every raw file it writes, where that file's readers
   already look past it, and its detection in a file's first and last bytes: the comment of the
   gzip header (IDX .gz, the tar.gz archives), the descriptive text of a MAT-file header, the
   archive comment of a zip (Dogs vs Cats, CelebA), a comment "# MARK" in the first line of text
   files (.amat, iris.data, CelebA's attribute list), which numpy.loadtxt, Python Fuel's reader of
   those, skips as fuel's readers do, or a C4.5 comment line "|MARK" where Python Fuel drops a line
   of Adult's files (adult.test's first, adult.data's last). */
#ifndef FUEL_FIXTURE_MARKER_H
#define FUEL_FIXTURE_MARKER_H

#include <stdbool.h>
#include <stddef.h>

#define FIXTURE_MARKER "written by fuel fixture --raw: synthetic data, not the real files"

/* The MAT-file header text of a fixture: MATLAB's opening words, then the mark. */
#define FIXTURE_MATLAB_TEXT "MATLAB 5.0 MAT-file, " FIXTURE_MARKER

/* The first line of a text fixture, newline included. */
#define FIXTURE_TEXT_LINE "# " FIXTURE_MARKER "\n"

/* Whether a file whose first HEAD_LENGTH bytes are HEAD and last TAIL_LENGTH bytes TAIL carries
   the mark: a gzip header whose comment is the mark, a zip whose archive comment is the mark, the
   mark within the first 128 bytes of any other file, or a last line "|MARK". */
bool fixture_marker_found(const unsigned char *head, size_t head_length, const unsigned char *tail,
                          size_t tail_length);

#endif
