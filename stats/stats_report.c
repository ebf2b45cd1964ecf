/* fuel stats' engine: every split and source asked, summarised into one JSON document. */
#include "stats_report.h"

#include "common/h5py/class_names.h"
#include "common/base/error.h"
#include "common/h5py/h5py_names.h"
#include "source_statistics.h"

#include <math.h>
#include <string.h>

/* A number, or null where there is none (no finite values). */
static json_t *number_or_null(double value)
{
    return isfinite(value) ? json_real(value) : json_null();
}

static json_t *summary_json(const struct value_summary *summary)
{
    bool some = summary->count > 0;
    return json_pack("{sI sI sI so so so so}", "count", (json_int_t)summary->count,
                     "nan", (json_int_t)summary->nan_count,
                     "infinity", (json_int_t)summary->infinity_count,
                     "minimum", some ? json_real(summary->minimum) : json_null(),
                     "maximum", some ? json_real(summary->maximum) : json_null(),
                     "mean", number_or_null(value_summary_mean(summary)),
                     "std", number_or_null(value_summary_deviation(summary)));
}

static json_t *classes_json(const struct source_statistics *statistics,
                            const struct class_names *names)
{
    json_t *classes = json_array();
    size_t limit = statistics->class_limit > names->count ? statistics->class_limit : names->count;
    for (size_t class = 0; class < limit; class++) {
        uint64_t examples = class < statistics->class_limit ? statistics->class_counts[class] : 0;
        if (examples == 0 && class_name(names, class) == NULL)
            continue;
        json_t *entry = json_pack("{sI sI}", "class", (json_int_t)class, "examples",
                                  (json_int_t)examples);
        if (class_name(names, class) != NULL)
            json_object_set_new(entry, "name", json_string(class_name(names, class)));
        json_array_append_new(classes, entry);
    }
    return classes;
}

/* [{"attribute", "examples", "name"}]: the examples where each attribute is set. */
static json_t *attributes_json(const struct source_statistics *statistics,
                               const struct class_names *names)
{
    json_t *attributes = json_array();
    for (size_t attribute = 0; attribute < statistics->attribute_count; attribute++) {
        json_t *entry = json_pack("{sI sI}", "attribute", (json_int_t)attribute, "examples",
                                  (json_int_t)statistics->attribute_counts[attribute]);
        if (class_name(names, attribute) != NULL)
            json_object_set_new(entry, "name", json_string(class_name(names, attribute)));
        json_array_append_new(attributes, entry);
    }
    return attributes;
}

static json_t *lengths_json(const struct source_statistics *statistics)
{
    json_t *lengths = json_array();
    for (size_t axis = 0; axis < statistics->axis_count; axis++) {
        const struct axis_lengths *facts = &statistics->axes[axis];
        bool some = statistics->examples > 0;
        json_array_append_new(
            lengths, json_pack("{ss so so so}", "axis", facts->name,
                               "minimum", some ? json_integer((json_int_t)facts->minimum) : json_null(),
                               "median", some ? json_real(facts->median) : json_null(),
                               "maximum", some ? json_integer((json_int_t)facts->maximum) : json_null()));
    }
    return lengths;
}

static json_t *histograms_json(const struct source_statistics *statistics)
{
    json_t *histograms = json_array();
    for (size_t number = 0; number < statistics->histogram_count; number++) {
        const struct value_histogram *histogram = &statistics->histograms[number];
        json_t *counts = json_array();
        for (size_t bin = 0; bin < histogram->bins; bin++)
            json_array_append_new(counts, json_integer((json_int_t)histogram->counts[bin]));
        json_array_append_new(histograms, json_pack("{sf sf sb so}", "low", histogram->low,
                                                    "high", histogram->high, "ranged",
                                                    histogram->ranged, "counts", counts));
    }
    return histograms;
}

static json_t *statistics_json(const char *source, const struct source_statistics *statistics,
                               const struct class_names *names)
{
    json_t *entry = json_pack("{ss ss sI}", "source", source, "dtype", statistics->dtype,
                              "examples", (json_int_t)statistics->examples);
    if (statistics->numeric)
        json_object_set_new(entry, "values", summary_json(&statistics->overall));
    if (statistics->channel_count > 0) {
        json_t *channels = json_array();
        for (size_t channel = 0; channel < statistics->channel_count; channel++)
            json_array_append_new(channels, summary_json(&statistics->channels[channel]));
        json_object_set_new(entry, "channels", channels);
    }
    if (statistics->is_label) {
        json_object_set_new(entry, "classes", classes_json(statistics, names));
        json_object_set_new(entry, "unclassed", json_integer((json_int_t)statistics->unclassed));
    }
    if (statistics->attribute_counts != NULL)
        json_object_set_new(entry, "attributes", attributes_json(statistics, names));
    if (statistics->variable_length) {
        json_object_set_new(entry, "lengths", lengths_json(statistics));
        json_object_set_new(entry, "bytes", json_integer((json_int_t)statistics->bytes));
        json_object_set_new(entry, "jpeg", json_boolean(statistics->jpeg));
        if (statistics->decoded)
            json_object_set_new(entry, "decoded", json_true());
    }
    if (statistics->numeric && !statistics->is_label && statistics->attribute_counts == NULL &&
        statistics->histogram_count > 0)
        json_object_set_new(entry, "histograms", histograms_json(statistics));
    return entry;
}

/* {"split", "source", "scale", "mean": [...], "std": [...]}: the channels scaled to [0, 1] for
   bytes, as they are otherwise. */
static json_t *normalize_json(const char *split, const char *source,
                              const struct source_statistics *statistics)
{
    double scale = strcmp(statistics->dtype, "uint8") == 0 ? 255.0 : 1.0;
    json_t *means = json_array(), *deviations = json_array();
    for (size_t channel = 0; channel < statistics->channel_count; channel++) {
        const struct value_summary *summary = &statistics->channels[channel];
        json_array_append_new(means, number_or_null(value_summary_mean(summary) / scale));
        json_array_append_new(deviations, number_or_null(value_summary_deviation(summary) / scale));
    }
    return json_pack("{ss ss sf so so}", "split", split, "source", source, "scale", scale,
                     "mean", means, "std", deviations);
}

/* The split whose image source gives the Normalize values: the one asked, else train. */
static const char *normalize_split(const struct h5py_file *file, const struct stats_request *request)
{
    if (request->split != NULL)
        return request->split;
    return h5py_file_has_split(file, "train") ? "train" : NULL;
}

/* The split --plot draws: the one asked, else train, else the first. */
static const char *plot_split(const struct h5py_file *file, const struct stats_request *request)
{
    const char *split = normalize_split(file, request);
    return split != NULL ? split : file->split_count > 0 ? file->splits[0] : NULL;
}

/* For a plot, the histograms a first pass could not count (types of more than 8 bits): a second
   pass over STATISTICS' range. */
static int histograms_count(const struct h5py_file *file, const char *split, const char *source,
                            const struct stats_request *request,
                            const struct statistics_options *options,
                            struct source_statistics *statistics)
{
    if (!options->histograms || !statistics->numeric || statistics->is_label ||
        statistics->attribute_counts != NULL ||
        statistics->histograms != NULL || statistics->overall.count == 0)
        return EXIT_OK;
    struct statistics_options ranged = *options;
    ranged.ranges = statistics;
    struct source_statistics second;
    int result = source_statistics_compute(file, split, source, &ranged, request->listener,
                                           &second);
    if (result == EXIT_OK) {
        statistics->histograms = second.histograms;
        statistics->histogram_count = second.histogram_count;
        second.histograms = NULL;
    }
    source_statistics_free(&second);
    return result;
}

static int source_report(const struct h5py_file *file, const struct stats_request *request,
                         const char *split, const char *source, json_t *sources, json_t *report)
{
    struct source_statistics statistics;
    struct class_names names = {0};
    struct statistics_options options = request->options;
    options.histograms = request->plot && strcmp(plot_split(file, request), split) == 0;
    int result = source_statistics_compute(file, split, source, &options, request->listener,
                                           &statistics);
    if (result == EXIT_OK)
        result = histograms_count(file, split, source, request, &options, &statistics);
    if (result == EXIT_OK && (statistics.is_label || statistics.attribute_counts != NULL))
        result = class_names_read(file, source, &names);
    if (result == EXIT_OK)
        json_array_append_new(sources, statistics_json(source, &statistics, &names));
    const char *normalized = normalize_split(file, request);
    if (result == EXIT_OK && statistics.channel_count > 0 && normalized != NULL &&
        strcmp(normalized, split) == 0 && json_object_get(report, "normalize") == NULL)
        json_object_set_new(report, "normalize", normalize_json(split, source, &statistics));
    class_names_free(&names);
    source_statistics_free(&statistics);
    return result;
}

static int names_check(const struct h5py_file *file, const struct stats_request *request)
{
    char list[1024];
    if (request->split != NULL && !h5py_file_has_split(file, request->split)) {
        h5py_split_list(file, list, sizeof list);
        return error_set(EXIT_USAGE, "no split %s: %s; %s", request->split, file->path, list);
    }
    for (size_t index = 0; index < request->source_count; index++) {
        const struct h5py_file_source *facts = h5py_file_source(file, request->sources[index]);
        if (facts == NULL || !facts->present) {
            h5py_source_list(file, list, sizeof list);
            return error_set(EXIT_USAGE, "no source %s: %s; %s", request->sources[index],
                             file->path, list);
        }
    }
    return EXIT_OK;
}

static int split_report(const struct h5py_file *file, const struct stats_request *request,
                        const char *split, json_t *report)
{
    json_t *sources = json_array();
    json_array_append_new(json_object_get(report, "splits"),
                          json_pack("{ss so}", "split", split, "sources", sources));
    size_t count = request->sources != NULL ? request->source_count : file->source_count;
    int result = EXIT_OK;
    for (size_t index = 0; result == EXIT_OK && index < count; index++) {
        const char *source = request->sources != NULL ? request->sources[index]
                                                      : file->sources[index].name;
        if (h5py_split_holds(file, split, source))
            result = source_report(file, request, split, source, sources, report);
    }
    return result;
}

int stats_report(const struct h5py_file *file, const struct stats_request *request,
                 json_t **report)
{
    *report = NULL;
    int result = names_check(file, request);
    if (result != EXIT_OK)
        return result;
    json_t *document = json_pack("{ss s[]}", "file", file->path, "splits");
    if (request->plot && plot_split(file, request) != NULL)
        json_object_set_new(document, "plotted_split", json_string(plot_split(file, request)));
    for (size_t index = 0; result == EXIT_OK && index < file->split_count; index++)
        if (request->split == NULL || strcmp(request->split, file->splits[index]) == 0)
            result = split_report(file, request, file->splits[index], document);
    if (result == EXIT_OK)
        *report = document;
    else
        json_decref(document);
    return result;
}
