/* Prints what fuel duplicates found, as text or JSON (duplicates_report.h). */
#include "duplicates_report.h"

#include "common/base/error.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

static const char *const kind_names[] = {"within a split", "across splits", "across files"};
static const char *const kind_keys[] = {"within_split", "across_splits", "across_files"};

/* The number of examples SPLIT selects of SOURCE in FILE. */
static uint64_t split_examples(const struct h5py_file *file, const char *split, const char *source)
{
    for (size_t index = 0; index < file->row_count; index++)
        if (strcmp(file->rows[index].split, split) == 0 &&
            strcmp(file->rows[index].source, source) == 0)
            return h5py_split_row_count(&file->rows[index]);
    return 0;
}

static void files_print(FILE *stream, const struct duplicates_request *request,
                        const char *source)
{
    for (size_t index = 0; index < request->file_count; index++) {
        const struct h5py_file *file = request->files[index];
        fprintf(stream, "%s%s:", index > 0 ? "; " : "", file->path);
        for (size_t split = 0; split < file->split_count; split++)
            fprintf(stream, "%s %s %" PRIu64, split > 0 ? "," : "", file->splits[split],
                    split_examples(file, file->splits[split], source));
    }
}

static void summary_print(FILE *stream, const struct duplicates_request *request,
                          const struct duplicates_result *result)
{
    const struct duplicate_groups *groups = &result->groups;
    char near[64] = "";
    if (request->near)
        snprintf(near, sizeof near, " within %u of %d bits", request->threshold,
                 PERCEPTUAL_HASH_BITS);
    if (groups->group_count == 0) {
        fprintf(stream, "no two of the %" PRIu64 " examples of source %s are %s%s (",
                result->examples, result->source, request->near ? "near:" : "equal",
                request->near ? near : "");
        files_print(stream, request, result->source);
        fprintf(stream, ")\n");
        return;
    }
    fprintf(stream, "%zu group%s of %s examples of source %s%s among %" PRIu64
                    " (%" PRIu64 " beyond the first of each):",
            groups->group_count, groups->group_count == 1 ? "" : "s",
            request->near ? "near" : "equal", result->source, near, result->examples,
            groups->extra_copies);
    for (int kind = 0; kind < 3; kind++)
        fprintf(stream, "%s %zu %s", kind > 0 ? "," : "", groups->kind_counts[kind],
                kind_names[kind]);
    if (result->labels != NULL)
        fprintf(stream, "; %zu with conflicting labels", groups->conflict_count);
    fprintf(stream, " (");
    files_print(stream, request, result->source);
    fprintf(stream, ")\n");
}

/* Near: the bits in which record MEMBER's hash differs from its group's first member's. */
static unsigned member_distance(const struct duplicates_result *result,
                                const struct duplicate_group *group, size_t member)
{
    const struct perceptual_hash *hashes = result->digests.hashes;
    return hashes == NULL ? 0
                          : perceptual_hash_distance(&hashes[group->first],
                                                     &hashes[group->first + member]);
}

static void label_print(FILE *stream, const struct duplicates_result *result,
                        const struct example_record *member, const struct member_label *label)
{
    if (label == NULL || !label->known)
        return;
    const char *name = label->value >= 0 ? class_name(&result->names[member->file],
                                                      (size_t)label->value)
                                         : NULL;
    char number[32];
    snprintf(number, sizeof number, "%" PRId64, label->value);
    if (name != NULL && strcmp(name, number) == 0)
        name = NULL; /* MNIST's classes are named by their digits: said once */
    fprintf(stream, " (%s %s%s%s)", result->labels, number, name ? " " : "", name ? name : "");
}

static void member_print(FILE *stream, const struct duplicates_request *request,
                         const struct duplicates_result *result,
                         const struct duplicate_group *group, size_t index)
{
    const struct example_record *member = &result->digests.records[group->first + index];
    const struct h5py_file *file = request->files[member->file];
    if (request->file_count > 1)
        fprintf(stream, "%s ", file->path);
    fprintf(stream, "%s %" PRIu32, file->splits[member->split], member->number);
    label_print(stream, result, member,
                result->groups.labels != NULL ? &result->groups.labels[group->labelled + index]
                                              : NULL);
    if (request->near && index > 0)
        fprintf(stream, " %u bits away", member_distance(result, group, index));
}

static void group_print(FILE *stream, const struct duplicates_request *request,
                        const struct duplicates_result *result, const struct duplicate_group *group)
{
    const struct example_record *members = result->digests.records + group->first;
    if (group->kind == GROUP_WITHIN_SPLIT)
        fprintf(stream, "within %s%s%s:", request->file_count > 1 ? request->files[members->file]->path : "",
                request->file_count > 1 ? " " : "", request->files[members->file]->splits[members->split]);
    else
        fprintf(stream, "%s:", kind_names[group->kind]);
    for (size_t member = 0; member < group->count; member++) {
        fprintf(stream, "%s ", member > 0 ? "," : "");
        member_print(stream, request, result, group, member);
    }
    fprintf(stream, "%s\n", group->label_conflict ? ": conflicting labels" : "");
}

int duplicates_print_text(FILE *stream, const struct duplicates_request *request,
                          const struct duplicates_result *result)
{
    summary_print(stream, request, result);
    for (size_t index = 0; index < result->groups.group_count; index++)
        group_print(stream, request, result, &result->groups.groups[index]);
    if (fflush(stream) != 0 || ferror(stream))
        return error_set(EXIT_WRITE, "cannot write: standard output: %s", strerror(errno));
    return EXIT_OK;
}

static json_t *files_json(const struct duplicates_request *request, const char *source)
{
    json_t *files = json_array();
    for (size_t index = 0; files != NULL && index < request->file_count; index++) {
        const struct h5py_file *file = request->files[index];
        json_t *splits = json_object();
        for (size_t split = 0; splits != NULL && split < file->split_count; split++)
            json_object_set_new(splits, file->splits[split],
                                json_integer((json_int_t)split_examples(
                                    file, file->splits[split], source)));
        json_array_append_new(files, json_pack("{s:s, s:o}", "path", file->path, "splits",
                                               splits != NULL ? splits : json_null()));
    }
    return files;
}

static json_t *member_json(const struct duplicates_request *request,
                           const struct duplicates_result *result,
                           const struct duplicate_group *group, size_t index)
{
    const struct example_record *member = &result->digests.records[group->first + index];
    const struct member_label *label =
        result->groups.labels != NULL ? &result->groups.labels[group->labelled + index] : NULL;
    const struct h5py_file *file = request->files[member->file];
    json_t *made = json_pack("{s:I, s:s, s:I}", "file", (json_int_t)member->file, "split",
                             file->splits[member->split], "index", (json_int_t)member->number);
    if (made != NULL && request->near)
        json_object_set_new(made, "distance",
                            json_integer((json_int_t)member_distance(result, group, index)));
    if (made == NULL || label == NULL || !label->known)
        return made;
    json_object_set_new(made, "label", json_integer(label->value));
    const char *name = label->value >= 0 ? class_name(&result->names[member->file],
                                                      (size_t)label->value)
                                         : NULL;
    if (name != NULL)
        json_object_set_new(made, "class", json_string(name));
    return made;
}

static json_t *group_json(const struct duplicates_request *request,
                          const struct duplicates_result *result,
                          const struct duplicate_group *group)
{
    json_t *members = json_array();
    for (size_t member = 0; members != NULL && member < group->count; member++)
        json_array_append_new(members, member_json(request, result, group, member));
    return json_pack("{s:s, s:b, s:o}", "kind", kind_keys[group->kind], "label_conflict",
                     group->label_conflict, "members", members != NULL ? members : json_null());
}

json_t *duplicates_json(const struct duplicates_request *request,
                        const struct duplicates_result *result)
{
    const struct duplicate_groups *found = &result->groups;
    json_t *groups = json_array(), *counts = json_object();
    for (size_t index = 0; groups != NULL && index < found->group_count; index++)
        json_array_append_new(groups, group_json(request, result, &found->groups[index]));
    for (int kind = 0; counts != NULL && kind < 3; kind++)
        json_object_set_new(counts, kind_keys[kind],
                            json_integer((json_int_t)found->kind_counts[kind]));
    json_t *near = request->near ? json_pack("{s:s, s:i, s:i}", "hash", "dct", "bits",
                                             PERCEPTUAL_HASH_BITS, "threshold",
                                             (int)request->threshold)
                                 : json_null();
    return json_pack("{s:s, s:s?, s:o, s:o, s:I, s:I, s:I, s:o, s:I, s:o}", "source", result->source,
                     "labels", result->labels, "near", near != NULL ? near : json_null(),
                     "files", files_json(request, result->source),
                     "examples", (json_int_t)result->examples, "group_count",
                     (json_int_t)found->group_count, "beyond_first",
                     (json_int_t)found->extra_copies, "kinds", counts != NULL ? counts : json_null(),
                     "label_conflicts", (json_int_t)found->conflict_count, "groups",
                     groups != NULL ? groups : json_null());
}
