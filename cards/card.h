/* A built-in dataset's card: where it lives, its licence (with where that was read), how to cite
   it, its class names and its known issues, written into every converted file as the root
   attribute `fuel_card` (JSON) and shown by fuel info and fuel list. */
#ifndef FUEL_CARDS_CARD_H
#define FUEL_CARDS_CARD_H

#include <jansson.h>
#include <stddef.h>

/* The names of a label source's classes, class i at i. */
struct card_classes {
    const char *source;
    const char *const *names;
    size_t count;
};

struct card_issue {
    const char *issue;
    const char *reference;
};

struct dataset_card {
    const char *dataset;        /* the dataset's name, as fuel list shows it */
    const char *homepage;
    /* An SPDX identifier where one applies, else the publisher's own words, else "not stated
       by the publisher"; LICENCE_SOURCE says where it was read. */
    const char *licence;
    const char *licence_source;
    const char *citation;       /* BibTeX */
    const struct card_classes *classes;
    size_t class_list_count;
    const struct card_issue *issues;
    size_t issue_count;
};

/* The card of the dataset NAME, NULL when it has none (extra datasets). */
const struct dataset_card *card_find(const char *name);

/* CARD as a JSON object: dataset, homepage, licence, licence_source, citation, classes (an
   object: source -> names) and known_issues ([{issue, reference}]). NULL when memory runs out. */
json_t *card_json(const struct dataset_card *card);

#endif
