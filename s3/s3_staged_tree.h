/* The files of a local staging bound for S3: every regular file below it, hidden ones (a
   component starting with '.': locks, records, nested stagings) left out, by relative name in
   byte order, so a set's upload follows one fixed order. */
#ifndef FUEL_S3_STAGED_TREE_H
#define FUEL_S3_STAGED_TREE_H

#include <stddef.h>

struct s3_staged_tree {
    char **names;       /* relative to the staging, '/'-separated */
    size_t count, capacity;
};

/* Lists the files below ROOT into TREE. EXIT_MISSING_INPUT when a directory cannot be read,
   EXIT_OTHER when out of memory. */
int s3_staged_tree_list(struct s3_staged_tree *tree, const char *root);
void s3_staged_tree_free(struct s3_staged_tree *tree);

#endif
