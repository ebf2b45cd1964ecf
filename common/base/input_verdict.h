/* The one verdict on whether a dataset's inputs are its published files, and its one sentence:
   fuel download, list --verify, info, info --check --verify-inputs and reproduce all hand their
   evidence (one verdict per file, with the reason where it is not the published file) here. */
#ifndef FUEL_INPUT_VERDICT_H
#define FUEL_INPUT_VERDICT_H

#include <stddef.h>
#include <stdio.h>

enum input_verdict {
    INPUT_VERDICT_FILES,   /* the published bytes */
    INPUT_VERDICT_CONTENT, /* other bytes, the published content once decompressed */
    INPUT_VERDICT_NOT,     /* other bytes and other content, or not a published file at all */
    INPUT_VERDICT_UNKNOWN, /* nothing to check against, or not checked */
};

/* One input as a command found it. */
struct input_evidence {
    const char *name;
    enum input_verdict verdict;
    const char *reason; /* why NOT or UNKNOWN ("26421856 bytes, published 26421880"); NULL */
};

/* NOT when any input is not published, else UNKNOWN when any is unchecked (or none is given),
   else CONTENT when any is re-compressed, else FILES. */
enum input_verdict input_verdict_combine(const struct input_evidence *inputs, size_t count);

/* "the published files", "the published content, re-compressed", "not the published files",
   "not checked against the published files". */
const char *input_verdict_words(enum input_verdict verdict);

/* The JSON value: "files", "content", "no", "unknown". */
const char *input_verdict_value(enum input_verdict verdict);

/* Prints "inputs of DATASET: WORDS", then for CONTENT the re-compressed inputs' names, for NOT and
   UNKNOWN each input that is not the published file with its reason:
     "inputs of mnist: the published files"
     "inputs of fashion_mnist: the published content, re-compressed: a.gz, b.gz"
     "inputs of svhn 2: not the published files: train_32x32.mat (N bytes, published M)"
   and "inputs of DATASET: none recorded" when COUNT is 0. No newline. */
void input_verdict_print(FILE *stream, const char *dataset, const struct input_evidence *inputs,
                         size_t count);

/* The same sentence, malloc'd (caller frees); NULL when out of memory. */
char *input_verdict_sentence(const char *dataset, const struct input_evidence *inputs,
                             size_t count);

#endif
