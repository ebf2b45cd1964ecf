/* ILSVRC2012 raw fixture: ILSVRC2012_devkit_t12.tar.gz and the three image tars (synthetic/ilsvrc.c). */
#include "downloaders/ilsvrc2012.h"
#include "ilsvrc.h"

static int write(const struct fixture_request *request, const char *directory)
{
    return ilsvrc_fixture_write(request, directory, &ilsvrc2012_layout, false);
}

const struct raw_fixture ilsvrc2012_fixture = {
    .dataset = &ilsvrc2012_dataset,
    .splits = ilsvrc_fixture_splits,
    .split_count = 3,
    .write = write,
    .minimum_examples = {0, 2},
    .minimum_reason = ILSVRC_GROUND_TRUTH_REASON,
};
