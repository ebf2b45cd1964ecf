/* Writes a member header of the archives fuel writes (archive_header.h): reproducible metadata. */
#include "archive_header.h"

#include "common/base/error.h"

#include <archive_entry.h>
#include <time.h>

int archive_header_write(struct archive *archive, const char *path, const char *name, mode_t type,
                         mode_t mode, int64_t size, int64_t mtime)
{
    struct archive_entry *entry = archive_entry_new();
    if (entry == NULL)
        return error_set(EXIT_OTHER, "cannot write archive: %s: out of memory", path);
    archive_entry_set_pathname(entry, name);
    archive_entry_set_filetype(entry, type);
    archive_entry_set_perm(entry, mode);
    archive_entry_set_size(entry, size);
    archive_entry_set_mtime(entry, (time_t)mtime, 0);
    archive_entry_set_uid(entry, 0);
    archive_entry_set_gid(entry, 0);
    int status = archive_write_header(archive, entry);
    archive_entry_free(entry);
    if (status != ARCHIVE_OK)
        return error_set(EXIT_WRITE, "cannot write archive: %s: %s: %s", path, name,
                         archive_error_string(archive));
    return EXIT_OK;
}
