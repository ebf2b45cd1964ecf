/* Keeps a file written in one long stream from filling the page cache: its pages go to the disk
   while it is written, and the pages already on the disk are dropped for the next ones to reuse. */
#ifndef FUEL_WRITE_BEHIND_H
#define FUEL_WRITE_BEHIND_H

#include <stddef.h>
#include <stdint.h>

struct write_behind {
    int descriptor;   /* -1: nothing to do */
    uint64_t window;  /* bytes between two steps */
    uint64_t written; /* bytes written since the last step */
};

/* Starts following the file open as DESCRIPTOR (-1 for none), a step every 16 MiB. */
void write_behind_start(struct write_behind *behind, int descriptor);

/* Counts BYTES just written; every few MiB, drops the cached pages already written back and
   starts writing back the others, without waiting for the disk. */
void write_behind_note(struct write_behind *behind, size_t bytes);

#endif
