/* The ILSVRC conversion, as Fuel's convert_ilsvrc2012 and convert_ilsvrc2010 lay out their files:
   encoded_images (each image's bytes as stored, uint8 variable-length, no shapes), targets int16
   (N, 1) and filenames S32 (N, 1); splits train, valid, test in that order (2012's test split
   has no targets); the training examples at the places of numpy's
   RandomState(shuffle_seed).permutation(n_train), the i-th image read going to place
   permutation[i]. Everything is checked before the first write: the devkit, the ground truths'
   line counts against the archives' listed members. With --skip-bad a first pass only checks
   every image, and the second writes the others (the places computed from what is kept). */
#include "ilsvrc_conversion.h"
#include "common/base/input_file.h"

#include "common/base/error.h"
#include "common/base/numpy_random.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What an archive may hold: ILSVRC2012's test archive holds 100,000 images, a per-class tar
   about 1,300 (bounds against a hostile archive). */
static const struct sorted_members_limits member_limits = {
    .maximum_members = 10000000, .maximum_member_bytes = ILSVRC_MAXIMUM_IMAGE_BYTES};

const struct ilsvrc_options ilsvrc_option_defaults = {.shuffle_seed = 1};

const struct command_option ilsvrc_option_table[2] = {
    {.long_name = "shuffle-seed", .kind = OPTION_INTEGER,
     .offset = offsetof(struct ilsvrc_options, shuffle_seed), .argument = "SEED",
     .minimum = 0, .maximum = 4294967295.0,
     .help = "seed of numpy's RandomState whose permutation places the training images on disk "
             "(default: 1, Fuel's default_seed)"},
    {.long_name = "skip-bad", .kind = OPTION_FLAG, .offset = offsetof(struct ilsvrc_options, skip_bad),
     .help = "leave out the images that do not decode (recorded in the provenance) instead of "
             "failing; reads the archives twice"},
};

static const char *const split_names[SPLIT_COUNT] = ILSVRC_SPLITS;

void ilsvrc_path(const struct ilsvrc_conversion *conversion, size_t file, char *path, size_t size)
{
    converter_input_path(conversion->arguments, file, path, size);
}

/* 2010's test ground truth, a public text file beside the archives. */
static int read_test_truth(struct ilsvrc_conversion *conversion)
{
    if (conversion->layout->test_truth_file == ILSVRC_NONE)
        return EXIT_OK;
    char path[4096];
    ilsvrc_path(conversion, conversion->layout->test_truth_file, path, sizeof path);
    FILE *file = input_file_stream(path);
    if (file == NULL)
        return input_open_failure(path);
    char *text = malloc(64u << 20);
    size_t size = text != NULL ? fread(text, 1, 64u << 20, file) : 0;
    int result = text == NULL ? error_set(EXIT_OTHER, "cannot convert: out of memory")
                 : ferror(file) ? error_set(EXIT_OTHER, "cannot read: %s: %s", path,
                                            error_system_reason())
                 : size == 64u << 20 ? error_set(EXIT_CORRUPT_INPUT, "malformed ground truth: "
                                                 "%s: more than 64 MiB", path)
                                     : EXIT_OK;
    fclose(file);
    if (result == EXIT_OK)
        result = ilsvrc_truth_parse(&conversion->devkit, text, size, path,
                                    &conversion->test_targets, &conversion->test_target_count);
    free(text);
    return result;
}

/* Lists the validation and test archives and checks their counts against the ground truths. */
static int list_flat_archives(struct ilsvrc_conversion *conversion)
{
    const size_t files[SPLIT_COUNT] = {0, conversion->layout->valid_file,
                                       conversion->layout->test_file};
    const size_t truths[SPLIT_COUNT] = {0, conversion->devkit.valid_count,
                                        conversion->test_target_count};
    int result = EXIT_OK;
    for (int split = SPLIT_VALID; result == EXIT_OK && split < SPLIT_COUNT; split++) {
        char path[4096];
        ilsvrc_path(conversion, files[split], path, sizeof path);
        result = sorted_members_create(&conversion->listed[split],
                                       conversion->arguments->scratch_directory, &member_limits);
        if (result == EXIT_OK)
            result = sorted_members_list(conversion->listed[split], path);
        size_t count = result == EXIT_OK ? sorted_members_count(conversion->listed[split]) : 0;
        bool truth = split == SPLIT_VALID || conversion->layout->test_truth_file != ILSVRC_NONE;
        if (result == EXIT_OK && truth && count != truths[split])
            result = error_set(EXIT_CORRUPT_INPUT, "ground truth does not match: %s holds %zu "
                               "images, its ground truth has %zu lines", path, count,
                               truths[split]);
    }
    return result;
}

static int declare_sources(struct ilsvrc_conversion *conversion, uint64_t total)
{
    bool test_targets = conversion->layout->test_truth_file != ILSVRC_NONE;
    uint64_t labelled = test_targets ? total : total - conversion->kept[SPLIT_TEST];
    const struct h5py_source_declaration sources[3] = {
        {.name = "encoded_images", .type = ELEMENT_UINT8, .rank = 1, .shape = {total},
         .variable_length = true, .example_rank = 0},
        {.name = "targets", .type = ELEMENT_INT16, .rank = 2, .shape = {labelled, 1}},
        {.name = "filenames", .type = ELEMENT_STRING, .string_length = ILSVRC_FILENAME_BYTES,
         .rank = 2, .shape = {total, 1}},
    };
    int result = EXIT_OK;
    for (int source = 0; result == EXIT_OK && source < 3; source++)
        result = h5py_writer_add_source(conversion->writer, &sources[source],
                                        &conversion->sources[source]);
    const char *const names[3] = {"encoded_images", "targets", "filenames"};
    for (int split = 0; result == EXIT_OK && split < SPLIT_COUNT; split++)
        for (int source = 0; result == EXIT_OK && source < 3; source++) {
            if (split == SPLIT_TEST && source == 1 && !test_targets)
                continue;
            uint64_t start = conversion->starts[split];
            result = h5py_writer_add_split(conversion->writer, split_names[split], names[source],
                                           start, start + conversion->kept[split]);
        }
    return result;
}

/* Reads every image of every split, once: checking only, or writing. */
static int read_all(struct ilsvrc_conversion *conversion)
{
    int result = ilsvrc_queue_start(conversion);
    if (result == EXIT_OK)
        result = ilsvrc_read_train(conversion);
    if (result == EXIT_OK)
        result = ilsvrc_patches_check_used(conversion, SPLIT_TRAIN);
    for (int split = SPLIT_VALID; result == EXIT_OK && split < SPLIT_COUNT; split++) {
        result = ilsvrc_read_flat(conversion, (enum ilsvrc_split)split);
        if (result == EXIT_OK)
            result = ilsvrc_patches_check_used(conversion, (enum ilsvrc_split)split);
    }
    ilsvrc_queue_stop(conversion);
    for (size_t index = 0; index < conversion->patch_count; index++)
        conversion->patches[index].used = false;
    return result;
}

/* The splits' sizes once the bad images are left out, their starts, the training permutation. */
static int plan_places(struct ilsvrc_conversion *conversion)
{
    const uint64_t read[SPLIT_COUNT] = {
        conversion->devkit.train_images, sorted_members_count(conversion->listed[SPLIT_VALID]),
        sorted_members_count(conversion->listed[SPLIT_TEST])};
    uint64_t start = 0;
    for (int split = 0; split < SPLIT_COUNT; split++) {
        conversion->kept[split] = read[split] - conversion->bad_in[split];
        conversion->starts[split] = start;
        start += conversion->kept[split];
    }
    size_t count = (size_t)conversion->kept[SPLIT_TRAIN];
    conversion->permutation = malloc((count > 0 ? count : 1) * sizeof *conversion->permutation);
    if (conversion->permutation == NULL)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    numpy_permutation((uint32_t)conversion->options->shuffle_seed, count, conversion->permutation);
    return EXIT_OK;
}

static int prepare(struct ilsvrc_conversion *conversion)
{
    char path[4096];
    ilsvrc_path(conversion, conversion->layout->devkit_file, path, sizeof path);
    converter_report_stage(conversion->arguments, path, 0);
    int result = ilsvrc_devkit_read(path, conversion->layout, conversion->arguments->threads,
                                    &conversion->devkit);
    /* The card's class names: target i is the devkit's synset i, named by its WNID. */
    for (size_t class = 0; result == EXIT_OK && class < conversion->devkit.class_count; class++)
        result = converter_card_name_append(conversion->arguments, "classes", "targets",
                                            conversion->devkit.wnids[class]);
    if (result == EXIT_OK)
        result = read_test_truth(conversion);
    if (result == EXIT_OK)
        result = sorted_members_create(&conversion->inner,
                                       conversion->arguments->scratch_directory, &member_limits);
    if (result == EXIT_OK)
        result = list_flat_archives(conversion);
    if (result == EXIT_OK)
        result = ilsvrc_patches_read(conversion);
    return result;
}

static void release(struct ilsvrc_conversion *conversion)
{
    ilsvrc_devkit_free(&conversion->devkit);
    free(conversion->test_targets);
    free(conversion->permutation);
    sorted_members_free(conversion->inner);
    for (int split = 0; split < SPLIT_COUNT; split++)
        sorted_members_free(conversion->listed[split]);
    ilsvrc_patches_free(conversion);
    for (size_t index = 0; index < conversion->bad_count; index++)
        free(conversion->bad[index]);
    free(conversion->bad);
}

int ilsvrc_convert(const struct converter_arguments *arguments, const struct ilsvrc_layout *layout,
                   struct h5py_writer *writer)
{
    struct ilsvrc_conversion conversion = {
        .arguments = arguments, .layout = layout,
        .options = arguments->options != NULL ? arguments->options : &ilsvrc_option_defaults};
    int result = prepare(&conversion);
    if (result == EXIT_OK && conversion.options->skip_bad) {
        conversion.checking = true;
        result = read_all(&conversion);
        conversion.checking = false;
        ilsvrc_sort_bad(&conversion);
    }
    if (result == EXIT_OK)
        result = plan_places(&conversion);
    conversion.writer = writer;
    uint64_t total = conversion.starts[SPLIT_TEST] + conversion.kept[SPLIT_TEST];
    if (result == EXIT_OK)
        result = declare_sources(&conversion, total);
    if (result == EXIT_OK)
        result = read_all(&conversion);
    release(&conversion);
    return result;
}
