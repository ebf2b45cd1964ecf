/* Writes a shard set's SPLIT.json with jansson. */
#include "shard_listing.h"

#include "common/base/error.h"
#include "shard_plan.h"

#include <stdlib.h>
#include <string.h>

static json_t *shards_describe(const struct export_job *job, const struct shard_listing *listing)
{
    json_t *shards = json_array();
    uint64_t ranks = listing->ranks ? listing->ranks : 1;
    for (uint64_t index = 0; shards != NULL && index < listing->shard_count; index++) {
        char name[700];
        uint64_t first, size;
        listing->format->shard_name(name, sizeof name, job->split, index, listing->shard_count);
        shard_range(listing->examples, listing->shard_count, index, &first, &size);
        json_array_append_new(shards, json_pack("{s:s, s:I, s:I, s:I, s:I, s:s}", "name", name,
                                                "examples", (json_int_t)size, "first",
                                                (json_int_t)first, "rank",
                                                (json_int_t)(index % ranks), "bytes",
                                                (json_int_t)listing->records[index].bytes,
                                                "sha256", listing->records[index].sha256));
    }
    return shards;
}

static json_t *source_describe(const struct shard_listing *listing, size_t index)
{
    const struct shard_source *item = &listing->sources->items[index];
    static const char *const roles[] = {"image", "encoded image", "label", "array"};
    char dtype[16];
    shard_dtype_name(item->descr, dtype, sizeof dtype);
    json_t *shape = json_null();
    if (!item->source.variable) {
        shape = json_array();
        for (int axis = 1; axis < item->source.fixed.rank; axis++)
            json_array_append_new(shape, json_integer((json_int_t)item->source.fixed.shape[axis]));
    }
    json_t *entry = json_pack("{s:s, s:s, s:o, s:b, s:s}", "name", item->source.name, "dtype",
                              dtype, "shape", shape, "variable", item->source.variable, "role",
                              roles[item->role]);
    const struct class_names *classes = &listing->sources->classes;
    if (entry != NULL && item->role == SHARD_LABEL && classes->count > 0) {
        json_t *names = json_array();
        for (size_t number = 0; number < classes->count; number++)
            json_array_append_new(names, json_string(classes->names[number]));
        json_object_set_new(entry, "classes", names);
    }
    if (entry != NULL)
        listing->format->source_describe(listing->sources, index, entry);
    return entry;
}

static json_t *listing_document(const struct export_job *job, const struct shard_listing *listing,
                                json_t *provenance)
{
    json_t *sources = json_array();
    for (size_t index = 0; sources != NULL && index < listing->sources->count; index++)
        if (listing->sources->items[index].present)
            json_array_append_new(sources, source_describe(listing, index));
    json_t *order = listing->shuffle
                        ? json_pack("{s:s, s:I}", "shuffle",
                                    "numpy.random.RandomState(seed).permutation(examples)",
                                    "seed", (json_int_t)listing->seed)
                        : json_pack("{s:s}", "shuffle", "none: the split's order");
    return json_pack("{s:s, s:s, s:I, s:I, s:s, s:o, s:I, s:o, s:o, s:o}", "form",
                     listing->format->name, "split", job->split, "examples",
                     (json_int_t)listing->examples, "ranks",
                     (json_int_t)(listing->ranks ? listing->ranks : 1), "keys",
                     "%08d of the example's index in the split", "order", order, "mtime",
                     (json_int_t)listing->mtime, "shards", shards_describe(job, listing),
                     "sources", sources, "provenance", provenance);
}

int shard_listing_write(struct export_job *job, const struct shard_listing *listing)
{
    snprintf(job->main_file, sizeof job->main_file, "%s.json", job->split);
    char *text = export_provenance_text(job->provenance, job->split, job->data->name, job->set,
                                        job->main_file);
    if (text == NULL)
        return error_code();
    json_t *provenance = json_loads(text, 0, NULL);
    free(text);
    json_t *document = provenance ? listing_document(job, listing, provenance) : NULL;
    text = document ? json_dumps(document, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
    json_decref(document);
    if (text == NULL)
        return error_set(EXIT_OTHER, "cannot build %s.json: out of memory", job->split);
    size_t length = strlen(text);
    char *line = realloc(text, length + 2);
    if (line == NULL) {
        free(text);
        return error_set(EXIT_OTHER, "cannot build %s.json: out of memory", job->split);
    }
    line[length] = '\n';
    int result = export_text_write(job, job->main_file, line, length + 1);
    free(line);
    return result;
}
