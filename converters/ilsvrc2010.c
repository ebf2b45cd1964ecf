/* ILSVRC2010's converter: the devkit, the test ground truth, the image archives and the patch
   images (downloaders/ilsvrc2010.c) into ilsvrc2010.hdf5, as Fuel's convert_ilsvrc2010 writes it:
   every split with targets, the patches in place of the images they replace, the gzip-wrapped
   JPEGs of the training archive stored inflated. */
#include "converter.h"
#include "downloaders/ilsvrc2010.h"
#include "ilsvrc.h"

static int convert(const struct converter_arguments *arguments, struct h5py_writer *writer)
{
    return ilsvrc_convert(arguments, &ilsvrc2010_layout, writer);
}

const struct converter ilsvrc2010_converter = {
    .summary = "ILSVRC2010: the devkit, the test ground truth, the image archives and the patch "
               "images into ilsvrc2010.hdf5, each JPEG as stored (gzip-wrapped ones inflated)",
    .inputs = {ILSVRC2010_TEST_TRUTH, ILSVRC2010_DEVKIT, ILSVRC2010_TRAIN, ILSVRC2010_VALID,
               ILSVRC2010_TEST, ILSVRC2010_PATCHES},
    .input_count = ILSVRC2010_FILE_COUNT,
    .options = ilsvrc_option_table,
    .option_count = 2,
    .options_size = sizeof(struct ilsvrc_options),
    .option_defaults = &ilsvrc_option_defaults,
    .output_file = "ilsvrc2010.hdf5",
    .convert = convert,
};
