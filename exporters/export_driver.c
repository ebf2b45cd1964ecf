/* The export driver: checks the request against the input, then exports split after split. */
#include "export_driver.h"

#include "common/base/directory.h"
#include "common/base/disk_space.h"
#include "common/base/error.h"
#include "common/h5py/h5py_names.h"
#include "common/base/monotonic_clock.h"
#include "common/h5py/h5py_input.h"
#include "export_form.h"
#include "export_provenance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char export_form_names[] = "hdf5-layer recordio image-list npy webdataset tfrecord";

static const struct export_form *const forms[] = {
    &export_form_hdf5_layer, &export_form_recordio, &export_form_image_list, &export_form_npy,
    &export_form_webdataset, &export_form_tfrecord,
};
enum { FORM_COUNT = sizeof forms / sizeof forms[0] };

struct export_plan {
    const struct export_request *request;
    const struct export_form *form;
    struct h5py_file *file;
    char name[256];
    struct example_source data, label;
    bool has_label;
    struct image_axes axes;
    const char **splits;
    size_t split_count;
};

/* The forms that hold a source of the given kind, for messages: the shard forms hold any fixed
   source and variable-length images, the others what their flags say. */
static void forms_holding(bool image, bool variable, char *text, size_t size)
{
    size_t length = 0;
    text[0] = '\0';
    for (size_t index = 0; index < FORM_COUNT; index++) {
        const struct export_form *form = forms[index];
        bool holds = form->prepare != NULL ? image || !variable
                                           : (image || !form->images) && (!variable || form->variable);
        if (holds)
            length += (size_t)snprintf(text + length, size - length, "%s%s", length ? ", " : "",
                                       form->name);
    }
}

/* A variable-length source: only images (or encoded ones) go anywhere, to the forms that hold
   variable-length data. */
static int variable_check(struct export_plan *plan)
{
    char holders[128];
    struct example_source *data = &plan->data;
    bool image = data->encoded || image_axes_find(data, NULL, &plan->axes) == EXIT_OK;
    error_clear();
    if (!image)
        return error_set(EXIT_USAGE, "source %s is variable-length and neither images nor encoded "
                         "JPEG images: no export form holds it", data->name);
    if (plan->form->variable)
        return EXIT_OK;
    forms_holding(true, true, holders, sizeof holders);
    return error_set(EXIT_USAGE, "source %s is variable-length: %s cannot hold it; %s can",
                     data->name, plan->form->name, holders);
}

static int data_check(struct export_plan *plan)
{
    char holders[128];
    struct example_source *data = &plan->data;
    int result = data->variable ? variable_check(plan) : EXIT_OK;
    /* Encoded images go to the image forms as they are stored, as im2rec --pass-through. */
    if (result != EXIT_OK || !plan->form->images || data->encoded)
        return result;
    forms_holding(false, data->variable, holders, sizeof holders);
    return image_axes_find(data, holders, &plan->axes);
}

static int label_check(struct export_plan *plan)
{
    const struct export_request *request = plan->request;
    const char *name = request->label_source ? request->label_source : "targets";
    if (request->label_source == NULL && h5py_file_source(plan->file, name) == NULL)
        return EXIT_OK;
    int result = example_source_open(&plan->label, plan->file, name);
    plan->has_label = result == EXIT_OK;
    if (result == EXIT_OK && (plan->label.variable ||
                              (plan->form != &export_form_npy && plan->label.example_elements != 1)))
        result = error_set(EXIT_USAGE, "label source %s does not hold one value per example: "
                           "--label must name one that does", name);
    return result;
}

/* The shard forms check their sources themselves: here only that the splits exist. */
static int split_exists(const struct export_plan *plan, const char *split)
{
    for (size_t index = 0; index < plan->file->split_count; index++)
        if (strcmp(plan->file->splits[index], split) == 0)
            return EXIT_OK;
    char splits[1024];
    size_t length = 0;
    splits[0] = '\0';
    for (size_t index = 0; index < plan->file->split_count && length < sizeof splits; index++)
        length += (size_t)snprintf(splits + length, sizeof splits - length, "%s%s",
                                   index ? ", " : "", plan->file->splits[index]);
    return error_set(EXIT_USAGE, "no split %s: %s; the splits are %s", split, plan->file->path,
                     splits);
}

/* Selects SPLIT of the label source. A split without the default label source (ILSVRC2012's test
   split has no targets) is exported without labels: *LABELLED false. */
static int label_select(struct export_plan *plan, const char *split, bool *labelled)
{
    *labelled = plan->has_label;
    if (!plan->has_label)
        return EXIT_OK;
    if (plan->request->label_source == NULL &&
        !h5py_split_holds(plan->file, split, plan->label.name)) {
        *labelled = false;
        return EXIT_OK;
    }
    return example_source_select(&plan->label, plan->file, split);
}

static int splits_choose(struct export_plan *plan)
{
    const struct export_request *request = plan->request;
    size_t count = request->split_count ? request->split_count : plan->file->split_count;
    plan->splits = calloc(count ? count : 1, sizeof *plan->splits);
    if (plan->splits == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    for (size_t index = 0; index < count; index++) {
        const char *split = request->split_count ? request->splits[index]
                                                 : plan->file->splits[index];
        plan->splits[plan->split_count++] = split;
        if (plan->form->prepare != NULL) {
            int result = split_exists(plan, split);
            if (result != EXIT_OK)
                return result;
            continue;
        }
        bool labelled = false;
        int result = example_source_select(&plan->data, plan->file, split);
        if (result == EXIT_OK)
            result = label_select(plan, split, &labelled);
        if (result == EXIT_OK && labelled &&
            plan->label.selection.count != plan->data.selection.count)
            result = error_set(EXIT_CORRUPT_INPUT, "split %s has %llu examples of %s but %llu of "
                               "%s: %s", split, (unsigned long long)plan->data.selection.count,
                               plan->data.name, (unsigned long long)plan->label.selection.count,
                               plan->label.name, plan->file->path);
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}

/* The options of the shard forms, refused by the others. */
static int shard_options_refuse(const struct export_plan *plan)
{
    const struct export_request *request = plan->request;
    if (plan->form->prepare != NULL)
        return EXIT_OK;
    const char *given = request->shards ? "--shards" : request->shard_size ? "--shard-size"
                        : request->shard_examples ? "--shard-examples" : request->ranks ? "--ranks"
                        : request->shuffle ? "--shuffle" : request->seed_given ? "--seed"
                        : request->source_count ? "--source" : NULL;
    if (given != NULL)
        return error_set(EXIT_USAGE, "%s applies to webdataset and tfrecord, not %s", given,
                         plan->form->name);
    return EXIT_OK;
}

static int plan_make(struct export_plan *plan)
{
    const struct export_request *request = plan->request;
    for (size_t index = 0; index < FORM_COUNT && plan->form == NULL; index++)
        if (strcmp(forms[index]->name, request->form) == 0)
            plan->form = forms[index];
    if (plan->form == NULL)
        return error_set(EXIT_USAGE, "unknown form %s: the forms are %s", request->form,
                         export_form_names);
    if (request->dtype == NULL && request->scale != 1 && plan->form == &export_form_npy)
        return error_set(EXIT_USAGE, "--scale applies when converting to float: give --dtype");
    int result = shard_options_refuse(plan);
    if (result == EXIT_OK)
        result = h5py_input_open(&plan->file, request->input_path);
    if (result == EXIT_OK && plan->form->prepare != NULL)
        return splits_choose(plan);
    if (result == EXIT_OK)
        result = example_source_open(&plan->data, plan->file,
                                     request->data_source != NULL
                                         ? request->data_source
                                         : example_source_default(plan->file));
    if (result == EXIT_OK)
        result = data_check(plan);
    if (result == EXIT_OK)
        result = label_check(plan);
    if (result == EXIT_OK)
        result = splits_choose(plan);
    return result;
}

static void plan_free(struct export_plan *plan)
{
    example_source_close(&plan->data);
    example_source_close(&plan->label);
    free(plan->splits);
    h5py_reader_close(plan->file);
}

/* The input's file name without its directory and HDF5 extension: "mnist". */
static void input_name(const char *path, char *name, size_t size)
{
    const char *slash = strrchr(path, '/');
    snprintf(name, size, "%s", slash ? slash + 1 : path);
    char *dot = strrchr(name, '.');
    if (dot != NULL && dot != name &&
        (strcmp(dot, ".hdf5") == 0 || strcmp(dot, ".h5") == 0 || strcmp(dot, ".hdf") == 0))
        *dot = '\0';
}

/* Before the first byte: whether what the form knows it will write, every split, fits. */
static int space_check(struct export_plan *plan, struct export_job *job)
{
    if (plan->form->need == NULL)
        return EXIT_OK;
    uint64_t total = 0, largest = 0;
    int result = EXIT_OK;
    for (size_t index = 0; result == EXIT_OK && index < plan->split_count; index++) {
        bool labelled = false;
        result = example_source_select(&plan->data, plan->file, plan->splits[index]);
        if (result == EXIT_OK)
            result = label_select(plan, plan->splits[index], &labelled);
        job->label = labelled ? &plan->label : NULL;
        uint64_t bytes = 0, file = 0;
        if (result == EXIT_OK)
            plan->form->need(job, &bytes, &file);
        total = disk_space_sum(total, bytes);
        largest = file > largest ? file : largest;
    }
    return result == EXIT_OK ? disk_space_check(plan->request->directory,
                                                plan->request->directory, total, largest)
                             : result;
}

/* A split's set, staged whole but for its listing, which waits for the input's digests. */
struct staged_split {
    struct export_set set;
    char stem[512];
    char main_file[704];
};

/* Points the job at SPLIT (its selections, stem, set) as staged in STAGED. */
static int job_point(struct export_plan *plan, struct export_job *job, const char *split,
                     struct staged_split *staged)
{
    bool shards = plan->form->prepare != NULL, labelled = false;
    int result = shards ? EXIT_OK : example_source_select(&plan->data, plan->file, split);
    if (result == EXIT_OK && !shards)
        result = label_select(plan, split, &labelled);
    if (!shards)
        job->label = labelled ? &plan->label : NULL;
    job->stem = staged->stem;
    job->split = split;
    job->set = &staged->set;
    return result;
}

/* The set's label: the split for the shard forms, else the stem ("mnist_train"). */
static const char *set_label(const struct export_plan *plan, const char *split, char *stem,
                             size_t size)
{
    snprintf(stem, size, "%s_%s", plan->name, split);
    return plan->form->prepare != NULL ? split : stem;
}

/* Writes SPLIT's files into a staged set, all but its listing. */
static int split_stage(struct export_plan *plan, struct export_job *job, const char *split,
                       struct staged_split *staged)
{
    const char *label = set_label(plan, split, staged->stem, sizeof staged->stem);
    bool shards = plan->form->prepare != NULL;
    int result = job_point(plan, job, split, staged);
    if (result == EXIT_OK)
        result = export_set_begin(&staged->set, plan->request->directory, label);
    if (result != EXIT_OK)
        return result;
    job->main_file[0] = '\0';
    uint64_t unit = plan->data.variable ? 1 : plan->data.fixed.example_bytes;
    job->progress_unit = unit;
    double started = monotonic_seconds();
    if (!shards)
        progress_start(job->progress, 0, staged->stem, plan->data.selection.count * unit, 0);
    result = plan->form->write(job);
    snprintf(staged->main_file, sizeof staged->main_file, "%s", job->main_file);
    if (result != EXIT_OK)
        export_set_abort(&staged->set);
    if (result == EXIT_OK && !shards)
        progress_finish(job->progress, 0, plan->data.selection.count * unit,
                        monotonic_seconds() - started);
    else if (!shards)
        progress_stop(job->progress, 0);
    return result;
}

/* Writes SPLIT's listing into its staged set and publishes the set; on a failure, removes it. */
static int split_publish(struct export_plan *plan, struct export_job *job, const char *split,
                         struct staged_split *staged)
{
    int result = job_point(plan, job, split, staged);
    snprintf(job->main_file, sizeof job->main_file, "%s", staged->main_file);
    if (result == EXIT_OK)
        result = plan->form->listing(job);
    if (result == EXIT_OK)
        return export_set_commit(&staged->set);
    export_set_abort(&staged->set);
    return result;
}

/* Every split staged, then (the input read) the digests taken, then each set published. */
static int splits_export(struct export_plan *plan, struct export_job *job,
                         export_published_visitor *published, void *context)
{
    struct staged_split *staged = calloc(plan->split_count + 1, sizeof *staged);
    if (staged == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    size_t count = 0;
    int result = EXIT_OK;
    while (result == EXIT_OK && count < plan->split_count) {
        result = split_stage(plan, job, plan->splits[count], &staged[count]);
        count += result == EXIT_OK;
    }
    if (result == EXIT_OK)
        result = export_provenance_finish(job->provenance);
    for (size_t index = 0; index < count; index++) {
        if (result != EXIT_OK) {
            export_set_abort(&staged[index].set);
            continue;
        }
        result = split_publish(plan, job, plan->splits[index], &staged[index]);
        if (result == EXIT_OK && published != NULL) {
            char path[4800], stem[512];
            snprintf(path, sizeof path, "%s/%s", plan->request->directory, job->main_file);
            published(path, set_label(plan, plan->splits[index], stem, sizeof stem), context);
        }
    }
    free(staged);
    return result;
}

int export_run(const struct export_request *request, export_published_visitor *published,
               void *context)
{
    struct export_plan plan = {.request = request};
    size_t missing = directory_missing_prefix(request->directory);
    example_source_init(&plan.data);
    example_source_init(&plan.label);
    /* The input's tap before HDF5 opens it: its digests come from the bytes the export reads. */
    struct export_provenance *provenance = NULL;
    int result = export_provenance_begin(&provenance, request);
    if (result == EXIT_OK)
        result = plan_make(&plan);
    input_name(request->input_path, plan.name, sizeof plan.name);
    struct export_job job = {.request = request, .file = plan.file, .data = &plan.data,
                             .label = plan.has_label ? &plan.label : NULL, .axes = plan.axes,
                             .splits = plan.splits, .split_count = plan.split_count,
                             .provenance = provenance};
    if (result == EXIT_OK)
        export_provenance_input(provenance, plan.file);
    if (result == EXIT_OK && plan.form->prepare != NULL)
        result = plan.form->prepare(&job);
    if (result == EXIT_OK)
        result = space_check(&plan, &job);
    if (result == EXIT_OK)
        job.progress = progress_begin(request->progress, stderr, 1);
    if (result == EXIT_OK)
        result = splits_export(&plan, &job, published, context);
    if (job.progress != NULL)
        progress_end(job.progress);
    if (plan.form != NULL && plan.form->finish != NULL)
        plan.form->finish(&job);
    export_provenance_free(provenance);
    plan_free(&plan);
    if (result != EXIT_OK)
        directory_remove_created(request->directory, missing);
    return result;
}
