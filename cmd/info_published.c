/* Whether a file's inputs are its dataset's published files: the dataset found from the recorded
   argv, its record's files compared with the recorded inputs, judged by input_verdict. */
#include "info_published.h"

#include "common/base/error.h"
#include "common/base/input_verdict.h"
#include "info/published_inputs.h"
#include "dataset_arguments.h"
#include "recorded_command.h"

#include <stdlib.h>

/* The report on FILE's inputs against its dataset's record, and the record's label; false when
   there is none to make. */
static bool report_make(const char *provenance, struct inputs_publication *report, char *label,
                        size_t size)
{
    struct recorded_command recorded;
    if (provenance == NULL)
        return false;
    bool made = false;
    const struct dataset *record = NULL;
    if (recorded_command_read(provenance, &recorded) == EXIT_OK)
        record = recorded_command_dataset(&recorded);
    struct published_file *files =
        record != NULL ? calloc(record->file_count + 1, sizeof *files) : NULL;
    for (size_t index = 0; files != NULL && index < record->file_count; index++) {
        const struct dataset_file *entry = &record->files[index];
        files[index] = (struct published_file){entry->name, entry->size, entry->checksum,
                                               entry->content_size, entry->content_sha256};
    }
    if (files != NULL) {
        dataset_label(record, label, size);
        made = inputs_publication_check(provenance, files, record->file_count, label, report) ==
               EXIT_OK;
    }
    free(files);
    recorded_command_free(&recorded);
    error_clear();
    return made;
}

char *info_inputs_line(const struct h5py_file *file)
{
    return info_inputs_sentence(h5py_file_attribute(file, "fuel_provenance"));
}

char *info_inputs_sentence(const char *provenance)
{
    struct inputs_publication report = {0};
    char label[160];
    char *line = report_make(provenance, &report, label, sizeof label)
                     ? inputs_publication_summary(&report, label)
                     : NULL;
    inputs_publication_free(&report);
    return line;
}

json_t *info_inputs_json(const struct h5py_file *file)
{
    struct inputs_publication report = {0};
    char label[160];
    json_t *verdict = NULL;
    if (report_make(h5py_file_attribute(file, "fuel_provenance"), &report, label, sizeof label)) {
        verdict = inputs_publication_json(&report);
    }
    inputs_publication_free(&report);
    return verdict != NULL ? verdict : json_null();
}
