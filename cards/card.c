/* Finds a built-in dataset's card and renders it as JSON. */
#include "card.h"

#include "card_list.h"

#include <string.h>

/* Each dataset's card, a name's formats (svhn 1, svhn 2) listing the same one. */
static const struct dataset_card *const cards[] = {
#define DATASET(identifier, fixture_place, card) &card##_card,
#include "downloaders/datasets.def"
#undef DATASET
};

const struct dataset_card *card_find(const char *name)
{
    for (size_t index = 0; index < sizeof cards / sizeof cards[0]; index++)
        if (strcmp(cards[index]->dataset, name) == 0)
            return cards[index];
    return NULL;
}

static json_t *classes_json(const struct dataset_card *card)
{
    json_t *classes = json_object();
    for (size_t list = 0; classes != NULL && list < card->class_list_count; list++) {
        json_t *names = json_array();
        for (size_t index = 0; names != NULL && index < card->classes[list].count; index++)
            json_array_append_new(names, json_string(card->classes[list].names[index]));
        json_object_set_new(classes, card->classes[list].source, names);
    }
    return classes;
}

static json_t *issues_json(const struct dataset_card *card)
{
    json_t *issues = json_array();
    for (size_t index = 0; issues != NULL && index < card->issue_count; index++)
        json_array_append_new(issues, json_pack("{ss ss}", "issue", card->issues[index].issue,
                                                "reference", card->issues[index].reference));
    return issues;
}

json_t *card_json(const struct dataset_card *card)
{
    return json_pack("{ss ss ss ss ss so so}", "dataset", card->dataset, "homepage",
                     card->homepage, "licence", card->licence, "licence_source",
                     card->licence_source, "citation", card->citation, "classes",
                     classes_json(card), "known_issues", issues_json(card));
}
