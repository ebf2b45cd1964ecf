/* The cards of UCI's tables: Iris and Adult. */
#include "card_list.h"

/* The converter's numbering (converters/iris.c), the class names as iris.data spells them. */
static const char *const iris_names[] = {"Iris-setosa", "Iris-versicolor", "Iris-virginica"};
static const struct card_classes iris_classes[] = {{"targets", CARD_LIST(iris_names)}};

const struct dataset_card iris_card = {
    .dataset = "iris",
    .homepage = "https://archive.ics.uci.edu/ml/datasets/Iris",
    /* iris.names, the description beside iris.data, names no licence; the repository's newer
       dataset pages were not read for this card. */
    .licence = "not stated by the publisher",
    .licence_source = "https://archive.ics.uci.edu/ml/machine-learning-databases/iris/iris.names "
                      "(the newer dataset page not checked)",
    .citation = "@article{fisher1936use,\n"
                "  author = {Fisher, R. A.},\n"
                "  title = {The Use of Multiple Measurements in Taxonomic Problems},\n"
                "  journal = {Annals of Eugenics},\n"
                "  volume = {7},\n  number = {2},\n  pages = {179--188},\n  year = {1936}\n}\n",
    .classes = CARD_LIST(iris_classes),
};

/* targets is bool: false for <=50K, true for >50K (converters/adult_rows.c). */
static const char *const income_names[] = {"<=50K", ">50K"};
static const struct card_classes adult_classes[] = {{"targets", CARD_LIST(income_names)}};
static const struct card_issue adult_issues[] = {
    {"6 duplicate or conflicting instances", "adult.names, \"Duplicate or conflicting "
                                             "instances : 6\""},
};

const struct dataset_card adult_card = {
    .dataset = "adult",
    .homepage = "https://archive.ics.uci.edu/ml/datasets/Adult",
    .licence = "not stated by the publisher",
    .licence_source = "https://archive.ics.uci.edu/ml/machine-learning-databases/adult/"
                      "adult.names (the newer dataset page not checked)",
    /* adult.names: "First cited in: @inproceedings{kohavi-nbtree, ...}". */
    .citation = "@inproceedings{kohavi-nbtree,\n"
                "  author = {Ron Kohavi},\n"
                "  title = {Scaling Up the Accuracy of Naive-Bayes Classifiers: a Decision-Tree "
                "Hybrid},\n"
                "  booktitle = {Proceedings of the Second International Conference on Knowledge "
                "Discovery and Data Mining},\n  year = {1996}\n}\n",
    .classes = CARD_LIST(adult_classes),
    .issues = CARD_LIST(adult_issues),
};
