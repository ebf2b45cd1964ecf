/* ILSVRC raw fixtures: a devkit whose meta.mat is a MATLAB v5 struct array of 6 synsets (4 leaf
   classes with the real first four WNIDs, 2 parents; for 2010 the cost matrix too), a training
   tar holding one plain tar per class (classes and images in an unsorted order), validation and
   test tars of PREFIX%08u.JPEG images in an unsorted order, the validation ground truth in sorted
   order. The images are real JPEGs of photo-like colour pictures, a few grayscale or CMYK, one a
   PNG named .JPEG (as the real training set holds), and for 2010 some wrapped in gzip, a test
   ground truth and patch_images.tar replacing one image of each split. */
#include "ilsvrc.h"

#include "common/base/error.h"
#include "common/formats/fixture_marker.h"
#include "common/formats/jpeg_writer.h"
#include "common/formats/matlab_v5_writer.h"
#include "common/formats/png_writer.h"
#include "common/formats/tar_writer.h"
#include "pictures.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

enum { LEAVES = 4, SYNSETS = 6, MAXIMUM_SIDE = 64 };

const char *const ilsvrc_fixture_splits[3] = {"train", "valid", "test"};

static const char *const wnids[SYNSETS] = {"n01440764", "n01443537", "n01484850", "n01491361",
                                           "n01439121", "n00001740"};
static const char *const words[SYNSETS] = {"tench, Tinca tinca", "goldfish, Carassius auratus",
                                           "great white shark", "tiger shark",
                                           "cyprinid", "entity"};
/* The order the per-class tars come in the training archive. */
static const int class_order[LEAVES] = {2, 0, 3, 1};

/* An encoded image: its bytes (JPEG, PNG, or either in gzip). */
struct image {
    struct jpeg_bytes jpeg;
    struct png_bytes png;
    unsigned char *gzip;
    size_t gzip_size;
    const unsigned char *bytes;
    size_t size;
};

enum image_kind { KIND_RGB, KIND_GREY, KIND_CMYK, KIND_PNG };

static int gzip_wrap(struct image *image)
{
    z_stream stream = {0};
    uLong bound = compressBound((uLong)image->size) + 64;
    free(image->gzip);
    image->gzip = malloc(bound);
    if (image->gzip == NULL || deflateInit2(&stream, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return error_set(EXIT_OTHER, "cannot write fixture: out of memory");
    stream.next_in = (Bytef *)image->bytes;
    stream.avail_in = (uInt)image->size;
    stream.next_out = image->gzip;
    stream.avail_out = (uInt)bound;
    int status = deflate(&stream, Z_FINISH);
    image->gzip_size = stream.total_out;
    deflateEnd(&stream);
    if (status != Z_STREAM_END)
        return error_set(EXIT_OTHER, "cannot write fixture: deflate failed");
    image->bytes = image->gzip;
    image->size = image->gzip_size;
    return EXIT_OK;
}

/* A picture of KIND, its sides drawn from RANDOM. */
static int image_make(struct random_state *random, enum image_kind kind, bool gzip,
                      struct image *image)
{
    uint32_t height = 24 + (uint32_t)random_below(random, MAXIMUM_SIDE - 23);
    uint32_t width = 24 + (uint32_t)random_below(random, MAXIMUM_SIDE - 23);
    static uint8_t planar[3 * MAXIMUM_SIDE * MAXIMUM_SIDE], pixels[4 * MAXIMUM_SIDE * MAXIMUM_SIDE];
    picture_colour(random, planar, height, width);
    size_t area = (size_t)height * width;
    uint32_t channels = kind == KIND_GREY ? 1 : kind == KIND_CMYK ? 4 : 3;
    /* CMYK as PIL converts RGB: C, M, Y the complements of R, G, B, no black. */
    for (size_t at = 0; at < area; at++)
        for (uint32_t channel = 0; channel < channels; channel++)
            pixels[at * channels + channel] =
                kind != KIND_CMYK ? planar[channel * area + at]
                : channel < 3     ? (uint8_t)(255 - planar[channel * area + at])
                                  : 0;
    int result;
    if (kind == KIND_PNG) {
        result = png_encode_rgb(planar, height, width, &image->png);
        image->bytes = image->png.data;
        image->size = image->png.size;
    } else {
        result = jpeg_encode(pixels, height, width, channels, 90, &image->jpeg);
        image->bytes = image->jpeg.data;
        image->size = image->jpeg.size;
    }
    return result == EXIT_OK && gzip ? gzip_wrap(image) : result;
}

static void image_free(struct image *image)
{
    jpeg_bytes_free(&image->jpeg);
    png_bytes_free(&image->png);
    free(image->gzip);
}

/* The kind of the N-th image of the training set (a few of each special kind). */
static enum image_kind train_kind(uint64_t image)
{
    return image == 1 ? KIND_PNG : image % 7 == 3 ? KIND_CMYK : image % 7 == 5 ? KIND_GREY
                                                                              : KIND_RGB;
}

static int add_image(struct tar_writer *archive, struct random_state *random, const char *name,
                     enum image_kind kind, bool gzip, struct image *image)
{
    int result = image_make(random, kind, gzip, image);
    return result == EXIT_OK ? tar_writer_add_bytes(archive, name, image->bytes, image->size)
                             : result;
}

/* A member position in an unsorted order: the reverse of every other, then the rest. */
static uint64_t shuffled(uint64_t index, uint64_t count)
{
    uint64_t half = (count + 1) / 2;
    return index < half ? count - 1 - 2 * index : 2 * (index - half) + (count % 2 == 1);
}

struct fixture_writing {
    const struct fixture_request *request;
    const struct ilsvrc_layout *layout;
    bool gzip_members;
    const char *directory;
    struct random_state random;
    struct image image;
    uint64_t per_class[LEAVES];
    uint64_t train_written;
};

/* One class's plain tar of images WNID_N.JPEG, written at PATH. */
static int write_class_tar(struct fixture_writing *writing, int class, const char *path)
{
    struct tar_writer *archive;
    int result = tar_writer_open_plain(&archive, path, writing->request->mtime);
    uint64_t count = writing->per_class[class];
    for (uint64_t index = 0; result == EXIT_OK && index < count; index++) {
        char name[64];
        snprintf(name, sizeof name, "%s_%llu.JPEG", wnids[class],
                 (unsigned long long)(1000 + 37 * shuffled(index, count)));
        uint64_t image = writing->train_written++;
        bool gzip = writing->gzip_members && image % 3 == 2;
        result = add_image(archive, &writing->random, name, train_kind(image), gzip,
                           &writing->image);
    }
    return tar_writer_finish(archive, result);
}

static int write_train(struct fixture_writing *writing)
{
    char path[4096], inner[4200];
    fixture_file_path(writing->request, writing->layout->train_file, writing->directory, path,
                      sizeof path);
    snprintf(inner, sizeof inner, "%s.class", path);
    struct tar_writer *archive;
    int result = tar_writer_open_plain(&archive, path, writing->request->mtime);
    for (int position = 0; result == EXIT_OK && position < LEAVES; position++) {
        int class = class_order[position];
        if (writing->per_class[class] == 0)
            continue;
        char name[64];
        snprintf(name, sizeof name, "%s.tar", wnids[class]);
        result = write_class_tar(writing, class, inner);
        if (result == EXIT_OK)
            result = tar_writer_add_file(archive, name, inner);
        unlink(inner);
    }
    return tar_writer_finish(archive, result);
}

/* The validation or test archive: COUNT images PREFIX%08u.JPEG (from 1), unsorted. */
static int write_flat(struct fixture_writing *writing, size_t file, const char *prefix,
                      uint64_t count)
{
    char path[4096];
    fixture_file_path(writing->request, file, writing->directory, path, sizeof path);
    struct tar_writer *archive;
    int result = tar_writer_open_plain(&archive, path, writing->request->mtime);
    for (uint64_t index = 0; result == EXIT_OK && index < count; index++) {
        char name[96];
        snprintf(name, sizeof name, "%s%08llu.JPEG", prefix,
                 (unsigned long long)shuffled(index, count) + 1);
        result = add_image(archive, &writing->random, name, index % 5 == 4 ? KIND_GREY : KIND_RGB,
                           false, &writing->image);
    }
    return tar_writer_finish(archive, result);
}

/* The ids (1..LEAVES) of COUNT images' classes, one a line, drawn from STREAM. */
static int write_truth_lines(const struct fixture_request *request, uint64_t stream,
                             uint64_t count, char **text, size_t *size)
{
    struct random_state random;
    random_seed(&random, request->seed, stream);
    *text = malloc(count * 4 + 1);
    if (*text == NULL)
        return error_set(EXIT_OTHER, "cannot write fixture: out of memory");
    *size = 0;
    for (uint64_t line = 0; line < count; line++)
        *size += (size_t)sprintf(*text + *size, "%d\n", 1 + (int)random_below(&random, LEAVES));
    return EXIT_OK;
}

/* A synset's numbers, which its struct's values point into. */
struct synset_numbers {
    double id;
    double child_count;
    double children[LEAVES];
    double height;
    double train_images;
};

/* The fields in the real order: ILSVRC20XX_ID, WNID, words, gloss, num_children, children,
   wordnet_height, num_train_images, the numbers of integer classes as in the real devkits (Python
   Fuel sizes its children column by max(num_children), which numpy refuses from a double). Synset
   5 (id 5) is the leaves' parent, 6 its parent. */
static void synset_values(struct matlab_value *values, const struct synset_numbers *numbers,
                          int synset)
{
    static const char *const glosses[2] = {"a fish of the fixture", "a parent of the fixture"};
    bool leaf = synset < LEAVES;
    values[0] = (struct matlab_value){MATLAB_VALUE_UINT16S, .numbers = &numbers->id, .count = 1};
    values[1] = (struct matlab_value){MATLAB_VALUE_TEXT, .text = wnids[synset]};
    values[2] = (struct matlab_value){MATLAB_VALUE_TEXT, .text = words[synset]};
    values[3] = (struct matlab_value){MATLAB_VALUE_TEXT, .text = glosses[!leaf]};
    values[4] = (struct matlab_value){MATLAB_VALUE_UINT8S, .numbers = &numbers->child_count,
                                      .count = 1};
    values[5] = (struct matlab_value){MATLAB_VALUE_UINT16S, .numbers = numbers->children,
                                      .count = (size_t)numbers->child_count};
    values[6] = (struct matlab_value){MATLAB_VALUE_UINT8S, .numbers = &numbers->height,
                                      .count = 1};
    values[7] = (struct matlab_value){MATLAB_VALUE_UINT16S, .numbers = &numbers->train_images,
                                      .count = 1};
}

/* 2010: cost_matrix, LEAVES x LEAVES uint8, the distance of two classes in the hierarchy: 0 to
   itself, 1 to a sibling (all the leaves share synset 5). */
static int write_cost_matrix(struct matlab_writer *writer)
{
    uint8_t costs[LEAVES * LEAVES];
    for (int row = 0; row < LEAVES; row++)
        for (int column = 0; column < LEAVES; column++)
            costs[row * LEAVES + column] = row != column;
    const uint32_t dimensions[2] = {LEAVES, LEAVES};
    int result = matlab_writer_begin(writer, "cost_matrix", MATLAB_WRITE_UINT8, dimensions, 2);
    if (result == EXIT_OK)
        result = matlab_writer_data(writer, costs, sizeof costs);
    return result == EXIT_OK ? matlab_writer_end(writer) : result;
}

static int write_meta(const struct fixture_writing *writing, const char *path)
{
    const char *fields[8] = {writing->layout->id_field, "WNID", "words", "gloss", "num_children",
                             "children", "wordnet_height", "num_train_images"};
    struct synset_numbers numbers[SYNSETS] = {{0}};
    struct matlab_value values[SYNSETS * 8];
    for (int synset = 0; synset < SYNSETS; synset++) {
        numbers[synset].id = synset + 1;
        if (synset < LEAVES)
            numbers[synset].train_images = (double)writing->per_class[synset];
        synset_values(values + 8 * synset, &numbers[synset], synset);
    }
    numbers[LEAVES].child_count = LEAVES;
    numbers[LEAVES].height = 1;
    for (int leaf = 0; leaf < LEAVES; leaf++)
        numbers[LEAVES].children[leaf] = leaf + 1;
    numbers[LEAVES + 1].child_count = 1;
    numbers[LEAVES + 1].children[0] = LEAVES + 1;
    numbers[LEAVES + 1].height = 2;
    for (int synset = LEAVES; synset < SYNSETS; synset++)
        values[8 * synset + 5].count = (size_t)numbers[synset].child_count;
    struct matlab_writer writer;
    int result = matlab_writer_open(&writer, path, FIXTURE_MATLAB_TEXT);
    if (result != EXIT_OK)
        return result;
    result = matlab_writer_struct(&writer, "synsets", SYNSETS, fields, 8, values);
    if (result == EXIT_OK && writing->layout->cost_matrix)
        result = write_cost_matrix(&writer);
    int closed = matlab_writer_close(&writer);
    return result != EXIT_OK ? result : closed;
}

static int write_devkit(struct fixture_writing *writing)
{
    const struct ilsvrc_layout *layout = writing->layout;
    char path[4096], meta[4200], member[512], data[256];
    fixture_file_path(writing->request, layout->devkit_file, writing->directory, path, sizeof path);
    snprintf(meta, sizeof meta, "%s.meta", path);
    snprintf(data, sizeof data, "%s/" ILSVRC_DEVKIT_DATA, layout->devkit_directory);
    char *truth = NULL;
    size_t truth_size = 0;
    struct tar_writer *archive = NULL;
    int result = write_meta(writing, meta);
    if (result == EXIT_OK)
        result = write_truth_lines(writing->request, 101, writing->request->examples[1], &truth,
                                   &truth_size);
    if (result == EXIT_OK)
        result = tar_writer_open(&archive, path, writing->request->mtime, FIXTURE_MARKER);
    if (result == EXIT_OK)
        result = tar_writer_add_directory(archive, layout->devkit_directory);
    if (result == EXIT_OK)
        result = tar_writer_add_directory(archive, data);
    snprintf(member, sizeof member, ILSVRC_DEVKIT_MEMBER, layout->devkit_directory,
             ILSVRC_META_NAME);
    if (result == EXIT_OK)
        result = tar_writer_add_file(archive, member, meta);
    snprintf(member, sizeof member, ILSVRC_DEVKIT_MEMBER, layout->devkit_directory,
             layout->valid_truth_name);
    if (result == EXIT_OK)
        result = tar_writer_add_bytes(archive, member, truth, truth_size);
    unlink(meta);
    free(truth);
    return tar_writer_finish(archive, result);
}

/* 2010: the test ground truth beside the archives. */
static int write_test_truth(struct fixture_writing *writing)
{
    if (writing->layout->test_truth_file == ILSVRC_NONE)
        return EXIT_OK;
    char path[4096], *truth = NULL;
    size_t size = 0;
    fixture_file_path(writing->request, writing->layout->test_truth_file, writing->directory,
                      path, sizeof path);
    int result = write_truth_lines(writing->request, 102, writing->request->examples[2], &truth,
                                   &size);
    FILE *file = result == EXIT_OK ? fopen(path, "wb") : NULL;
    if (result == EXIT_OK && (file == NULL || fwrite(truth, 1, size, file) != size))
        result = error_set(EXIT_WRITE, "cannot write: %s: %s", path, error_system_reason());
    if (file != NULL && fclose(file) != 0 && result == EXIT_OK)
        result = error_set(EXIT_WRITE, "cannot write: %s: %s", path, error_system_reason());
    free(truth);
    return result;
}

/* 2010: patch_images.tar replacing the first image (in sorted order) of each split. */
static int write_patches(struct fixture_writing *writing)
{
    const struct ilsvrc_layout *layout = writing->layout;
    if (layout->patch_file == ILSVRC_NONE)
        return EXIT_OK;
    char path[4096];
    fixture_file_path(writing->request, layout->patch_file, writing->directory, path, sizeof path);
    struct tar_writer *archive;
    int result = tar_writer_open_plain(&archive, path, writing->request->mtime);
    int first_class = 0;
    while (first_class < LEAVES && writing->per_class[first_class] == 0)
        first_class++;
    char names[3][96];
    snprintf(names[0], sizeof names[0], "patch_images/train/%s_%d.JPEG",
             first_class < LEAVES ? wnids[first_class] : "none", 1000);
    snprintf(names[1], sizeof names[1], "patch_images/val/%s00000001.JPEG", layout->valid_prefix);
    snprintf(names[2], sizeof names[2], "patch_images/test/%s00000001.JPEG", layout->test_prefix);
    for (int split = 0; result == EXIT_OK && split < 3; split++)
        if (writing->request->examples[split] > 0 && (split > 0 || first_class < LEAVES))
            result = add_image(archive, &writing->random, names[split], KIND_RGB, false,
                               &writing->image);
    return tar_writer_finish(archive, result);
}

int ilsvrc_fixture_write(const struct fixture_request *request, const char *directory,
                         const struct ilsvrc_layout *layout, bool gzip_members)
{
    struct fixture_writing writing = {.request = request, .layout = layout,
                                      .gzip_members = gzip_members, .directory = directory};
    random_seed(&writing.random, request->seed, 0);
    for (int class = 0; class < LEAVES; class++)
        writing.per_class[class] = request->examples[0] / LEAVES +
                                   ((uint64_t)class < request->examples[0] % LEAVES);
    int result = write_devkit(&writing);
    if (result == EXIT_OK)
        result = write_test_truth(&writing);
    if (result == EXIT_OK)
        result = write_train(&writing);
    if (result == EXIT_OK)
        result = write_flat(&writing, layout->valid_file, layout->valid_prefix,
                            request->examples[1]);
    if (result == EXIT_OK)
        result = write_flat(&writing, layout->test_file, layout->test_prefix,
                            request->examples[2]);
    if (result == EXIT_OK)
        result = write_patches(&writing);
    image_free(&writing.image);
    return result;
}
