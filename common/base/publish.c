/* Publishes output files atomically: written inside a staging directory, renamed when whole. */
#include "publish.h"

#include "common/base/error.h"
#include "directory.h"
#include "threads.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Publications not yet done, removed by the signal handler and at exit: the temporary, the lock
   file, then the staging directory (async-signal-safe calls only). A slot's paths are written
   before it is marked active, so the handler never reads a half-written one. */
enum { TRACKED_TEMPORARIES = 16 };
static struct {
    volatile sig_atomic_t active;
    char temporary[4096];
    char lock[4200];
    char staging[4096];
} tracked[TRACKED_TEMPORARIES];

static void remove_tracked(void)
{
    for (int slot = 0; slot < TRACKED_TEMPORARIES; slot++)
        if (tracked[slot].active) {
            unlink(tracked[slot].temporary);
            unlink(tracked[slot].lock);
            rmdir(tracked[slot].staging);
        }
}

/* Async-signal-safe: unlink, then die of the same signal. The handler stays in place and every
   termination signal stays blocked until the cleanup is done (worker threads block them all), so
   a second one, however soon, waits for it; the raised signal is delivered, with the default
   action, as the handler returns. */
static void remove_on_signal(int signal_number)
{
    remove_tracked();
    struct sigaction default_action = {.sa_handler = SIG_DFL};
    sigemptyset(&default_action.sa_mask);
    sigaction(signal_number, &default_action, NULL);
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
    struct sigaction action = {.sa_handler = remove_on_signal};
    threads_termination_signals(&action.sa_mask);
    for (int number = 1; number < NSIG; number++) {
        struct sigaction previous;
        /* A signal ignored on entry (nohup) stays ignored. */
        if (sigismember(&action.sa_mask, number) == 1 &&
            sigaction(number, NULL, &previous) == 0 && previous.sa_handler != SIG_IGN)
            sigaction(number, &action, NULL);
    }
}

static int track(const struct publication *publication)
{
    for (int slot = 0; slot < TRACKED_TEMPORARIES; slot++) {
        if (!tracked[slot].active) {
            snprintf(tracked[slot].temporary, sizeof tracked[slot].temporary, "%s",
                     publication->temporary_path);
            snprintf(tracked[slot].lock, sizeof tracked[slot].lock, "%s/%s",
                     publication->staging.path, STAGING_LOCK_NAME);
            snprintf(tracked[slot].staging, sizeof tracked[slot].staging, "%s",
                     publication->staging.path);
            tracked[slot].active = 1;
            return 0;
        }
    }
    return -1;
}

static void untrack(const struct publication *publication)
{
    for (int slot = 0; slot < TRACKED_TEMPORARIES; slot++)
        if (tracked[slot].active &&
            strcmp(tracked[slot].temporary, publication->temporary_path) == 0)
            tracked[slot].active = 0;
}

static int failure(const char *path, int number)
{
    return error_set(EXIT_WRITE, "cannot write: %s: %s", path, strerror(number));
}

/* The final path DIRECTORY/NAME (NAME alone when absolute, as Python's os.path.join, or when
   a path of its own in "."), the directory it is in and its base name; false when a path does not
   fit. */
static bool paths_split(struct publication *publication, const char *directory, const char *name,
                        char *parent, size_t size, const char **base)
{
    bool alone = name[0] == '/' || (strcmp(directory, ".") == 0 && strchr(name, '/') != NULL);
    int length = snprintf(publication->final_path, sizeof publication->final_path, "%s%s%s",
                          alone ? "" : directory, alone ? "" : "/", name);
    if (length < 0 || (size_t)length >= sizeof publication->final_path)
        return false;
    const char *slash = strrchr(publication->final_path, '/');
    *base = slash + 1;
    return (size_t)snprintf(parent, size, "%.*s", (int)(slash - publication->final_path),
                            publication->final_path) < size;
}

/* The empty temporary STAGING/BASE, with the usual 0666 less the umask. */
static int temporary_create(struct publication *publication, const char *base)
{
    if ((size_t)snprintf(publication->temporary_path, sizeof publication->temporary_path,
                         "%s/%s", publication->staging.path,
                         base) >= sizeof publication->temporary_path)
        return error_set(EXIT_WRITE, "cannot write: %s: path too long", publication->final_path);
    int descriptor = open(publication->temporary_path,
                          O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (descriptor < 0 || close(descriptor) != 0)
        return failure(publication->final_path, errno);
    return EXIT_OK;
}

int publish_begin(struct publication *publication, const char *directory, const char *name)
{
    publication->temporary_path[0] = '\0';
    publication->staging = (struct staging){.lock = -1};
    char parent[sizeof publication->final_path];
    const char *base;
    if (!paths_split(publication, directory, name, parent, sizeof parent, &base))
        return error_set(EXIT_WRITE, "cannot write: %s/%s: path too long", directory, name);
    if (*base == '\0')
        return error_set(EXIT_WRITE, "cannot write: %s: not a file name", publication->final_path);
    install_handlers();
    /* A fatal signal waits until the staging and its temporary are made and tracked, so that its
       handler removes them whatever moment it came at. */
    sigset_t fatal, previous;
    threads_termination_signals(&fatal);
    pthread_sigmask(SIG_BLOCK, &fatal, &previous);
    int result = staging_create(&publication->staging, parent[0] != '\0' ? parent : "/", base);
    if (result == EXIT_OK)
        result = temporary_create(publication, base);
    if (result == EXIT_OK && track(publication) < 0)
        result = error_set(EXIT_OTHER, "cannot write: %s: too many files being written",
                           publication->final_path);
    if (result != EXIT_OK) {
        staging_remove(&publication->staging);
        publication->temporary_path[0] = '\0';
    }
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    return result;
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

/* fsyncs what was written to the temporary, by whichever descriptor (HDF5's, an extra
   converter's): 0 or an errno. */
static int temporary_sync(const char *path)
{
    int descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    int number = descriptor >= 0 && fsync(descriptor) == 0 ? 0 : errno;
    if (descriptor >= 0)
        close(descriptor);
    return number;
}

int publish_commit(struct publication *publication)
{
    if (publication->temporary_path[0] == '\0')
        return error_set(EXIT_OTHER, "cannot write: %s: nothing to publish", publication->final_path);
    int number = temporary_sync(publication->temporary_path);
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
    untrack(publication);
    publication->temporary_path[0] = '\0';
    /* The file is published; a directory sync refused by the filesystem cannot undo that. */
    fsync(directory_descriptor);
    close(directory_descriptor);
    staging_remove(&publication->staging);
    return EXIT_OK;
}

void publish_abort(struct publication *publication)
{
    if (publication->temporary_path[0] == '\0')
        return;
    unlink(publication->temporary_path);
    untrack(publication);
    error_path_replace(publication->temporary_path, publication->final_path);
    publication->temporary_path[0] = '\0';
    staging_remove(&publication->staging);
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

int publish_bytes(const char *path, const void *data, size_t size)
{
    struct publication publication;
    int result = publish_begin(&publication, ".", path);
    if (result != EXIT_OK)
        return result;
    FILE *stream = fopen(publication.temporary_path, "wb");
    if (stream == NULL || fwrite(data, 1, size, stream) != size)
        result = error_set(EXIT_WRITE, "cannot write: %s: %s", path, strerror(errno));
    if (stream != NULL && fclose(stream) != 0 && result == EXIT_OK)
        result = error_set(EXIT_WRITE, "cannot write: %s: %s", path, strerror(errno));
    if (result == EXIT_OK)
        result = publish_commit(&publication);
    if (result != EXIT_OK)
        publish_abort(&publication);
    return result;
}
