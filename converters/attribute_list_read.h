/* Reads attribute lists laid out as CelebA's list_attr_celeba.txt: a line with the image count, a
   line of attribute names, then a line per image: its file name and one value per attribute, -1
   or 1, separated by spaces. */
#ifndef FUEL_ATTRIBUTE_LIST_READ_H
#define FUEL_ATTRIBUTE_LIST_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Lines longer than this are refused, so a line never needs more memory. */
#define ATTRIBUTE_LIST_MAX_LINE 4096

struct attribute_list;

/* Opens PATH, whose lines list ATTRIBUTES values, and reads its two header lines.
   EXIT_MISSING_INPUT when it cannot be opened; EXIT_CORRUPT_INPUT "malformed attribute list:
   PATH:LINE: why" when the first line is not a count or the second does not name ATTRIBUTES
   attributes. */
int attribute_list_open(struct attribute_list **list, const char *path, size_t attributes);

/* The image count the first line declares. */
uint64_t attribute_list_declared(const struct attribute_list *list);

/* Reads the next non-blank line: the image's file name into *NAME (valid until the next call),
   its values as (value + 1) / 2 into VALUES (ATTRIBUTES bytes, 0 or 1), its line number into
   *LINE; *READ is false at the end, once the lines read are checked against the declared count.
   EXIT_CORRUPT_INPUT "malformed attribute list: PATH:LINE: why" for a line with another count of
   values, a value other than -1 or 1, a NUL byte or more than ATTRIBUTE_LIST_MAX_LINE bytes. */
int attribute_list_next(struct attribute_list *list, const char **name, uint8_t *values,
                        unsigned long *line, bool *read);

void attribute_list_close(struct attribute_list *list);

#endif
