/* The cards of CIFAR-10 and CIFAR-100, their class names those the downloaders' files name. */
#include "card_list.h"
#include "downloaders/cifar10.h"
#include "downloaders/cifar100.h"

static const char krizhevsky_2009[] =
    "@techreport{krizhevsky2009learning,\n"
    "  author = {Krizhevsky, Alex},\n"
    "  title = {Learning Multiple Layers of Features from Tiny Images},\n"
    "  institution = {University of Toronto},\n  year = {2009}\n}\n";

static const char cifar_homepage[] = "https://www.cs.toronto.edu/~kriz/cifar.html";

static const struct card_classes cifar10_classes[] = {{"targets", CARD_LIST(cifar10_label_names)}};
static const struct card_issue cifar10_issues[] = {
    {"3.3% of the test images have near-duplicates in the training set (ciFAIR-10 replaces "
     "them)",
     "Barz and Denzler, Do We Train on Test Data? Purging CIFAR of Near-Duplicates, J. Imaging "
     "2020, 6(6), 41, https://doi.org/10.3390/jimaging6060041"},
};

const struct dataset_card cifar10_card = {
    .dataset = "cifar10",
    .homepage = cifar_homepage,
    /* The page describes the data and asks for the technical report to be cited; it names no
       licence. */
    .licence = "not stated by the publisher",
    .licence_source = cifar_homepage,
    .citation = krizhevsky_2009,
    .classes = CARD_LIST(cifar10_classes),
    .issues = CARD_LIST(cifar10_issues),
};

static const struct card_classes cifar100_classes[] = {
    {"fine_labels", CARD_LIST(cifar100_fine_label_names)}, {"coarse_labels", CARD_LIST(cifar100_coarse_label_names)}};
static const struct card_issue cifar100_issues[] = {
    {"10% of the test images have near-duplicates in the training set (ciFAIR-100 replaces "
     "them)",
     "Barz and Denzler, Do We Train on Test Data? Purging CIFAR of Near-Duplicates, J. Imaging "
     "2020, 6(6), 41, https://doi.org/10.3390/jimaging6060041"},
};

const struct dataset_card cifar100_card = {
    .dataset = "cifar100",
    .homepage = cifar_homepage,
    .licence = "not stated by the publisher",
    .licence_source = cifar_homepage,
    .citation = krizhevsky_2009,
    .classes = CARD_LIST(cifar100_classes),
    .issues = CARD_LIST(cifar100_issues),
};
