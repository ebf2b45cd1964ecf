/* Publishes output files atomically: written under a hidden temporary name, renamed when whole. */
#include "publish.h"

#include "common/base/error.h"
#include "directory.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Temporaries not yet published, removed by the signal handler and at exit. A slot's path is
   written before it is marked active, so the handler never reads a half-written path. */
enum { TRACKED_TEMPORARIES = 16 };
static struct {
    volatile sig_atomic_t active;
    char path[4096];
} tracked[TRACKED_TEMPORARIES];

static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP};

static void remove_tracked(void)
{
    for (int slot = 0; slot < TRACKED_TEMPORARIES; slot++)
        if (tracked[slot].active)
            unlink(tracked[slot].path);
}

/* Async-signal-safe: unlink, then die of the same signal (the handler was reset on entry). */
static void remove_on_signal(int signal_number)
{
    remove_tracked();
    raise(signal_number);
}

static void install_handlers(void)
{
    static bool installed;
    if (installed)
        return;
    installed = true;
    atexit(remove_tracked);
    /* Past a file size limit (ulimit -f) a write then fails with EFBIG, reported and cleaned up
       like a full disk, instead of SIGXFSZ killing the process and leaving the temporary. */
    signal(SIGXFSZ, SIG_IGN);
    struct sigaction action = {.sa_handler = remove_on_signal, .sa_flags = SA_RESETHAND};
    sigemptyset(&action.sa_mask);
    for (size_t index = 0; index < sizeof fatal_signals / sizeof *fatal_signals; index++) {
        struct sigaction previous;
        /* A signal ignored on entry (nohup) stays ignored. */
        if (sigaction(fatal_signals[index], NULL, &previous) == 0 && previous.sa_handler != SIG_IGN)
            sigaction(fatal_signals[index], &action, NULL);
    }
}

static int track(const char *path)
{
    for (int slot = 0; slot < TRACKED_TEMPORARIES; slot++) {
        if (!tracked[slot].active) {
            snprintf(tracked[slot].path, sizeof tracked[slot].path, "%s", path);
            tracked[slot].active = 1;
            return 0;
        }
    }
    return -1;
}

static void untrack(const char *path)
{
    for (int slot = 0; slot < TRACKED_TEMPORARIES; slot++)
        if (tracked[slot].active && strcmp(tracked[slot].path, path) == 0)
            tracked[slot].active = 0;
}

static int failure(const char *path, int number)
{
    return error_set(EXIT_WRITE, "cannot write: %s: %s", path, strerror(number));
}

/* A write lock on the open file description: unlike flock (which HDF5 takes on its own
   descriptor of the same file) it does not conflict with HDF5's lock, and unlike a classic
   fcntl lock it is not dropped when HDF5 closes its descriptor. */
static int lock_whole_file(int descriptor)
{
    struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    return fcntl(descriptor, F_OFD_SETLK, &lock);
}

static bool names_open_file(const char *path, int descriptor)
{
    struct stat opened, named;
    return fstat(descriptor, &opened) == 0 && lstat(path, &named) == 0 &&
           opened.st_dev == named.st_dev && opened.st_ino == named.st_ino;
}

/* mkostemp, then the lock. A `fuel clean` that saw the file between the two may hold the lock
   or have removed the file: then try another name. A filesystem without locks keeps it unlocked. */
static int create_locked(char *path, size_t size)
{
    char template[4096];
    snprintf(template, sizeof template, "%s", path);
    for (int attempt = 0; attempt < 16; attempt++) {
        snprintf(path, size, "%s", template);
        int descriptor = mkostemp(path, O_CLOEXEC);
        if (descriptor < 0)
            return -1;
        if (lock_whole_file(descriptor) == 0 ? names_open_file(path, descriptor)
                                             : errno != EAGAIN && errno != EACCES)
            return descriptor;
        if (names_open_file(path, descriptor))
            unlink(path);
        close(descriptor);
    }
    errno = EAGAIN;
    return -1;
}

int publish_begin(struct publication *publication, const char *directory, const char *name)
{
    publication->temporary_path[0] = '\0';
    publication->lock_descriptor = -1;
    /* As Fuel's os.path.join: NAME may hold directories, and an absolute NAME stands alone. */
    int final_length = snprintf(publication->final_path, sizeof publication->final_path, "%s%s%s",
                                name[0] == '/' ? "" : directory, name[0] == '/' ? "" : "/", name);
    const char *slash = strrchr(publication->final_path, '/');
    int temporary_length =
        slash == NULL ? -1
                      : snprintf(publication->temporary_path, sizeof publication->temporary_path,
                                 "%.*s/.%s.XXXXXX", (int)(slash - publication->final_path),
                                 publication->final_path, slash + 1);
    if (final_length < 0 || (size_t)final_length >= sizeof publication->final_path ||
        temporary_length < 0 || (size_t)temporary_length >= sizeof publication->temporary_path) {
        publication->temporary_path[0] = '\0';
        return error_set(EXIT_WRITE, "cannot write: %s/%s: path too long", directory, name);
    }
    install_handlers();
    int descriptor = create_locked(publication->temporary_path, sizeof publication->temporary_path);
    if (descriptor < 0) {
        publication->temporary_path[0] = '\0';
        return failure(publication->final_path, errno);
    }
    publication->lock_descriptor = descriptor;
    if (track(publication->temporary_path) < 0) {
        unlink(publication->temporary_path);
        close(descriptor);
        publication->lock_descriptor = -1;
        publication->temporary_path[0] = '\0';
        return error_set(EXIT_OTHER, "cannot write: %s: too many files being written",
                         publication->final_path);
    }
    /* mkstemp makes the file 0600; the published file gets the usual 0666 less the umask. */
    mode_t mask = umask(0);
    umask(mask);
    int result = fchmod(descriptor, 0666 & ~mask) == 0 ? EXIT_OK : failure(publication->final_path, errno);
    if (result != EXIT_OK)
        publish_abort(publication);
    return result;
}

static void release_lock(struct publication *publication)
{
    if (publication->lock_descriptor >= 0)
        close(publication->lock_descriptor);
    publication->lock_descriptor = -1;
}

static void directory_of(const char *path, char *directory, size_t size)
{
    snprintf(directory, size, "%s", path);
    char *slash = strrchr(directory, '/');
    if (slash == directory)
        slash[1] = '\0';
    else if (slash != NULL)
        *slash = '\0';
    else
        snprintf(directory, size, ".");
}

int publish_commit(struct publication *publication)
{
    if (publication->temporary_path[0] == '\0')
        return error_set(EXIT_OTHER, "cannot write: %s: nothing to publish", publication->final_path);
    /* The lock's descriptor is on the temporary itself: fsync flushes what HDF5 wrote to it. */
    int number = fsync(publication->lock_descriptor) == 0 ? 0 : errno;
    if (number != 0) {
        publish_abort(publication);
        return failure(publication->final_path, number);
    }
    char directory[sizeof publication->final_path];
    directory_of(publication->final_path, directory, sizeof directory);
    int directory_descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory_descriptor < 0 || rename(publication->temporary_path, publication->final_path) != 0) {
        number = errno;
        if (directory_descriptor >= 0)
            close(directory_descriptor);
        publish_abort(publication);
        return failure(publication->final_path, number);
    }
    untrack(publication->temporary_path);
    publication->temporary_path[0] = '\0';
    release_lock(publication);
    /* The file is published; a directory sync refused by the filesystem cannot undo that. */
    fsync(directory_descriptor);
    close(directory_descriptor);
    return EXIT_OK;
}

void publish_abort(struct publication *publication)
{
    if (publication->temporary_path[0] == '\0')
        return;
    unlink(publication->temporary_path);
    untrack(publication->temporary_path);
    publication->temporary_path[0] = '\0';
    release_lock(publication);
}

/* Whether TEXT's first LENGTH bytes are ".", something, then SUFFIX. */
static bool has_stem_suffix(const char *text, size_t length, const char *suffix)
{
    size_t suffix_length = strlen(suffix);
    return length > 1 + suffix_length &&
           memcmp(text + length - suffix_length, suffix, suffix_length) == 0;
}

bool publish_is_temporary_name(const char *name)
{
    size_t length = strlen(name);
    /* ".NAME" then "." and the six characters mkstemp put in place of XXXXXX. */
    if (name[0] != '.' || length < 8 || name[length - 7] != '.' || strchr(name, '/') != NULL)
        return false;
    for (size_t index = length - 6; index < length; index++)
        if (!isalnum((unsigned char)name[index]))
            return false;
    size_t stem = length - 7;
    return has_stem_suffix(name, stem, ".hdf5") || has_stem_suffix(name, stem, ".h5") ||
           has_stem_suffix(name, stem, ".hdf");
}

int publish_remove_leftover(const char *path, bool dry_run, bool *removed)
{
    *removed = false;
    struct stat named;
    if (lstat(path, &named) != 0 || !S_ISREG(named.st_mode))
        return EXIT_OK; /* gone meanwhile, or not a regular file: not one of ours */
    int descriptor = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (descriptor < 0)
        return errno == ENOENT || errno == ELOOP
                   ? EXIT_OK
                   : error_set(EXIT_WRITE, "cannot clean: %s: %s", path, strerror(errno));
    struct stat status;
    int result = EXIT_OK;
    if (fstat(descriptor, &status) != 0 || !S_ISREG(status.st_mode)) {
        /* Not a regular file: not one of ours. */
    } else if (lock_whole_file(descriptor) != 0) {
        if (errno != EAGAIN && errno != EACCES)
            result = error_set(EXIT_WRITE, "cannot clean: %s: cannot lock: %s", path,
                               strerror(errno));
    } else if (names_open_file(path, descriptor)) {
        /* Unlinked while the lock is held, so no writer can be starting on it meanwhile. */
        if (dry_run || unlink(path) == 0)
            *removed = true;
        else if (errno != ENOENT) /* a writer that lost the race removes its own attempt */
            result = error_set(EXIT_WRITE, "cannot clean: %s: %s", path, strerror(errno));
    }
    close(descriptor);
    return result;
}

void publish_file_name(const char *given, char *name, size_t size)
{
    const char *extension = strrchr(given, '.');
    bool known = extension != NULL &&
                 (strcmp(extension, ".hdf5") == 0 || strcmp(extension, ".hdf") == 0 ||
                  strcmp(extension, ".h5") == 0);
    snprintf(name, size, "%s%s", given, known ? "" : ".hdf5");
}

int publish_directory_create(const char *directory)
{
    return directory_create(directory);
}
