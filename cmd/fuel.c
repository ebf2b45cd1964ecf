/* The fuel dispatcher: `fuel CMD ARGS` and `fuel-CMD ARGS` run the same entry of the command
   table (commands.c). */
#include "common/base/suggest.h"
#include "common/base/versions.h"
#include "commands.h"

#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void print_usage(FILE *stream)
{
    size_t count;
    const struct command *commands = commands_list(&count);
    fprintf(stream, "usage: fuel [--version] [-h] COMMAND [ARGS]\n\ncommands:\n");
    for (size_t index = 0; index < count; index++)
        if (commands[index].summary != NULL)
            fprintf(stream, "  %-10s %s\n", commands[index].name, commands[index].summary);
    fprintf(stream, "\n'fuel help COMMAND' or 'fuel COMMAND -h' shows a command's options.\n"
                    "Any executable fuel-NAME on PATH runs as 'fuel NAME'.\n");
}

static int print_version(void)
{
    struct library_version versions[LIBRARY_VERSION_COUNT];
    library_versions(versions);
    printf("fuel %s\n", FUEL_VERSION);
    for (size_t index = 0; index < LIBRARY_VERSION_COUNT; index++)
        printf("%s %s\n", versions[index].name, versions[index].version);
    return 0;
}

static int unknown_command(const char *name)
{
    struct suggestion suggestion;
    char ending[256];
    size_t count;
    const struct command *commands = commands_list(&count);
    suggestion_begin(&suggestion, name);
    for (size_t index = 0; index < count; index++)
        if (commands[index].summary != NULL)
            suggestion_offer(&suggestion, commands[index].name);
    if (suggestion_text(&suggestion, ending, sizeof ending))
        fprintf(stderr, "fuel: '%s' is not a fuel command; %s\n", name, ending);
    else
        fprintf(stderr, "fuel: '%s' is not a fuel command; see 'fuel -h'\n", name);
    return 2;
}

/* "fuel: unknown option: --verison; did you mean `--version`?" */
static int unknown_option(const char *name)
{
    struct suggestion suggestion;
    char ending[256];
    suggestion_begin(&suggestion, name);
    suggestion_offer(&suggestion, "--version");
    suggestion_offer(&suggestion, "--help");
    if (suggestion_text(&suggestion, ending, sizeof ending))
        fprintf(stderr, "fuel: unknown option: %s; %s\n", name, ending);
    else
        fprintf(stderr, "fuel: unknown option: %s; see 'fuel -h'\n", name);
    return 2;
}

/* git's external commands: an executable fuel-NAME on PATH (a NAME with '/' would name a path). */
static int run_external(const char *name, int argc, char **argv)
{
    char program[256];
    if (strchr(name, '/') != NULL ||
        snprintf(program, sizeof program, "fuel-%s", name) >= (int)sizeof program)
        return unknown_command(name);
    char **arguments = calloc((size_t)argc + 1, sizeof *arguments);
    if (arguments == NULL)
        return 1;
    arguments[0] = program;
    for (int index = 1; index < argc; index++)
        arguments[index] = argv[index];
    execvp(program, arguments);
    int failure = errno;
    free(arguments);
    if (failure == ENOENT)
        return unknown_command(name);
    fprintf(stderr, "fuel: cannot run: %s: %s\n", program, strerror(failure));
    return 1;
}

/* Runs NAME with ARGV[0] "fuel-NAME" (a copy: ARGV stays as TYPED, for provenance). EXTERNAL:
   whether a NAME outside the table may run fuel-NAME from PATH; not when fuel itself was invoked
   as fuel-NAME, which would run this very program again, forever. */
static int run_command(const char *name, int argc, char **argv, bool external,
                       const struct typed_command *typed)
{
    const struct command *command = command_find(name);
    if (command == NULL)
        return external ? run_external(name, argc, argv) : unknown_command(name);
    char program[64];
    snprintf(program, sizeof program, "fuel-%s", command->name);
    char **arguments = calloc((size_t)argc + 1, sizeof *arguments);
    if (arguments == NULL)
        return 1;
    memcpy(arguments + 1, argv + 1, (size_t)(argc - 1) * sizeof *arguments);
    arguments[0] = program;
    /* Past the file size limit (ulimit -f) a write fails with EFBIG, reported as exit 7 with the
       staging removed, instead of SIGXFSZ killing fuel without a word. */
    signal(SIGXFSZ, SIG_IGN);
    /* glibc maps blocks of 128 KiB and more on their own and unmaps them when freed, and returns
       the heap's free top to the system: libhdf5 callocs a global heap collection for each
       variable-length element and libjpeg its pools for each image, so every photo's pages were
       faulted in and zeroed anew. Blocks under 4 MiB come from the heap, which keeps up to 8 MiB
       free. */
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
    mallopt(M_TRIM_THRESHOLD, 8 << 20);
    int result = command_run(command, argc, arguments, typed);
    free(arguments);
    return result;
}

/* `fuel help COMMAND` and `fuel --help COMMAND`: the command's -h; without one, fuel's. */
static int run_help(int argc, char **argv, const struct typed_command *typed)
{
    if (argc < 3) {
        print_usage(stdout);
        return 0;
    }
    if (argv[2][0] == '-')
        return unknown_option(argv[2]);
    char *help_argv[] = {argv[2], "-h", NULL};
    return run_command(argv[2], 2, help_argv, true, typed);
}

int main(int argc, char **argv)
{
    const struct typed_command typed = {argc, argv};
    const char *slash = strrchr(argv[0], '/');
    const char *invoked = slash != NULL ? slash + 1 : argv[0];
    if (strncmp(invoked, "fuel-", 5) == 0)
        return run_command(invoked + 5, argc, argv, false, &typed);
    if (argc < 2) {
        print_usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "--help") == 0)
        return run_help(argc, argv, &typed);
    if (strcmp(argv[1], "--version") == 0)
        return print_version();
    if (argv[1][0] == '-')
        return unknown_option(argv[1]);
    return run_command(argv[1], argc - 1, argv + 1, true, &typed);
}
