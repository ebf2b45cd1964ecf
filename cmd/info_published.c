/* Whether a file's inputs are its dataset's published files: the dataset found from the recorded
   argv, its record's files compared with the recorded inputs. */
#include "info_published.h"

#include "common/base/error.h"
#include "common/h5py/published_inputs.h"
#include "dataset_arguments.h"
#include "recorded_command.h"

#include <stdlib.h>

static char *record_line(const char *provenance, const struct dataset *record)
{
    struct published_file *files = calloc(record->file_count + 1, sizeof *files);
    if (files == NULL)
        return NULL;
    for (size_t index = 0; index < record->file_count; index++)
        files[index] = (struct published_file){record->files[index].name,
                                               record->files[index].size,
                                               record->files[index].checksum};
    struct inputs_publication report = {0};
    char label[160], *line = NULL;
    dataset_label(record, label, sizeof label);
    if (inputs_publication_check(provenance, files, record->file_count, &report) == EXIT_OK)
        line = inputs_publication_summary(&report, label);
    inputs_publication_free(&report);
    free(files);
    return line;
}

char *info_inputs_line(const struct h5py_file *file)
{
    const char *provenance = h5py_file_attribute(file, "fuel_provenance");
    struct recorded_command recorded;
    if (provenance == NULL)
        return NULL;
    char *line = NULL;
    if (recorded_command_read(provenance, &recorded) == EXIT_OK) {
        const struct dataset *record = recorded_command_dataset(&recorded);
        if (record != NULL)
            line = record_line(provenance, record);
    }
    recorded_command_free(&recorded);
    error_clear();
    return line;
}
