/* What a download item expects of its file (see download_item.h). */
#include "download_item.h"

#include "common/base/error.h"

#include <string.h>
#include <strings.h>

enum hash_algorithm download_item_algorithm(const struct download_item *item)
{
    return item->checksum != NULL && hash_algorithm_for_length(strlen(item->checksum)) == HASH_MD5
               ? HASH_MD5 : HASH_SHA256;
}

const char *download_item_algorithm_name(const struct download_item *item)
{
    return download_item_algorithm(item) == HASH_MD5 ? "md5" : "sha256";
}

struct raw_file_expectation download_item_expectation(const struct download_item *item,
                                                      content_digest_function *content_digest)
{
    return (struct raw_file_expectation){
        .size = item->size,
        .checksum = item->checksum,
        .content_size = item->content_size,
        .content_sha256 = item->content_sha256,
        .content_digest = content_digest,
    };
}

bool download_item_bytes_match(const char *path, uint64_t size, const struct download_item *item)
{
    if (item->size > 0 && size != item->size)
        return false;
    if (item->checksum == NULL)
        return true;
    char hex[HASH_HEX_SIZE];
    uint64_t hashed;
    if (hash_file(path, download_item_algorithm(item), hex, &hashed) != EXIT_OK) {
        error_clear();
        return false;
    }
    return strcasecmp(hex, item->checksum) == 0;
}

uint64_t download_item_limit(const struct download_item *item,
                             content_digest_function *content_digest)
{
    if (item->size == 0 || item->content_sha256 == NULL || content_digest == NULL)
        return item->size;
    uint64_t bound = item->content_size + item->content_size / 64 + 65536;
    return bound > item->size ? bound : item->size;
}

enum input_verdict download_item_verdict(const struct download_item *item, bool by_content)
{
    if (by_content)
        return INPUT_VERDICT_CONTENT;
    return item->checksum != NULL ? INPUT_VERDICT_FILES : INPUT_VERDICT_UNKNOWN;
}
