/* Runs a conversion request (a dataset's converter on its inputs) into an H5PYDataset file
   published whole with its provenance, as fuel-convert, fuel-fetch and fuel-fixture ask. */
#include "conversion.h"

#include "cards/card.h"
#include "common/base/disk_space.h"
#include "common/base/error.h"
#include "common/base/publish.h"
#include "common/base/threads.h"
#include "common/h5py/published_file.h"
#include "downloaders/dataset.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void conversion_request_init(struct conversion_request *request, const struct dataset *dataset)
{
    *request = (struct conversion_request){
        .dataset = dataset, .input_directory = ".", .output_directory = "."};
}

/* What the converter of REQUEST is handed; its scratch files go in the output directory, where
   fuel clean looks for what a killed conversion left. */
static void arguments_from(const struct conversion_request *request,
                           struct converter_arguments *arguments)
{
    *arguments = (struct converter_arguments){
        .dataset = request->dataset,
        .input_directory = request->input_directory,
        .scratch_directory = request->output_directory,
        .threads = request->threads > 0 ? request->threads : threads_default(),
        .options = request->options != NULL ? request->options
                                            : request->dataset->converter->option_defaults,
        .progress = request->progress,
    };
}

void conversion_output_name(const struct conversion_request *request, char *name, size_t size)
{
    struct converter_arguments arguments;
    arguments_from(request, &arguments);
    if (request->output_name != NULL)
        publish_file_name(request->output_name, name, size);
    else
        converter_name_output(request->dataset->converter, &arguments, name, size);
}

void conversion_inputs_list(const struct conversion_request *request,
                            struct conversion_inputs *inputs)
{
    const struct converter *converter = request->dataset->converter;
    struct converter_arguments arguments;
    arguments_from(request, &arguments);
    inputs->count = converter->input_count;
    for (size_t index = 0; index < inputs->count; index++) {
        converter_input_path(&arguments, converter->inputs[index], inputs->paths[index],
                             sizeof inputs->paths[index]);
        inputs->list[index] = inputs->paths[index];
    }
}

static int converter_fill(void *context, struct h5py_writer *writer,
                          struct provenance *provenance)
{
    (void)provenance;
    const struct converter_arguments *arguments = context;
    return arguments->dataset->converter->convert(arguments, writer);
}

/* Before writing: a converted file holds at least half the bytes of its inputs (the densest
   input, .amat text, spends two characters on each byte it gives), so that much must fit. */
static int space_check(const struct conversion_request *request,
                       const struct conversion_inputs *inputs, const char *name)
{
    uint64_t bytes = 0;
    for (size_t index = 0; index < inputs->count; index++) {
        struct stat status;
        if (stat(inputs->paths[index], &status) == 0 && S_ISREG(status.st_mode))
            bytes = disk_space_sum(bytes, (uint64_t)status.st_size);
    }
    char shown[PATH_MAX + 1024];
    snprintf(shown, sizeof shown, "%s%s%s", name[0] == '/' ? "" : request->output_directory,
             name[0] == '/' ? "" : "/", name);
    return disk_space_check(request->output_directory, shown, bytes / 2, bytes / 2);
}

int conversion_run(const struct conversion_request *request, char *path, size_t size)
{
    int result = publish_directory_create(request->output_directory);
    if (result != EXIT_OK)
        return result;
    struct converter_arguments arguments;
    struct conversion_inputs inputs;
    char name[1024];
    arguments_from(request, &arguments);
    conversion_inputs_list(request, &inputs);
    conversion_output_name(request, name, sizeof name);
    result = space_check(request, &inputs, name);
    if (result != EXIT_OK)
        return result;
    struct published_filler filler = {converter_fill, &arguments};
    arguments.notes = json_object();
    const struct dataset_card *card = card_find(request->dataset->name);
    arguments.card = card != NULL ? card_json(card) : NULL;
    if (arguments.notes == NULL || (card != NULL && arguments.card == NULL)) {
        json_decref(arguments.notes);
        json_decref(arguments.card);
        return error_set(EXIT_OTHER, "out of memory");
    }
    struct provenance_publication published[CONVERTER_MAX_INPUTS] = {{0}};
    for (size_t index = 0; index < inputs.count; index++) {
        const struct dataset_file *file =
            &request->dataset->files[request->dataset->converter->inputs[index]];
        published[index] = (struct provenance_publication){
            .checksum = file->checksum,
            .sha256 = file->sha256,
            .size = file->size,
            .content = file->content_sha256 != NULL,
            .content_size = file->content_size,
            .content_sha256 = file->content_sha256,
            .repacked_size = file->repacked_size,
            .repacked_sha256 = file->repacked_sha256};
    }
    struct published_record record = {.inputs = inputs.list,
                                      .input_count = inputs.count,
                                      .published = published,
                                      .note_key = "fixture",
                                      .note = request->fixture_note,
                                      .typed = request->typed,
                                      .notes = arguments.notes,
                                      .card = arguments.card,
                                      .raw_files = true,
                                      .read_through_inputs = true};
    result = published_file_write(&filler, &record, request->output_directory, name, path, size);
    json_decref(arguments.notes);
    json_decref(arguments.card);
    return result;
}
