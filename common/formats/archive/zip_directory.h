/* Lists the entries of a zip archive's central directory in its order (Python's
   zipfile.namelist()), without reading a member. */
#ifndef FUEL_ZIP_DIRECTORY_H
#define FUEL_ZIP_DIRECTORY_H

#include <stddef.h>

/* Called for each entry with its NAME (NUL-terminated; a directory's ends in '/'); a result other
   than 0 stops the listing and is returned. */
typedef int (*zip_directory_visit)(void *context, const char *name);

/* Reads the central directory of the zip at PATH in blocks and calls VISIT for each entry.
   EXIT_MISSING_INPUT when PATH cannot be opened; EXIT_CORRUPT_INPUT with "cannot read zip
   directory: PATH: why" when the end records or the directory are damaged, truncated, not where
   the end record says, or list another count of entries than they hold, or a name holds a NUL
   byte, or an entry's member runs into the directory or starts inside the member of the entry
   listed before it ("PATH: NAME: overlaps the entry listed before it ..."); "refusing archive
   member: PATH: NAME: symbolic link" for a member a Unix zip marks as a link. */
int zip_directory_list(const char *path, zip_directory_visit visit, void *context);

#endif
