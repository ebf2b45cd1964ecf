/* fuel pack's making, for fuel-pack and fuel-reproduce: a spec's plan published whole, its spec
   and inputs recorded, after the free space is checked. */
#include "pack_make.h"

#include "common/base/directory.h"
#include "common/base/disk_space.h"
#include "common/base/error.h"
#include "common/base/publish.h"
#include "common/base/threads.h"
#include "common/h5py/published_file.h"
#include "packing/pack.h"

#include <jansson.h>
#include <limits.h>
#include <stdio.h>

struct pack_filling {
    struct pack_plan *plan;
    const struct stage_listener *listener;
};

static int pack_fill(void *context, struct h5py_writer *writer, struct provenance *provenance)
{
    struct pack_filling *filling = context;
    int result = pack_plan_write(filling->plan, writer, filling->listener, provenance);
    pack_plan_files_release(filling->plan);
    return result;
}

static int pack_publish(const char *spec, struct pack_plan *plan,
                        const struct pack_target *target, char *path, size_t size)
{
    char name[1024];
    publish_file_name(target->output_filename != NULL ? target->output_filename
                                                      : pack_plan_name(plan),
                      name, sizeof name);
    const char *const *paths, *const *names;
    const bool *supplied;
    size_t count = pack_plan_files(plan, &paths, &names, &supplied);
    char shown[PATH_MAX + 1024];
    snprintf(shown, sizeof shown, "%s/%s", target->output_directory, name);
    int result = disk_space_check(target->output_directory, shown, pack_plan_bytes(plan),
                                  pack_plan_bytes(plan));
    if (result != EXIT_OK)
        return result;
    json_t *note = json_pack("{s:s}", "spec", pack_plan_spec_text(plan));
    if (note == NULL)
        return error_set(EXIT_CORRUPT_INPUT, "cannot record the spec: %s: not UTF-8 text", spec);
    struct pack_filling filling = {plan, target->listener};
    struct published_filler filler = {pack_fill, &filling};
    struct published_record record = {.inputs = paths,      .input_names = names,
                                      .input_count = count, .note_key = "pack",
                                      .note = note,         .typed = target->typed,
                                      .supplied = supplied,
                                      .read_through_inputs = true};
    result = published_file_write(&filler, &record, target->output_directory, name, path, size);
    json_decref(note);
    return result;
}

int pack_make(const char *spec, const struct pack_target *target, char *path, size_t size)
{
    struct pack_plan *plan = NULL;
    size_t missing = directory_missing_prefix(target->output_directory);
    int result = pack_plan_open(&plan, spec, target->threads > 0 ? (unsigned)target->threads
                                                                 : threads_default());
    if (result == EXIT_OK)
        result = publish_directory_create(target->output_directory);
    if (result != EXIT_OK) {
        pack_plan_close(plan);
        return result;
    }
    result = pack_publish(spec, plan, target, path, size);
    pack_plan_close(plan);
    if (result != EXIT_OK)
        directory_remove_created(target->output_directory, missing);
    return result;
}
