/* ILSVRC2010 raw fixture: the devkit, the test ground truth, the three image tars (a third of the
   training JPEGs wrapped in gzip) and patch_images.tar (synthetic/ilsvrc.c). */
#include "downloaders/ilsvrc2010.h"
#include "ilsvrc.h"

static int write(const struct fixture_request *request, const char *directory)
{
    return ilsvrc_fixture_write(request, directory, &ilsvrc2010_layout, true);
}

const struct raw_fixture ilsvrc2010_fixture = {
    .dataset = &ilsvrc2010_dataset,
    .splits = ilsvrc_fixture_splits,
    .split_count = 3,
    .write = write,
    .minimum_examples = {0, 2, 2},
    .minimum_reason = ILSVRC_GROUND_TRUTH_REASON,
};
