/* Write-behind for streamed outputs: early writeback, clean pages dropped, blocks taken ahead. */
#include "write_behind.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Filling the page cache with a whole output costs more than writing it: allocating fresh pages
   took 2.5 s of processor time for 1.6 GB here (inside a virtual machine whose idle memory goes
   back to its host), against 0.4 s when the same few hundred MiB of pages are reused. */
enum { WINDOW_BYTES = 16 << 20, HEAD_WINDOWS = 4 };

/* Blocks allocated ahead of the writes (kept past the file's end, its size unchanged) spare ext4
   its delayed allocation page by page: 2.3 GB written behind took 0.9 s of the machine's
   processor time instead of 1.1 here. */
enum { AHEAD_WINDOWS = 2 };

void write_behind_start(struct write_behind *behind, int descriptor)
{
    *behind = (struct write_behind){.descriptor = descriptor, .window = WINDOW_BYTES};
}

void write_behind_note(struct write_behind *behind, size_t bytes)
{
    if (behind->descriptor < 0)
        return;
    behind->written += bytes;
    if (behind->written < behind->window)
        return;
    behind->written = 0;
    struct stat status;
    if (fstat(behind->descriptor, &status) != 0)
        return;
    uint64_t size = (uint64_t)status.st_size;
    if (!behind->started) {
        behind->started = true;
        /* At most four windows: a file whose size at the first step lies far past its data
           (space written at its end first) still has the rest dropped behind it. */
        uint64_t most = HEAD_WINDOWS * behind->window;
        behind->first = behind->keep_head ? (size < most ? size : most) : 0;
    }
    /* Pages still dirty or under writeback stay; those written back since go at a later step. */
    if (behind->first < behind->synced)
        posix_fadvise(behind->descriptor, (off_t)behind->first,
                      (off_t)(behind->synced - behind->first), POSIX_FADV_DONTNEED);
    if (size > behind->synced)
        sync_file_range(behind->descriptor, (off_t)behind->synced,
                        (off_t)(size - behind->synced), SYNC_FILE_RANGE_WRITE);
    behind->synced = size;
    /* A failure (no space, a file system without it) leaves the writes to allocate as before. */
    if (behind->allocate_ahead)
        fallocate(behind->descriptor, FALLOC_FL_KEEP_SIZE, (off_t)size,
                  (off_t)(AHEAD_WINDOWS * behind->window));
}

void write_behind_release(const char *path)
{
    int descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
    if (descriptor < 0)
        return;
    struct stat status;
    if (fstat(descriptor, &status) == 0 && S_ISREG(status.st_mode))
        (void)!ftruncate(descriptor, status.st_size);
    close(descriptor);
}
