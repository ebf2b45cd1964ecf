/* fuel-info's card section, from the file's fuel_card attribute (cards/card.h writes it), and the
   class names a file stores beside its labels (fuel pack's SOURCE_classes). */
#include "info_card.h"

#include "common/h5py/class_names.h"

#include <stdio.h>
#include <string.h>

/* Classes shown per source before "... and N more". */
enum { CLASSES_SHOWN = 10 };

static const char *member(json_t *object, const char *key)
{
    const char *text = json_string_value(json_object_get(object, key));
    return text != NULL ? text : "";
}

/* "classes of targets: 0 airplane, 1 automobile, ..., and N more"; WHAT names the lists. A null
   (a class number without a class: the silhouettes' labels count from 1) is passed over. */
static void names_print(json_t *lists, const char *what)
{
    const char *source;
    json_t *names;
    json_object_foreach(lists, source, names) {
        printf("    %s of %s:", what, source);
        size_t index, shown = 0, named = 0;
        json_t *name;
        json_array_foreach(names, index, name) {
            named += json_is_string(name);
            if (json_is_string(name) && shown < CLASSES_SHOWN)
                printf("%s %zu %s", shown++ > 0 ? "," : "", index, json_string_value(name));
        }
        if (named > shown)
            printf(", ... and %zu more", named - shown);
        printf("\n");
    }
}

/* The citation's first line, "@article{lecun1998gradient,", names the entry. */
static void citation_print(const char *citation)
{
    const char *end = strchr(citation, '\n');
    int length = end != NULL ? (int)(end - citation) : (int)strlen(citation);
    printf("    citation: %.*s ... (fuel info --json has it whole)\n", length, citation);
}

void info_card_print(const struct h5py_file *file)
{
    const char *text = h5py_file_attribute(file, "fuel_card");
    if (text == NULL)
        return;
    json_t *card = json_loads(text, 0, NULL);
    printf("\nCard\n\n");
    if (!json_is_object(card)) {
        printf("    (not a JSON object) %s\n", text);
        json_decref(card);
        return;
    }
    printf("    homepage: %s\n", member(card, "homepage"));
    printf("    licence: %s (source: %s)\n", member(card, "licence"),
           member(card, "licence_source"));
    citation_print(member(card, "citation"));
    names_print(json_object_get(card, "classes"), "classes");
    names_print(json_object_get(card, "feature_names"), "feature names");
    size_t index;
    json_t *issue;
    json_array_foreach(json_object_get(card, "known_issues"), index, issue)
        printf("    known issue: %s (%s)\n", member(issue, "issue"), member(issue, "reference"));
    json_decref(card);
}

json_t *info_card_json(const struct h5py_file *file)
{
    const char *text = h5py_file_attribute(file, "fuel_card");
    if (text == NULL)
        return json_null();
    json_t *card = json_loads(text, 0, NULL);
    return card != NULL ? card : json_string(text);
}

/* The card's classes of SOURCE, which its section shows already. */
static bool card_names(const struct h5py_file *file, const char *source)
{
    const char *text = h5py_file_attribute(file, "fuel_card");
    json_t *card = text != NULL ? json_loads(text, 0, NULL) : NULL;
    bool found = json_object_get(json_object_get(card, "classes"), source) != NULL;
    json_decref(card);
    return found;
}

json_t *info_stored_classes_json(const struct h5py_file *file)
{
    json_t *lists = json_object();
    for (size_t index = 0; lists != NULL && index < file->source_count; index++) {
        const char *source = file->sources[index].name;
        struct class_names names;
        if (card_names(file, source) || class_names_read(file, source, &names) != 0)
            continue;
        json_t *list = names.count > 0 ? json_array() : NULL;
        for (size_t number = 0; list != NULL && number < names.count; number++) {
            const char *name = class_name(&names, number);
            json_array_append_new(list, name != NULL ? json_string(name) : json_null());
        }
        if (list != NULL)
            json_object_set_new(lists, source, list);
        class_names_free(&names);
    }
    return lists;
}

void info_stored_classes_print(const struct h5py_file *file)
{
    json_t *lists = info_stored_classes_json(file);
    if (json_object_size(lists) > 0)
        printf("\n");
    names_print(lists, "classes");
    json_decref(lists);
}
