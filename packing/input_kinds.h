/* The input readers, one per kind of `from` entry (input_kind_reader picks them), and what the
   .npy-based ones share. */
#ifndef FUEL_PACK_INPUT_KINDS_H
#define FUEL_PACK_INPUT_KINDS_H

#include "input.h"

struct npy_array;

extern const struct input_kind_reader npy_input_reader;
extern const struct input_kind_reader npz_input_reader;
extern const struct input_kind_reader csv_input_reader;
extern const struct input_kind_reader hdf5_input_reader;
extern const struct input_kind_reader images_input_reader;
extern const struct input_kind_reader arrays_input_reader;

/* FACTS of a .npy's ARRAY (read from PATH): its type, first axis as the examples, the rest as
   their shape. */
int npy_array_facts(const struct npy_array *array, const char *path, struct input_facts *facts);

/* EXIT_CORRUPT_INPUT when ARRAY no longer declares what FACTS recorded of it. */
int npy_facts_agree(const struct npy_array *array, const char *path,
                    const struct input_facts *facts);

#endif
