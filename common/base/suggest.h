/* The names closest to a mistyped one ("did you mean `mnist`?") and lists of the valid ones, for
   every message that refuses a name: commands, datasets, options, choices, splits, sources. */
#ifndef FUEL_SUGGEST_H
#define FUEL_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>

#define SUGGESTION_MAX 4

/* The candidates offered so far that are closest to TYPED. */
struct suggestion {
    const char *typed;
    const char *best[SUGGESTION_MAX];
    size_t count;
    size_t distance; /* of the best; (size_t)-1 until one is close enough */
};

void suggestion_begin(struct suggestion *suggestion, const char *typed);

/* Considers CANDIDATE (kept by pointer): names equal but for case, '-' and '_' are the closest
   (fashion-mnist, FashionMNIST: fashion_mnist), then a prefix of it or one within a small edit
   distance, a swap of two neighbours counting as one edit (mnsit: mnist). */
void suggestion_offer(struct suggestion *suggestion, const char *candidate);

/* "did you mean `mnist`?", "did you mean `cifar10` or `cifar100`?" into TEXT; false, TEXT "",
   when no candidate was close. */
bool suggestion_text(const struct suggestion *suggestion, char *text, size_t size);

/* NAMES joined by ", " into TEXT, cut with "..." when it does not fit. */
void names_join(char *text, size_t size, const char *const *names, size_t count);

/* The words of the space-separated WORDS joined by ", " into TEXT. */
void words_join(char *text, size_t size, const char *words);

#endif
