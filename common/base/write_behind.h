/* Keeps a file written in one long stream from filling the page cache: its pages go to the disk
   while it is written, and the pages already on the disk are dropped for the next ones to reuse. */
#ifndef FUEL_WRITE_BEHIND_H
#define FUEL_WRITE_BEHIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct write_behind {
    int descriptor;   /* -1: nothing to do */
    uint64_t window;  /* bytes between two steps */
    uint64_t written; /* bytes written since the last step */
    bool keep_head;   /* what the file held at the first step (at most 4 windows) stays cached;
                         false at the start */
    bool allocate_ahead; /* each step allocates the disk blocks of the next windows; false at
                            the start */
    bool started;     /* a step was taken */
    uint64_t first;   /* below it, pages stay cached: 0, or the file's size at the first step */
    uint64_t synced;  /* its size at the last step: below it, writeback was started */
};

/* Starts following the file open as DESCRIPTOR (-1 for none), a step every 16 MiB. */
void write_behind_start(struct write_behind *behind, int descriptor);

/* Counts BYTES just written; every few MiB, drops the cached pages already written back (past the
   head, with keep_head) and starts writing back the others, without waiting for the disk. */
void write_behind_note(struct write_behind *behind, size_t bytes);

/* With allocate_ahead, a file may hold blocks past its end once written: frees them (the file
   at PATH cut to its own size). Nothing when PATH cannot be opened for writing. */
void write_behind_release(const char *path);

#endif
