/* libFuzzer target: Adult's rows (UCI's comma-separated text) read, checked and parsed, their
   values learnt and looked up, as the adult converter does with adult.data and adult.test. */
#include "converters/adult_rows.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* Reads every row; LEARN adds the complete ones' values, otherwise they are looked up. */
static int read_rows(struct field_row_reader *reader, struct adult_vocabulary *vocabulary,
                     bool learn)
{
    struct field_row row;
    bool read = true;
    while (field_rows_next(reader, &row, &read) == 0 && read) {
        struct adult_row parsed;
        bool missing;
        if (adult_row_parse(reader, &row, &parsed, &missing) != 0)
            return 1;
        if (missing)
            continue;
        if (learn && adult_vocabulary_add(vocabulary, &parsed, "adult.data", row.line) != 0)
            return 1;
        for (size_t category = 0; !learn && category < ADULT_CATEGORICAL; category++) {
            size_t index;
            if (adult_vocabulary_index(vocabulary, &parsed, category, "adult.test", row.line,
                                       &index) == 0 && index >= vocabulary->counts[category])
                __builtin_trap();
        }
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    struct field_row_reader *reader;
    if (field_rows_open(&reader, fuzz_input_file(data, size)) != 0)
        return 0;
    struct adult_vocabulary vocabulary = {0};
    if (read_rows(reader, &vocabulary, true) == 0 && field_rows_rewind(reader) == 0)
        read_rows(reader, &vocabulary, false);
    adult_vocabulary_free(&vocabulary);
    field_rows_close(reader);
    return 0;
}
