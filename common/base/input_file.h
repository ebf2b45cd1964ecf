/* Opening an input: only regular files, without ever blocking (a FIFO has no writer), and
   "exists but is not a regular file" as its own message and exit code in every command. */
#ifndef FUEL_INPUT_FILE_H
#define FUEL_INPUT_FILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/stat.h>

/* Opens PATH read-only with O_NONBLOCK (cleared again once open), then fstat: the descriptor of a
   regular file, its status in *STATUS when not NULL. -1 with the error set when it cannot be
   opened: EXIT_MISSING_INPUT "not found: PATH" when missing, input_not_regular's when something
   else stands there (EXIT_CORRUPT_INPUT), EXIT_MISSING_INPUT "cannot open: PATH: why" otherwise;
   errno is open's when open failed, so a caller may word that case itself. */
int input_file_open(const char *path, struct stat *status);

/* read(2) of DESCRIPTOR, EINTR retried, the bytes read fed to its file's tap (read_tap.h). */
ssize_t input_file_read(int descriptor, void *buffer, size_t size);

/* pread(2) likewise. */
ssize_t input_file_pread(int descriptor, void *buffer, size_t size, off_t offset);

/* Whether DESCRIPTOR's reads feed a tap: a copy that bypasses read(2) would leave it unfed. */
bool input_file_tapped(int descriptor);

/* Closes a descriptor input_file_open gave. */
int input_file_close(int descriptor);

/* input_file_open as a stdio stream ("rb") reading through input_file_read (fileno is -1: STATUS,
   when not NULL, gets the file's status); NULL with the error set. */
FILE *input_file_stream(const char *path);
FILE *input_file_stream_status(const char *path, struct stat *status);

/* After a failed input_file_open or input_file_stream: its error when something other than a
   regular file stands at PATH, else the callers' usual EXIT_MISSING_INPUT "cannot open: PATH: why"
   from errno. */
int input_open_failure(const char *path);

/* EXIT_CORRUPT_INPUT "not a regular file: PATH: exists but is a directory" (a FIFO, a socket, a
   device) for STATUS, which is not a regular file's. */
int input_not_regular(const char *path, const struct stat *status);

/* What stands there in input_not_regular's words: "a directory", "a FIFO", "a socket", ... */
const char *input_kind_name(mode_t mode);

/* Without opening: EXIT_OK for a regular file, EXIT_MISSING_INPUT when nothing is at PATH (*MISSING
   true), input_not_regular's when something else is. */
int input_file_check(const char *path, int *missing);

#endif
