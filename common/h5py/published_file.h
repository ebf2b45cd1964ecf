/* The one way an H5PYDataset file is published: a writer filled into a temporary, its provenance
   and Fuel's attributes written, then renamed whole (fuel convert, fetch, fixture and pack). */
#ifndef FUEL_PUBLISHED_FILE_H
#define FUEL_PUBLISHED_FILE_H

#include "common/base/typed_command.h"
#include "h5py_writer.h"
#include "provenance.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* What fills a published file's writer: FILL(CONTEXT, writer). */
/* Fills WRITER; PROVENANCE takes the digests of the inputs the record flags as supplied. */
struct published_filler {
    int (*fill)(void *context, struct h5py_writer *writer, struct provenance *provenance);
    void *context;
};

/* What a filled file's provenance records: the INPUTS hashed (recorded under INPUT_NAMES, NULL:
   their file names), and NOTE (a JSON object; NULL: none) first under NOTE_KEY. */
struct published_record {
    const char *const *inputs;
    const char *const *input_names;
    size_t input_count;
    const char *note_key;
    json_t *note;
    const struct typed_command *typed; /* the command line the file records */
    json_t *notes; /* the converter's notes, last in the provenance under "conversion"; NULL */
    json_t *card;  /* the dataset's card, written as fuel_card (its classes of sources the file
                      holds); NULL: none */
    bool raw_files; /* the inputs are a dataset's raw files: their md5 recorded too */
    const bool *supplied; /* the inputs whose bytes the filler supplies (NULL: none) */
    /* The filler reads the inputs through common/base/input_file.h: their digests come from the
       bytes it reads (provenance_begin_read), not from a thread reading them again. */
    bool read_through_inputs;
    const bool *apart; /* with it, the inputs read otherwise (HDF5 files; NULL: none), hashed on a
                          thread while the filler runs */
    /* What each raw input's record publishes (NULL: nothing known): see struct
       provenance_publication. */
    const struct provenance_publication *published;
};

/* The writer filled by FILLER into DIRECTORY/NAME with RECORD's provenance, published only when
   complete; writes the final path into PATH. */
int published_file_write(const struct published_filler *filler,
                         const struct published_record *record, const char *directory,
                         const char *name, char *path, size_t size);

#endif
