/* What a download item expects of its file: the digest that checks its bytes, the expectation
   raw_file.h checks a file against, the most bytes a transfer may bring, and the verdict
   (input_verdict.h) on a file that matched it. */
#ifndef FUEL_DOWNLOAD_ITEM_H
#define FUEL_DOWNLOAD_ITEM_H

#include "common/base/hash.h"
#include "common/base/input_verdict.h"
#include "download_run.h"
#include "raw_file.h"

#include <stdbool.h>
#include <stdint.h>

/* md5 for a 32-digit checksum, sha256 otherwise (none published included). */
enum hash_algorithm download_item_algorithm(const struct download_item *item);

/* "md5" or "sha256". */
const char *download_item_algorithm_name(const struct download_item *item);

struct raw_file_expectation download_item_expectation(const struct download_item *item,
                                                      content_digest_function *content_digest);

/* Whether the SIZE bytes of PATH are ITEM's size and checksum, where they are known. */
bool download_item_bytes_match(const char *path, uint64_t size, const struct download_item *item);

/* The most bytes a transfer may bring before it is cut: the published size; for a file that may
   also be verified by its content, as many as that content can take compressed in any other way
   (its size, 1/64 more and 64 KiB: stored deflate blocks add 5 bytes in 65535). */
uint64_t download_item_limit(const struct download_item *item,
                             content_digest_function *content_digest);

/* A file that matched ITEM by its bytes (BY_CONTENT false) or its decompressed content: FILES,
   CONTENT, or UNKNOWN when nothing is published to check its bytes against. */
enum input_verdict download_item_verdict(const struct download_item *item, bool by_content);

#endif
