/* Reads a fuel_provenance text without its inputs list standing as one tree: the members around
   it parsed as usual, its entries walked one at a time (a provenance may list a million). */
#ifndef FUEL_PROVENANCE_INPUTS_H
#define FUEL_PROVENANCE_INPUTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* What a provenance holds around its inputs list (tool, version, argv's at most 4,096 strings,
   a pack's spec, the libraries, the converter's notes: ILSVRC's at most 100,000 skipped images)
   is parsed as one tree, so its values are bounded (its bytes are, by the text's cap): a text
   with more (the whole text when it has no inputs list) is refused, as is one with two
   top-level members named "inputs". */
#define PROVENANCE_HEAD_MAX_VALUES 262144
#define PROVENANCE_HEAD_VALUES_TEXT "262144"

/* The longest entry of an inputs list (a name of PATH_MAX bytes, escaped, and its digests). */
#define PROVENANCE_ENTRY_MAX_BYTES 65536
#define PROVENANCE_ENTRY_MAX_TEXT "65536"

/* Where a text's top-level "inputs" list lies, and how far it has been walked. */
struct provenance_inputs {
    const char *text; /* NULL: the text has no top-level inputs list */
    size_t position;  /* of the next entry, or of its separating comma */
    size_t end;       /* of the list's closing bracket */
    size_t index;     /* entries read so far */
    size_t flags;     /* jansson's, for each entry */
};

/* TEXT parsed with FLAGS as provenance_text_parse does (its size cap, its NULL and ERROR), but
   without its top-level "inputs" member when that is a list: INPUTS is where it lies, for
   provenance_inputs_next (INPUTS->text NULL when there is no such list; the member is then
   parsed with the rest). NULL, ERROR saying why, beyond the limits above. TEXT must outlive
   INPUTS. */
json_t *provenance_head_parse(const char *text, size_t flags, json_error_t *error,
                              struct provenance_inputs *inputs);

/* The next entry of INPUTS into *ENTRY (caller decrefs): 1, or 0 at the list's end (and for a
   text without a list), or -1 when the list is malformed there, ERROR (may be NULL) saying why. */
int provenance_inputs_next(struct provenance_inputs *inputs, json_t **entry, json_error_t *error);

/* Called with each entry of an inputs list walked by provenance_bounded_parse (borrowed). */
typedef void provenance_entry_visit(json_t *entry, void *context);

/* TEXT parsed as provenance_head_parse does, its inputs list then walked whole: the first KEEP
   entries put back as its "inputs" member, each entry given to VISIT (may be NULL) with CONTEXT,
   *TOTAL their count (0 without a list), so that memory is bounded whatever the list's length.
   NULL as provenance_text_parse, and when the list is malformed (ERROR saying where). */
json_t *provenance_bounded_parse(const char *text, size_t flags, json_error_t *error, size_t keep,
                                 size_t *total, provenance_entry_visit *visit, void *context);

/* Whether the inputs lists of the texts LEFT and RIGHT hold equal entries, walked side by side
   (false when either has none or is malformed). */
bool provenance_inputs_equal(const char *left, const char *right);

#endif
