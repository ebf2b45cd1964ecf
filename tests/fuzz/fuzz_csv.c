/* libFuzzer target: the CSV and TSV reader (lines, quotes, fields) and its number parsers; the
   first byte picks the separator (even: comma, odd: tab). */
#include "packing/csv_read.h"
#include "fuzz_input.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size == 0)
        return 0;
    struct csv_reader *reader;
    if (csv_open(&reader, fuzz_input_file(data + 1, size - 1), data[0] % 2 ? '\t' : ',') != 0)
        return 0;
    char **fields;
    size_t count = 1, line, lengths = 0;
    while (count > 0 && csv_next(reader, &fields, &count, &line) == 0)
        for (size_t field = 0; field < count; field++) {
            double real;
            int64_t whole;
            uint64_t natural;
            lengths += strlen(fields[field]);
            lengths += csv_real(fields[field], &real);
            lengths += csv_whole(fields[field], field % 2, &whole, &natural);
        }
    csv_close(reader);
    return lengths == (size_t)-1;
}
