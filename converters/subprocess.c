/* posix_spawn with stdout through a pipe read to the end, so the child never blocks on it. */
#include "subprocess.h"

#include "common/base/error.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int start_failure(const char *path, int number)
{
    return error_set(EXIT_OTHER, "cannot run: %s: %s", path, strerror(number));
}

/* Reads DESCRIPTOR to its end, keeping the first LIMIT bytes. */
static int read_all(int descriptor, size_t limit, struct subprocess_result *result)
{
    result->output = malloc(limit + 1);
    if (result->output == NULL)
        return error_set(EXIT_OTHER, "cannot run a converter: out of memory");
    char buffer[65536];
    ssize_t count;
    while ((count = read(descriptor, buffer, sizeof buffer)) != 0) {
        if (count < 0 && errno == EINTR)
            continue;
        if (count < 0)
            return error_set(EXIT_OTHER, "cannot read a converter's output: %s", strerror(errno));
        size_t kept = (size_t)count <= limit - result->length ? (size_t)count
                                                              : limit - result->length;
        memcpy(result->output + result->length, buffer, kept);
        result->length += kept;
        result->output_cut = result->output_cut || kept < (size_t)count;
    }
    result->output[result->length] = '\0';
    return EXIT_OK;
}

/* The child gets SIGXFSZ's default action back: fuel ignores it, and an ignored signal stays
   ignored across exec. */
static int spawn(char *const *arguments, int pipe_ends[2], pid_t *child)
{
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGXFSZ);
    int number = posix_spawn_file_actions_init(&actions);
    int attributes_made = posix_spawnattr_init(&attributes) == 0;
    if (number == 0 && !attributes_made)
        number = ENOMEM;
    if (number == 0)
        number = posix_spawnattr_setsigdefault(&attributes, &defaults);
    if (number == 0)
        number = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
    if (number == 0)
        number = posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], STDOUT_FILENO);
    if (number == 0)
        number = posix_spawn_file_actions_addclose(&actions, pipe_ends[0]);
    if (number == 0)
        number = posix_spawn_file_actions_addclose(&actions, pipe_ends[1]);
    if (number == 0)
        number = posix_spawn(child, arguments[0], &actions, &attributes, arguments, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (attributes_made)
        posix_spawnattr_destroy(&attributes);
    return number == 0 ? EXIT_OK : start_failure(arguments[0], number);
}

int subprocess_run(char *const *arguments, const char *variable, const char *value,
                   size_t output_limit, struct subprocess_result *result)
{
    *result = (struct subprocess_result){0};
    int pipe_ends[2];
    if (setenv(variable, value, 1) != 0 || pipe2(pipe_ends, O_CLOEXEC) != 0)
        return start_failure(arguments[0], errno);
    pid_t child;
    int status = spawn(arguments, pipe_ends, &child);
    close(pipe_ends[1]);
    unsetenv(variable);
    if (status != EXIT_OK) {
        close(pipe_ends[0]);
        return status;
    }
    status = read_all(pipe_ends[0], output_limit, result);
    close(pipe_ends[0]);
    while (waitpid(child, &result->status, 0) < 0)
        if (errno != EINTR)
            return start_failure(arguments[0], errno);
    return status;
}
