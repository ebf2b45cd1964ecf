/* The ILSVRC image archives, read as Fuel's producers read them: the training archive's per-class
   tars in archive order (each named WNID.tar, its class the WNID's), each tar's images in sorted
   name order; the validation and test archives' images in sorted name order. A per-class tar
   streams into a scratch file and is read back sorted (sorted_members); the flat archives are
   listed by their headers first, then streamed once, each image going to its sorted rank. */
#include "ilsvrc_conversion.h"

#include "common/base/error.h"
#include "common/formats/archive/archive_read.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *base_name(const char *name)
{
    const char *slash = strrchr(name, '/');
    return slash != NULL ? slash + 1 : name;
}

/* Fills JOB's bytes from SPLIT's patch of NAME when there is one; *PATCHED says whether. */
static int fill_from_patch(struct ilsvrc_conversion *conversion, enum ilsvrc_split split,
                           const char *name, struct ilsvrc_job *job, bool *patched)
{
    struct ilsvrc_patch *patch = ilsvrc_patch_find(conversion, split, base_name(name));
    *patched = patch != NULL;
    if (patch == NULL)
        return EXIT_OK;
    patch->used = true;
    int result = ilsvrc_job_reserve(job, patch->size);
    if (result == EXIT_OK && patch->size > 0)
        memcpy(job->bytes, patch->bytes, patch->size);
    return result;
}

/* Fuel's class of a per-class tar: its name up to the first '.', a WNID of the first 1000. */
static int class_of_member(const struct ilsvrc_conversion *conversion, const char *path,
                           const char *name, int16_t *class)
{
    char wnid[ILSVRC_MAX_WNID + 1];
    size_t length = strcspn(name, ".");
    int found = -1;
    if (length <= ILSVRC_MAX_WNID) {
        memcpy(wnid, name, length);
        wnid[length] = '\0';
        found = ilsvrc_class_of(&conversion->devkit, wnid);
    }
    if (found < 0)
        return error_set(EXIT_CORRUPT_INPUT, "unknown class: %s: %s: no synset of the devkit's "
                         "first %zu has the WNID %.*s", path, name,
                         conversion->devkit.class_count, (int)(length <= 64 ? length : 64), name);
    *class = (int16_t)found;
    return EXIT_OK;
}

/* The job of the image LABEL, member NAME of SPLIT: *JOB NULL when --skip-bad listed it as bad
   (it is left out), *PATCHED when a patch image filled it. */
static int job_start(struct ilsvrc_conversion *conversion, enum ilsvrc_split split,
                     const char *label, const char *name, struct ilsvrc_job **job, bool *patched)
{
    *job = NULL;
    *patched = false;
    if (!conversion->checking && ilsvrc_is_bad(conversion, label))
        return EXIT_OK;
    int result = ilsvrc_next_job(conversion, label, job);
    if (result == EXIT_OK)
        result = fill_from_patch(conversion, split, name, *job, patched);
    return result;
}

struct train_walk {
    const char *path;
    uint64_t seen;    /* images of the archive met so far */
    uint64_t arrival; /* images queued to be written, their places in the permutation */
};

static int queue_sorted_member(struct ilsvrc_conversion *conversion, struct train_walk *walk,
                               const char *tar_name, size_t rank, int16_t class)
{
    struct sorted_members *inner = conversion->inner;
    const char *member = sorted_members_name(inner, rank);
    char label[4400];
    snprintf(label, sizeof label, "%s: %s: %s", walk->path, tar_name, member);
    if (++walk->seen > conversion->devkit.train_images)
        return error_set(EXIT_CORRUPT_INPUT, "too many training images: %s: more than the "
                         "%" PRIu64 " the devkit's num_train_images add up to", walk->path,
                         conversion->devkit.train_images);
    struct ilsvrc_job *job;
    bool patched;
    int result = job_start(conversion, SPLIT_TRAIN, label, member, &job, &patched);
    if (result != EXIT_OK || job == NULL)
        return result;
    if (!patched) {
        result = ilsvrc_job_reserve(job, sorted_members_size(inner, rank));
        if (result == EXIT_OK)
            result = sorted_members_read(inner, rank, job->bytes);
    }
    if (result != EXIT_OK)
        return result;
    ilsvrc_job_name(job, member);
    job->target = class;
    job->place = conversion->checking ? 0 : (uint64_t)conversion->permutation[walk->arrival++];
    return ilsvrc_queue(conversion, job);
}

/* One per-class tar: spooled, sorted, each image queued. */
static int read_class_tar(struct ilsvrc_conversion *conversion, struct train_walk *walk,
                          struct archive_stream *outer, const char *tar_name)
{
    int16_t class = 0;
    int result = class_of_member(conversion, walk->path, tar_name, &class);
    struct archive_stream *inner = NULL;
    if (result == EXIT_OK)
        result = archive_stream_open_member(&inner, outer);
    char label[4400];
    snprintf(label, sizeof label, "%s: %s", walk->path, tar_name);
    if (result == EXIT_OK)
        result = sorted_members_collect(conversion->inner, inner, label);
    archive_stream_close(inner);
    size_t count = result == EXIT_OK ? sorted_members_count(conversion->inner) : 0;
    for (size_t rank = 0; result == EXIT_OK && rank < count; rank++)
        result = queue_sorted_member(conversion, walk, tar_name, rank, class);
    return result;
}

int ilsvrc_read_train(struct ilsvrc_conversion *conversion)
{
    char path[4096];
    ilsvrc_path(conversion, conversion->layout->train_file, path, sizeof path);
    struct train_walk walk = {.path = path};
    conversion->split = SPLIT_TRAIN;
    conversion->done = 0;
    converter_report_stage(conversion->arguments, path, conversion->devkit.train_images);
    struct archive_stream *outer;
    int result = archive_stream_open(&outer, path, ARCHIVE_STREAM_TAR,
                                     conversion->arguments->threads);
    while (result == EXIT_OK) {
        const char *name;
        uint64_t size;
        if ((result = archive_stream_next(outer, &name, &size)) != EXIT_OK || name == NULL)
            break;
        result = read_class_tar(conversion, &walk, outer, name);
    }
    archive_stream_close(outer);
    if (result == EXIT_OK)
        result = ilsvrc_drain(conversion);
    if (result == EXIT_OK && walk.seen != conversion->devkit.train_images)
        result = error_set(EXIT_CORRUPT_INPUT, "missing training images: %s: holds %" PRIu64
                           ", the devkit's num_train_images add up to %" PRIu64, path, walk.seen,
                           conversion->devkit.train_images);
    return result;
}

/* The place within its split of the image at RANK: ranks of bad images left out. */
static int kept_ranks(const struct ilsvrc_conversion *conversion, enum ilsvrc_split split,
                      const char *path, uint64_t **ranks)
{
    const struct sorted_members *listed = conversion->listed[split];
    size_t count = sorted_members_count(listed);
    *ranks = malloc((count > 0 ? count : 1) * sizeof **ranks);
    if (*ranks == NULL)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    uint64_t kept = 0;
    for (size_t rank = 0; rank < count; rank++) {
        char label[4400];
        snprintf(label, sizeof label, "%s: %s", path, sorted_members_name(listed, rank));
        (*ranks)[rank] = kept;
        kept += !ilsvrc_is_bad(conversion, label);
    }
    return EXIT_OK;
}

static int queue_flat_member(struct ilsvrc_conversion *conversion, enum ilsvrc_split split,
                             struct archive_stream *stream, const char *path, const char *name,
                             uint64_t size, const uint64_t *ranks)
{
    size_t rank;
    if (!sorted_members_rank(conversion->listed[split], name, &rank))
        return error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: %s: not among the "
                         "members its headers list", path, name);
    char label[4400];
    snprintf(label, sizeof label, "%s: %s", path, name);
    struct ilsvrc_job *job;
    bool patched;
    int result = job_start(conversion, split, label, name, &job, &patched);
    if (result != EXIT_OK || job == NULL)
        return result;
    if (!patched) {
        result = ilsvrc_job_reserve(job, size);
        if (result == EXIT_OK)
            result = archive_stream_read_exactly(stream, job->bytes, job->size);
    }
    if (result != EXIT_OK)
        return result;
    ilsvrc_job_name(job, name);
    if (split == SPLIT_VALID)
        job->target = conversion->devkit.valid_targets[rank];
    else if (conversion->test_targets != NULL)
        job->target = conversion->test_targets[rank];
    job->place = conversion->starts[split] + ranks[rank];
    return ilsvrc_queue(conversion, job);
}

int ilsvrc_read_flat(struct ilsvrc_conversion *conversion, enum ilsvrc_split split)
{
    char path[4096];
    ilsvrc_path(conversion,
                split == SPLIT_VALID ? conversion->layout->valid_file : conversion->layout->test_file,
                path, sizeof path);
    conversion->split = split;
    conversion->done = 0;
    size_t count = sorted_members_count(conversion->listed[split]);
    converter_report_stage(conversion->arguments, path, count);
    uint64_t *ranks = NULL;
    struct archive_stream *stream = NULL;
    int result = kept_ranks(conversion, split, path, &ranks);
    if (result == EXIT_OK)
        result = archive_stream_open(&stream, path, ARCHIVE_STREAM_TAR,
                                     conversion->arguments->threads);
    size_t seen = 0;
    while (result == EXIT_OK) {
        const char *name;
        uint64_t size;
        if ((result = archive_stream_next(stream, &name, &size)) != EXIT_OK || name == NULL)
            break;
        seen++;
        result = queue_flat_member(conversion, split, stream, path, name, size, ranks);
    }
    archive_stream_close(stream);
    free(ranks);
    if (result == EXIT_OK)
        result = ilsvrc_drain(conversion);
    if (result == EXIT_OK && seen != count)
        result = error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: %zu members streamed, "
                           "%zu listed", path, seen, count);
    return result;
}
