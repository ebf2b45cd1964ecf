/* A dataset's file table turned into download items: URL lists with mirrors and a prefix
   applied, checksums replaced from a --checksums list. Shared by fuel-download and fuel-fetch. */
#ifndef FUEL_DOWNLOAD_ITEMS_H
#define FUEL_DOWNLOAD_ITEMS_H

#include "common/download/checksum_list.h"
#include "common/base/config.h"
#include "common/download/download_run.h"
#include "common/download/url_list.h"
#include "dataset.h"

struct item_table {
    struct download_item *items;
    struct url_list *urls;
    size_t count;
    struct checksum_list checksums; /* the items' replaced checksums point into it */
};

/* URL_PREFIX (NULL: the config's mirror, if any) replaces the built-in URLs up to the name;
   CHECKSUMS_PATH (NULL: none), an md5sum/sha256sum list, replaces the built-in checksums. */
int item_table_build(struct item_table *table, const struct dataset *dataset,
                     const char *url_prefix, const struct fuel_config *config,
                     const char *checksums_path);
void item_table_free(struct item_table *table);

/* Removes DATASET's files from DIRECTORY, and their .part files too with PARTS; a file not
   there is no error. EXIT_WRITE naming the file that cannot be removed. */
int dataset_files_remove(const struct dataset *dataset, const char *directory, bool parts);

#endif
