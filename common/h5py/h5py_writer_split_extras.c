/* What Fuel's chapter 4 adds to split rows by hand: indices datasets for non-contiguous splits
   ("Non-contiguous splits") and comments other than '.'. */
#include "h5py_writer_state.h"

#include "common/base/error.h"

#include <stdlib.h>
#include <string.h>

static int split_name_check(const struct h5py_writer *writer, const char *split)
{
    if (split == NULL || split[0] == '\0')
        return error_set(EXIT_OTHER, "cannot write: %s: empty split name", writer->path);
    return EXIT_OK;
}

static int indices_check(const struct h5py_writer *writer, int indices)
{
    if (indices < 0 || (size_t)indices >= writer->source_count ||
        !writer->sources[indices].auxiliary)
        return error_set(EXIT_OTHER, "cannot write: %s: no auxiliary dataset number %d",
                         writer->path, indices);
    const struct writer_source *dataset = &writer->sources[indices];
    bool integer = dataset->type != ELEMENT_FLOAT32 && dataset->type != ELEMENT_FLOAT64 &&
                   dataset->type != ELEMENT_BOOL && dataset->type != ELEMENT_STRING;
    if (dataset->rank != 1 || dataset->variable_length || !integer)
        return error_set(EXIT_OTHER, "cannot write: %s: %s: indices must be a 1-D integer dataset",
                         writer->path, dataset->name);
    return EXIT_OK;
}

int h5py_writer_add_split_indices(struct h5py_writer *writer, const char *split,
                                  const char *source, int indices)
{
    size_t named, number;
    int result = split_name_check(writer, split);
    if (result == EXIT_OK)
        result = indices_check(writer, indices);
    if (result == EXIT_OK)
        result = h5py_writer_source_named(writer, split, source, &named);
    if (result == EXIT_OK)
        result = h5py_writer_split_number(writer, split, &number);
    for (size_t index = 0; index < writer->source_count && result == EXIT_OK; index++) {
        if (writer->sources[index].auxiliary || (source != NULL && index != named))
            continue;
        struct split_declaration declaration = {number, index, -1, -1, indices, NULL};
        result = h5py_writer_declare(writer, &declaration);
    }
    return result;
}

/* Sets the comment of DECLARATION to a copy of COMMENT. */
static int comment_set(struct h5py_writer *writer, struct split_declaration *declaration,
                       const char *comment)
{
    char *copy = strdup(comment);
    if (copy == NULL)
        return error_set(EXIT_OTHER, "cannot write: %s: out of memory", writer->path);
    free(declaration->comment);
    declaration->comment = copy;
    return EXIT_OK;
}

int h5py_writer_comment_split(struct h5py_writer *writer, const char *split, const char *source,
                              const char *comment)
{
    int result = split_name_check(writer, split);
    if (result == EXIT_OK && (comment == NULL || comment[0] == '\0'))
        result = error_set(EXIT_OTHER, "cannot write: %s: split %s: empty comment", writer->path,
                           split);
    size_t named, number;
    if (result == EXIT_OK)
        result = h5py_writer_source_named(writer, split, source, &named);
    for (number = 0; number < writer->split_count; number++)
        if (strcmp(writer->split_names[number], split) == 0)
            break;
    if (result == EXIT_OK && number == writer->split_count)
        result = error_set(EXIT_OTHER, "cannot write: %s: comment of undeclared split %s",
                           writer->path, split);
    bool commented = false;
    for (size_t index = 0; index < writer->source_count && result == EXIT_OK; index++) {
        struct split_declaration *declaration = h5py_writer_declaration(writer, number, index);
        if (declaration == NULL || (source != NULL && index != named))
            continue;
        result = comment_set(writer, declaration, comment);
        commented = true;
    }
    if (result == EXIT_OK && !commented)
        result = error_set(EXIT_OTHER, "cannot write: %s: comment of split %s: no such row",
                           writer->path, split);
    return result;
}
