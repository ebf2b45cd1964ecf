/* Unit tests for common/base/publish.c: commit, abort, the staging and temporary's names, the
   lock, signals and exit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/base/publish.h"
#include "support.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void write_text(const char *path, const char *text)
{
    FILE *file = fopen(path, "w");
    assert_non_null(file);
    fputs(text, file);
    assert_int_equal(fclose(file), 0);
}

static void assert_text(const char *path, const char *expected)
{
    char buffer[256] = "";
    FILE *file = fopen(path, "r");
    assert_non_null(file);
    size_t length = fread(buffer, 1, sizeof buffer - 1, file);
    buffer[length] = '\0';
    fclose(file);
    assert_string_equal(buffer, expected);
}

static size_t entries_in_directory(void)
{
    DIR *listing = opendir(test_directory);
    size_t count = 0;
    for (struct dirent *entry; (entry = readdir(listing)) != NULL;)
        if (strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0)
            count++;
    closedir(listing);
    return count;
}

/* The temporary is DIRECTORY/.fuel-staging-NAME.XXXXXX/NAME, empty, mode 0666 less the umask. */
static void test_temporary_name(void **state)
{
    (void)state;
    struct publication publication;
    assert_int_equal(publish_begin(&publication, test_directory, "name.hdf5"), EXIT_OK);
    char final[256], prefix[256], temporary[4200];
    snprintf(final, sizeof final, "%s/name.hdf5", test_directory);
    snprintf(prefix, sizeof prefix, "%s/.fuel-staging-name.hdf5.", test_directory);
    assert_string_equal(publication.final_path, final);
    assert_int_equal(strncmp(publication.staging.path, prefix, strlen(prefix)), 0);
    assert_int_equal(strlen(publication.staging.path), strlen(prefix) + 6);
    assert_true(staging_is_name_of(strrchr(publication.staging.path, '/') + 1, "name.hdf5"));
    snprintf(temporary, sizeof temporary, "%s/name.hdf5", publication.staging.path);
    assert_string_equal(publication.temporary_path, temporary);
    struct stat status;
    assert_int_equal(stat(publication.temporary_path, &status), 0);
    assert_int_equal(status.st_size, 0);
    mode_t mask = umask(022);
    umask(mask);
    assert_int_equal(status.st_mode & 0777, 0666 & ~mask);
    assert_int_not_equal(access(final, F_OK), 0);
    assert_int_equal(entries_in_directory(), 1);
    publish_abort(&publication);
    assert_int_equal(entries_in_directory(), 0);
}

/* NAME joined to DIRECTORY as Python's os.path.join does; the temporary sits beside the file. */
static void test_name_with_directories(void **state)
{
    (void)state;
    char subdirectory[64], prefix[256], final[256];
    snprintf(subdirectory, sizeof subdirectory, "%s/sub", test_directory);
    assert_int_equal(mkdir(subdirectory, 0700), 0);
    struct publication publication;
    assert_int_equal(publish_begin(&publication, test_directory, "sub/name.hdf5"), EXIT_OK);
    snprintf(final, sizeof final, "%s/name.hdf5", subdirectory);
    snprintf(prefix, sizeof prefix, "%s/.fuel-staging-name.hdf5.", subdirectory);
    assert_string_equal(publication.final_path, final);
    assert_int_equal(strncmp(publication.temporary_path, prefix, strlen(prefix)), 0);
    write_text(publication.temporary_path, "nested");
    assert_int_equal(publish_commit(&publication), EXIT_OK);
    assert_text(final, "nested");
    assert_int_equal(publish_begin(&publication, "/nonexistent", final), EXIT_OK);
    assert_string_equal(publication.final_path, final);
    assert_int_equal(strncmp(publication.temporary_path, prefix, strlen(prefix)), 0);
    publish_abort(&publication);
    unlink(final);
    rmdir(subdirectory);
    assert_int_equal(entries_in_directory(), 0);
}

static void test_commit(void **state)
{
    (void)state;
    struct publication publication;
    assert_int_equal(publish_begin(&publication, test_directory, "commit.txt"), EXIT_OK);
    char temporary[4096];
    snprintf(temporary, sizeof temporary, "%s", publication.temporary_path);
    write_text(temporary, "content");
    mode_t mask = umask(022);
    umask(mask);
    assert_int_equal(publish_commit(&publication), EXIT_OK);
    assert_text(publication.final_path, "content");
    assert_int_not_equal(access(temporary, F_OK), 0);
    assert_int_equal(entries_in_directory(), 1);
    struct stat status;
    assert_int_equal(stat(publication.final_path, &status), 0);
    assert_int_equal(status.st_mode & 0777, 0666 & ~mask);
    unlink(publication.final_path);
    assert_int_equal(entries_in_directory(), 0);
}

static void test_commit_replaces_existing(void **state)
{
    (void)state;
    char final[256];
    snprintf(final, sizeof final, "%s/replace.txt", test_directory);
    write_text(final, "old");
    struct publication publication;
    assert_int_equal(publish_begin(&publication, test_directory, "replace.txt"), EXIT_OK);
    write_text(publication.temporary_path, "new");
    assert_text(final, "old");
    assert_int_equal(publish_commit(&publication), EXIT_OK);
    assert_text(final, "new");
    unlink(final);
}

static void test_abort_leaves_existing_untouched(void **state)
{
    (void)state;
    char final[256];
    snprintf(final, sizeof final, "%s/keep.txt", test_directory);
    write_text(final, "precious");
    struct publication publication;
    assert_int_equal(publish_begin(&publication, test_directory, "keep.txt"), EXIT_OK);
    write_text(publication.temporary_path, "partial");
    char temporary[4096];
    snprintf(temporary, sizeof temporary, "%s", publication.temporary_path);
    publish_abort(&publication);
    publish_abort(&publication);
    assert_int_not_equal(access(temporary, F_OK), 0);
    assert_text(final, "precious");
    unlink(final);
    assert_int_equal(entries_in_directory(), 0);
}

static void test_missing_directory(void **state)
{
    (void)state;
    char missing[256];
    snprintf(missing, sizeof missing, "%s/absent", test_directory);
    struct publication publication;
    assert_int_equal(publish_begin(&publication, missing, "out.hdf5"), EXIT_WRITE);
    assert_int_equal(error_code(), EXIT_WRITE);
    char expected[512];
    snprintf(expected, sizeof expected, "cannot write in %s: No such file or directory", missing);
    assert_string_equal(error_message(), expected);
}

static void test_commit_failure_keeps_existing(void **state)
{
    (void)state;
    char final[256];
    snprintf(final, sizeof final, "%s/vanished.txt", test_directory);
    write_text(final, "precious");
    struct publication publication;
    assert_int_equal(publish_begin(&publication, test_directory, "vanished.txt"), EXIT_OK);
    unlink(publication.temporary_path);
    assert_int_equal(publish_commit(&publication), EXIT_WRITE);
    assert_non_null(strstr(error_message(), "vanished.txt: No such file or directory"));
    assert_text(final, "precious");
    publish_abort(&publication);
    unlink(final);
    assert_int_equal(entries_in_directory(), 0);
}

/* The child of run_interrupted_child: begins a publication, writes to the temporary, says so on
   READY, then waits for the parent's signal (or, with SIGNAL_NUMBER 0, exits once told to). */
static void interrupted_child(int ready, int proceed, int signal_number)
{
    struct publication publication;
    if (publish_begin(&publication, test_directory, "interrupted.hdf5") != EXIT_OK)
        _exit(10);
    write_text(publication.temporary_path, "partial");
    char byte = signal_number == 0 ? 'e' : 's';
    if (write(ready, &byte, 1) != 1)
        _exit(12);
    /* Blocks until the parent's signal ends this process, or the parent writes or goes away. */
    if (read(proceed, &byte, 1) < 0)
        _exit(13);
    exit(11);
}

/* A child that begins a publication and is then killed by the parent with SIGNAL_NUMBER, or exits
   when it is 0. The two synchronise on pipes: the signal is sent only once the temporary exists
   and has been written, however slowly the child gets there. */
static void run_interrupted_child(int signal_number)
{
    int ready[2], proceed[2];
    assert_int_equal(pipe(ready), 0);
    assert_int_equal(pipe(proceed), 0);
    fflush(NULL); /* nothing buffered here is written twice by the child's exit */
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        close(ready[0]);
        close(proceed[1]);
        interrupted_child(ready[1], proceed[0], signal_number);
    }
    close(ready[1]);
    close(proceed[0]);
    char byte = 0;
    assert_int_equal(read(ready[0], &byte, 1), 1);
    assert_int_equal(entries_in_directory(), 1);
    if (signal_number != 0)
        assert_int_equal(kill(child, signal_number), 0);
    else
        assert_int_equal(write(proceed[1], "x", 1), 1);
    int status;
    assert_int_equal(waitpid(child, &status, 0), child);
    close(ready[0]);
    close(proceed[1]);
    if (signal_number != 0) {
        assert_true(WIFSIGNALED(status));
        assert_int_equal(WTERMSIG(status), signal_number);
    } else {
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 11);
    }
    assert_int_equal(entries_in_directory(), 0);
}

static void test_signals_remove_temporary(void **state)
{
    (void)state;
    run_interrupted_child(SIGINT);
    run_interrupted_child(SIGTERM);
    run_interrupted_child(SIGHUP);
}

static void test_exit_removes_temporary(void **state)
{
    (void)state;
    run_interrupted_child(0);
}

/* The staging is locked while the temporary is being written: a second open file description
   cannot take a write lock on its lock file, and staging_remove_dead leaves it alone; once
   published, nothing is left but the file, which is not locked. */
static void test_live_staging_is_locked(void **state)
{
    (void)state;
    struct publication publication;
    assert_int_equal(publish_begin(&publication, test_directory, "live.hdf5"), EXIT_OK);
    char lock_path[4200];
    snprintf(lock_path, sizeof lock_path, "%s/.lock", publication.staging.path);
    int descriptor = open(lock_path, O_RDWR);
    assert_true(descriptor >= 0);
    struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    assert_int_equal(fcntl(descriptor, F_OFD_SETLK, &lock), -1);
    close(descriptor);
    bool removed = true;
    staging_remove_dead(publication.staging.path, false, &removed);
    assert_false(removed);
    assert_int_equal(access(publication.temporary_path, F_OK), 0);
    assert_int_equal(publish_commit(&publication), EXIT_OK);
    assert_int_equal(entries_in_directory(), 1);
    descriptor = open(publication.final_path, O_RDWR);
    assert_int_equal(fcntl(descriptor, F_OFD_SETLK, &lock), 0);
    close(descriptor);
    unlink(publication.final_path);
}

int main(void)
{
    /* The signal tests need the default dispositions, whatever this process inherited (a shell
       starts background jobs with SIGINT ignored, nohup ignores SIGHUP), and publish_begin
       installs its handlers once, in the first test, only over signals that are not ignored. */
    static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP};
    sigset_t fatal;
    sigemptyset(&fatal);
    for (size_t index = 0; index < sizeof fatal_signals / sizeof *fatal_signals; index++) {
        signal(fatal_signals[index], SIG_DFL);
        sigaddset(&fatal, fatal_signals[index]);
    }
    sigprocmask(SIG_UNBLOCK, &fatal, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_temporary_name),
        cmocka_unit_test(test_name_with_directories),
        cmocka_unit_test(test_commit),
        cmocka_unit_test(test_commit_replaces_existing),
        cmocka_unit_test(test_abort_leaves_existing_untouched),
        cmocka_unit_test(test_missing_directory),
        cmocka_unit_test(test_commit_failure_keeps_existing),
        cmocka_unit_test(test_signals_remove_temporary),
        cmocka_unit_test(test_exit_removes_temporary),
        cmocka_unit_test(test_live_staging_is_locked),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
