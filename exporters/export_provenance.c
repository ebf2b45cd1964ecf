/* Builds each exported set's provenance JSON around the common fuel_provenance document. */
#include "export_provenance.h"

#include "common/base/error.h"
#include "common/base/provenance_inputs.h"
#include "common/h5py/provenance.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* The input's recorded inputs kept in each set's provenance; a longer list (a packed folder of
   millions) is counted in input_provenance_input_count, the input's sha256 naming the rest. */
#define EXPORT_INPUTS_KEPT 4096

struct export_provenance {
    const struct export_request *request;
    struct provenance *hashing; /* until finished */
    json_t *base;               /* then the finished document */
    json_t *input_provenance;   /* the input's fuel_provenance, null when it has none */
    size_t input_inputs;        /* the entries of its inputs list */
};

int export_provenance_begin(struct export_provenance **provenance,
                            const struct export_request *request)
{
    struct export_provenance *made = calloc(1, sizeof *made);
    if (made == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    made->request = request;
    made->input_provenance = json_null();
    const char *inputs[] = {request->input_path};
    int result = provenance_begin_read(&made->hashing, request->argc, request->argv, inputs, NULL,
                                       1, false, NULL, NULL, NULL);
    if (result != EXIT_OK) {
        export_provenance_free(made);
        return result;
    }
    *provenance = made;
    return EXIT_OK;
}

void export_provenance_input(struct export_provenance *provenance, const struct h5py_file *file)
{
    const char *text = h5py_file_attribute(file, "fuel_provenance");
    json_t *parsed = text ? provenance_bounded_parse(text, 0, NULL, EXPORT_INPUTS_KEPT,
                                                     &provenance->input_inputs, NULL, NULL)
                          : NULL;
    if (parsed != NULL) {
        json_decref(provenance->input_provenance);
        provenance->input_provenance = parsed;
    }
}

int export_provenance_finish(struct export_provenance *provenance)
{
    if (provenance->base != NULL)
        return EXIT_OK;
    char *text = provenance_finish(provenance->hashing);
    provenance->hashing = NULL;
    if (text == NULL)
        return error_code();
    provenance->base = json_loads(text, 0, NULL);
    free(text);
    return provenance->base ? EXIT_OK : error_set(EXIT_OTHER, "cannot build the provenance");
}

/* The set's entries staged so far and LISTING, unless named already. */
static json_t *files_list(const struct export_set *set, const char *listing)
{
    json_t *files = json_array();
    bool listed = false;
    for (size_t index = 0; files != NULL && index < set->entry_count; index++) {
        listed = listed || strcmp(set->entries[index], listing) == 0;
        json_array_append_new(files, json_string(set->entries[index]));
    }
    if (files != NULL && !listed)
        json_array_append_new(files, json_string(listing));
    return files;
}

char *export_provenance_text(struct export_provenance *provenance, const char *split,
                             const char *data, const struct export_set *set,
                             const char *listing)
{
    if (export_provenance_finish(provenance) != EXIT_OK)
        return NULL;
    const struct export_request *request = provenance->request;
    json_t *document = json_deep_copy(provenance->base);
    json_t *export = json_pack("{s:s, s:s, s:s?, s:s}", "form", request->form, "split", split,
                               "data", data, "command", request->command);
    if (export != NULL && set != NULL)
        json_object_set_new(export, "files", files_list(set, listing));
    char *text = NULL;
    if (document != NULL && export != NULL) {
        json_object_set(document, "export", export);
        json_object_set(document, "input_provenance", provenance->input_provenance);
        if (provenance->input_inputs > EXPORT_INPUTS_KEPT)
            json_object_set_new(document, "input_provenance_input_count",
                                json_integer((json_int_t)provenance->input_inputs));
        text = json_dumps(document, JSON_INDENT(2) | JSON_SORT_KEYS);
    }
    json_decref(export);
    json_decref(document);
    if (text == NULL)
        error_set(EXIT_OTHER, "cannot build the provenance: out of memory");
    return text;
}

void export_provenance_free(struct export_provenance *provenance)
{
    if (provenance == NULL)
        return;
    provenance_discard(provenance->hashing);
    json_decref(provenance->base);
    json_decref(provenance->input_provenance);
    free(provenance);
}
