/* Test shim (LD_PRELOAD) that makes unlink slow on some paths, so that a test can send signals
 * while a signal handler's cleanup is under way.
 *
 * SLOW_UNLINK_PATH  fnmatch pattern of the paths whose unlink sleeps first
 * SLOW_UNLINK_MS    how long it sleeps, in milliseconds (default 200)
 */
#include <dlfcn.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Read once at load: a signal handler must not call getenv or dlsym. */
static int (*real_unlink)(const char *);
static const char *pattern;
static struct timespec pause_length = {0, 200 * 1000000L};

__attribute__((constructor)) static void slow_unlink_load(void)
{
    real_unlink = (int (*)(const char *))dlsym(RTLD_NEXT, "unlink");
    pattern = getenv("SLOW_UNLINK_PATH");
    const char *milliseconds = getenv("SLOW_UNLINK_MS");
    if (milliseconds != NULL) {
        long value = atol(milliseconds);
        pause_length = (struct timespec){value / 1000, value % 1000 * 1000000L};
    }
}

int unlink(const char *path)
{
    if (pattern != NULL && fnmatch(pattern, path, 0) == 0)
        nanosleep(&pause_length, NULL);
    return real_unlink(path);
}
