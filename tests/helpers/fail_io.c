/* Test shim (LD_PRELOAD) that makes fsync, rename or write calls fail, and logs the calls it sees.
 *
 * FAIL_IO_CALLS  which calls fail, comma-separated: fsync (fsync, fdatasync), rename (rename,
 *                renameat, renameat2), write (write, pwrite, pwrite64, writev, pwritev)
 * FAIL_IO_ERRNO  EIO (default) or ENOSPC
 * FAIL_IO_PATH   fnmatch pattern: only calls on a matching path fail (for rename, either name)
 * FAIL_IO_AFTER  let this many matching calls succeed first (default 0)
 * FAIL_IO_ACTION kill: the process kills itself with SIGKILL at the chosen call, before making it
 * FAIL_IO_LOG    file to append "CALL PATH [NEW PATH] ok|failed" to for every fsync and rename,
 *                and every write that fails
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static unsigned long matching_calls;

static void *next_symbol(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

static ssize_t real_write(int descriptor, const void *data, size_t size)
{
    static ssize_t (*function)(int, const void *, size_t);
    if (function == NULL)
        function = (ssize_t(*)(int, const void *, size_t))next_symbol("write");
    return function(descriptor, data, size);
}

static bool selected(const char *call)
{
    const char *calls = getenv("FAIL_IO_CALLS");
    if (calls == NULL)
        return false;
    size_t length = strlen(call);
    for (const char *at = strstr(calls, call); at != NULL; at = strstr(at + 1, call))
        if ((at == calls || at[-1] == ',') && (at[length] == '\0' || at[length] == ','))
            return true;
    return false;
}

static bool path_matches(const char *path)
{
    const char *pattern = getenv("FAIL_IO_PATH");
    return pattern == NULL || (path != NULL && fnmatch(pattern, path, 0) == 0);
}

static void descriptor_path(int descriptor, char *path, size_t size)
{
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", descriptor);
    ssize_t length = readlink(link, path, size - 1);
    path[length < 0 ? 0 : length] = '\0';
}

static void log_call(const char *call, const char *path, const char *other, bool failed)
{
    const char *log = getenv("FAIL_IO_LOG");
    if (log == NULL)
        return;
    char line[4 * PATH_MAX + 64];
    int length = snprintf(line, sizeof line, "%s %s%s%s %s\n", call, path, other ? " " : "",
                          other ? other : "", failed ? "failed" : "ok");
    int descriptor = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (descriptor >= 0 && length > 0)
        real_write(descriptor, line, (size_t)length < sizeof line ? (size_t)length : sizeof line - 1);
    if (descriptor >= 0)
        close(descriptor);
}

/* Whether this call (CALL on PATH, or on PATH and OTHER for a rename) is made to fail; sets errno. */
static bool fails(const char *call, const char *path, const char *other)
{
    bool chosen = selected(call) && (path_matches(path) || (other && path_matches(other)));
    if (chosen) {
        const char *after = getenv("FAIL_IO_AFTER");
        unsigned long passes = after ? strtoul(after, NULL, 10) : 0;
        chosen = __atomic_fetch_add(&matching_calls, 1, __ATOMIC_SEQ_CST) >= passes;
    }
    if (strcmp(call, "write") != 0 || chosen)
        log_call(call, path, other, chosen);
    const char *action = getenv("FAIL_IO_ACTION");
    if (chosen && action != NULL && strcmp(action, "kill") == 0)
        raise(SIGKILL);
    if (chosen) {
        const char *number = getenv("FAIL_IO_ERRNO");
        errno = number != NULL && strcmp(number, "ENOSPC") == 0 ? ENOSPC : EIO;
    }
    return chosen;
}

static bool descriptor_fails(const char *call, int descriptor)
{
    if (!selected(call) && !(strcmp(call, "write") != 0 && getenv("FAIL_IO_LOG")))
        return false;
    char path[PATH_MAX];
    descriptor_path(descriptor, path, sizeof path);
    return fails(call, path, NULL);
}

int fsync(int descriptor)
{
    static int (*function)(int);
    if (function == NULL)
        function = (int (*)(int))next_symbol("fsync");
    return descriptor_fails("fsync", descriptor) ? -1 : function(descriptor);
}

int fdatasync(int descriptor)
{
    static int (*function)(int);
    if (function == NULL)
        function = (int (*)(int))next_symbol("fdatasync");
    return descriptor_fails("fsync", descriptor) ? -1 : function(descriptor);
}

static void absolute(int directory, const char *name, char *path, size_t size)
{
    if (name[0] == '/' || directory == AT_FDCWD) {
        char here[PATH_MAX] = "";
        if (name[0] != '/' && getcwd(here, sizeof here) == NULL)
            here[0] = '\0';
        snprintf(path, size, "%s%s%s", here, here[0] ? "/" : "", name);
        return;
    }
    char base[PATH_MAX];
    descriptor_path(directory, base, sizeof base);
    snprintf(path, size, "%s/%s", base, name);
}

static bool rename_fails(int old_directory, const char *old_name, int new_directory,
                         const char *new_name)
{
    char old_path[2 * PATH_MAX + 2], new_path[2 * PATH_MAX + 2];
    absolute(old_directory, old_name, old_path, sizeof old_path);
    absolute(new_directory, new_name, new_path, sizeof new_path);
    return fails("rename", old_path, new_path);
}

int rename(const char *old_name, const char *new_name)
{
    static int (*function)(const char *, const char *);
    if (function == NULL)
        function = (int (*)(const char *, const char *))next_symbol("rename");
    return rename_fails(AT_FDCWD, old_name, AT_FDCWD, new_name) ? -1
                                                                 : function(old_name, new_name);
}

int renameat(int old_directory, const char *old_name, int new_directory, const char *new_name)
{
    static int (*function)(int, const char *, int, const char *);
    if (function == NULL)
        function = (int (*)(int, const char *, int, const char *))next_symbol("renameat");
    return rename_fails(old_directory, old_name, new_directory, new_name)
               ? -1
               : function(old_directory, old_name, new_directory, new_name);
}

int renameat2(int old_directory, const char *old_name, int new_directory, const char *new_name,
              unsigned int flags)
{
    static int (*function)(int, const char *, int, const char *, unsigned int);
    if (function == NULL)
        function = (int (*)(int, const char *, int, const char *, unsigned int))next_symbol(
            "renameat2");
    return rename_fails(old_directory, old_name, new_directory, new_name)
               ? -1
               : function(old_directory, old_name, new_directory, new_name, flags);
}

ssize_t write(int descriptor, const void *data, size_t size)
{
    return descriptor_fails("write", descriptor) ? -1 : real_write(descriptor, data, size);
}

ssize_t pwrite(int descriptor, const void *data, size_t size, off_t offset)
{
    static ssize_t (*function)(int, const void *, size_t, off_t);
    if (function == NULL)
        function = (ssize_t(*)(int, const void *, size_t, off_t))next_symbol("pwrite");
    return descriptor_fails("write", descriptor) ? -1 : function(descriptor, data, size, offset);
}

ssize_t pwrite64(int descriptor, const void *data, size_t size, off_t offset)
{
    static ssize_t (*function)(int, const void *, size_t, off_t);
    if (function == NULL)
        function = (ssize_t(*)(int, const void *, size_t, off_t))next_symbol("pwrite64");
    return descriptor_fails("write", descriptor) ? -1 : function(descriptor, data, size, offset);
}

ssize_t writev(int descriptor, const struct iovec *vectors, int count)
{
    static ssize_t (*function)(int, const struct iovec *, int);
    if (function == NULL)
        function = (ssize_t(*)(int, const struct iovec *, int))next_symbol("writev");
    return descriptor_fails("write", descriptor) ? -1 : function(descriptor, vectors, count);
}

ssize_t pwritev(int descriptor, const struct iovec *vectors, int count, off_t offset)
{
    static ssize_t (*function)(int, const struct iovec *, int, off_t);
    if (function == NULL)
        function = (ssize_t(*)(int, const struct iovec *, int, off_t))next_symbol("pwritev");
    return descriptor_fails("write", descriptor) ? -1 : function(descriptor, vectors, count, offset);
}
