/* ILSVRC2012's converter: the devkit and the training, validation and test archives
   (downloaders/ilsvrc2012.c) into ilsvrc2012.hdf5, as Fuel's convert_ilsvrc2012 writes it. */
#include "converter.h"
#include "downloaders/ilsvrc2012.h"
#include "ilsvrc.h"

static int convert(const struct converter_arguments *arguments, struct h5py_writer *writer)
{
    return ilsvrc_convert(arguments, &ilsvrc2012_layout, writer);
}

const struct converter ilsvrc2012_converter = {
    .summary = "ILSVRC2012: the devkit and the image archives (a tar of per-class tars) into "
               "ilsvrc2012.hdf5, each JPEG as stored",
    .inputs = {ILSVRC2012_DEVKIT, ILSVRC2012_TRAIN, ILSVRC2012_VALID, ILSVRC2012_TEST},
    .input_count = ILSVRC2012_FILE_COUNT,
    .options = ilsvrc_option_table,
    .option_count = 2,
    .options_size = sizeof(struct ilsvrc_options),
    .option_defaults = &ilsvrc_option_defaults,
    .output_file = "ilsvrc2012.hdf5",
    .convert = convert,
};
