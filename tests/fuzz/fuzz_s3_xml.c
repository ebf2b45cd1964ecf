/* libFuzzer target: S3's XML answers (errors, listings, multipart upload ids). */
#include "common/download/s3_xml.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    struct s3_answer answer;
    if (s3_xml_parse((const char *)data, size, "fuzz", &answer) != 0)
        return 0;
    size_t total = strlen(answer.code) + strlen(answer.message);
    for (size_t index = 0; index < answer.count; index++)
        total += (answer.entries[index].key != NULL ? strlen(answer.entries[index].key) : 0) +
                 (answer.entries[index].upload_id != NULL ? strlen(answer.entries[index].upload_id)
                                                          : 0);
    s3_answer_free(&answer);
    return total == (size_t)-1;
}
