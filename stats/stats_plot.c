/* fuel stats --plot: panels of bars drawn from the report, encoded with libpng, published whole. */
#include "stats_plot.h"

#include "common/base/error.h"
#include "common/base/publish.h"
#include "common/formats/png/png_encode.h"
#include "common/formats/png/plot_canvas.h"
#include "common/formats/png/plot_font.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct plot_color black = {0, 0, 0};

struct panel {
    char title[96];
    uint64_t *counts;
    size_t bars;
    size_t group;               /* classes a bar holds */
    const json_t *classes;      /* class panels: the report's classes (or attributes) */
    const char *key;            /* "class" or "attribute": what numbers each of them */
    const json_t *histogram;    /* value panels: the report's histogram */
    struct plot_color color;
};

struct panels {
    struct panel list[PLOT_MAX_PANELS];
    size_t count;
};

static uint32_t bar_width(const struct panel *panel)
{
    return panel->bars <= PLOT_BARS_WIDTH ? (uint32_t)(PLOT_BARS_WIDTH / panel->bars) : 1;
}

static struct panel *panel_add(struct panels *panels, size_t bars)
{
    if (panels->count == PLOT_MAX_PANELS || bars == 0)
        return NULL;
    struct panel *panel = &panels->list[panels->count];
    memset(panel, 0, sizeof *panel);
    panel->counts = calloc(bars, sizeof *panel->counts);
    if (panel->counts == NULL)
        return NULL;
    panel->bars = bars;
    panels->count++;
    return panel;
}

/* A panel of examples per class, or per attribute when KEY is "attribute". */
static void class_panel(struct panels *panels, const char *split, const json_t *entry,
                        const char *key)
{
    bool attributes = strcmp(key, "attribute") == 0;
    const json_t *classes = json_object_get(entry, attributes ? "attributes" : "classes"), *class;
    size_t index, limit = 0;
    json_array_foreach(classes, index, class)
        limit = (size_t)json_integer_value(json_object_get(class, key)) + 1;
    size_t group = (limit + PLOT_MAX_BARS - 1) / PLOT_MAX_BARS;
    struct panel *panel = panel_add(panels, limit == 0 ? 0 : (limit + group - 1) / group);
    if (panel == NULL)
        return;
    panel->group = group;
    panel->classes = classes;
    panel->key = key;
    panel->color = (struct plot_color){76, 114, 176};
    snprintf(panel->title, sizeof panel->title, "%s %s: examples per %s", split,
             json_string_value(json_object_get(entry, "source")), key);
    json_array_foreach(classes, index, class)
        panel->counts[(size_t)json_integer_value(json_object_get(class, key)) / group] +=
            (uint64_t)json_integer_value(json_object_get(class, "examples"));
}

static void value_panels(struct panels *panels, const char *split, const json_t *entry)
{
    static const struct plot_color rgb[3] = {{204, 51, 51}, {51, 153, 51}, {51, 85, 204}};
    static const char *const rgb_names[3] = {"red", "green", "blue"};
    bool decoded = json_is_true(json_object_get(entry, "decoded"));
    bool channels = json_object_get(entry, "channels") != NULL;
    const json_t *histogram;
    size_t number;
    json_array_foreach(json_object_get(entry, "histograms"), number, histogram) {
        const json_t *counts = json_object_get(histogram, "counts");
        struct panel *panel = panel_add(panels, json_array_size(counts));
        if (panel == NULL)
            return;
        panel->histogram = histogram;
        panel->color = decoded && number < 3 ? rgb[number] : (struct plot_color){96, 96, 96};
        char part[32] = "";
        if (decoded && number < 3)
            snprintf(part, sizeof part, " %s", rgb_names[number]);
        else if (channels)
            snprintf(part, sizeof part, " channel %zu", number);
        snprintf(panel->title, sizeof panel->title, "%s %s%s: %s", split,
                 json_string_value(json_object_get(entry, "source")), part,
                 decoded ? "decoded pixel values" : "values");
        for (size_t bin = 0; bin < panel->bars; bin++)
            panel->counts[bin] = (uint64_t)json_integer_value(json_array_get(counts, bin));
    }
}

static void panels_gather(struct panels *panels, const json_t *report)
{
    const char *plotted = json_string_value(json_object_get(report, "plotted_split"));
    const json_t *split, *entry;
    size_t split_index, source_index;
    json_array_foreach(json_object_get(report, "splits"), split_index, split) {
        const char *name = json_string_value(json_object_get(split, "split"));
        if (plotted == NULL || strcmp(name, plotted) != 0)
            continue;
        json_array_foreach(json_object_get(split, "sources"), source_index, entry) {
            if (json_object_get(entry, "classes") != NULL)
                class_panel(panels, name, entry, "class");
            if (json_object_get(entry, "attributes") != NULL)
                class_panel(panels, name, entry, "attribute");
            value_panels(panels, name, entry);
        }
    }
}

static int64_t bar_height(uint64_t count, uint64_t largest)
{
    if (largest == 0)
        return 0;
    return (int64_t)((count * 2 * PLOT_BARS_HEIGHT + largest) / (2 * largest));
}

/* LABEL centred on column CENTRE under the x axis at row BASE. */
static void label_under(struct plot_canvas *canvas, int64_t centre, int64_t base, int scale,
                        const char *label)
{
    int64_t left = centre - plot_text_width(label, scale) / 2;
    plot_canvas_fill(canvas, centre, base + 1, 1, 4, black);
    plot_canvas_text(canvas, left < 0 ? 0 : left, base + 8, scale, label, black);
}

/* The name of class BAR (its number when it has none) into LABEL, cut to fit WIDTH columns at
   SCALE 1 (at 2 it is whole: the scale of every label is the one at which they all fit). */
static void class_label(const struct panel *panel, size_t bar, uint32_t width, int scale,
                        char *label, size_t size)
{
    snprintf(label, size, "%zu", bar);
    const json_t *class;
    size_t index;
    json_array_foreach(panel->classes, index, class)
        if ((size_t)json_integer_value(json_object_get(class, panel->key)) == bar &&
            json_is_string(json_object_get(class, "name")))
            snprintf(label, size, "%s", json_string_value(json_object_get(class, "name")));
    size_t fits = width / PLOT_FONT_ADVANCE;
    if (scale == 1 && fits < strlen(label))
        label[fits == 0 ? 1 : fits] = '\0';
}

/* Class names under their bars when there are 16 or fewer, else class numbers every few bars. */
static void class_labels(struct plot_canvas *canvas, const struct panel *panel, int64_t base)
{
    static const size_t steps[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000};
    uint32_t width = bar_width(panel);
    char label[64];
    if (panel->bars <= 16 && panel->group == 1) {
        int scale = 2;
        for (size_t bar = 0; bar < panel->bars; bar++) {
            class_label(panel, bar, width, 2, label, sizeof label);
            scale = plot_text_width(label, 2) <= (int64_t)width - 2 ? scale : 1;
        }
        for (size_t bar = 0; bar < panel->bars; bar++) {
            class_label(panel, bar, width, scale, label, sizeof label);
            label_under(canvas, PLOT_LEFT + (int64_t)(bar * width + width / 2), base, scale,
                        label);
        }
        return;
    }
    size_t step = steps[0];
    for (size_t index = 0; index < sizeof steps / sizeof steps[0] && step * width < 80; index++)
        step = steps[index];
    for (size_t bar = 0; bar < panel->bars; bar += step) {
        snprintf(label, sizeof label, "%zu", bar * panel->group);
        label_under(canvas, PLOT_LEFT + (int64_t)(bar * width + width / 2), base, 2, label);
    }
}

/* Values under a value histogram: five of the bins' values, or its range's ends and middle. */
static void value_labels(struct plot_canvas *canvas, const struct panel *panel, int64_t base)
{
    uint32_t width = bar_width(panel);
    double low = json_real_value(json_object_get(panel->histogram, "low"));
    double high = json_real_value(json_object_get(panel->histogram, "high"));
    char label[32];
    if (json_is_true(json_object_get(panel->histogram, "ranged"))) {
        for (int part = 0; part <= 2; part++) {
            snprintf(label, sizeof label, "%.4g", low + (high - low) * part / 2);
            label_under(canvas, PLOT_LEFT + (int64_t)(panel->bars * width) * part / 2, base, 2,
                        label);
        }
        return;
    }
    size_t marks = panel->bars < 5 ? panel->bars : 5;
    for (size_t mark = 0; mark < marks; mark++) {
        size_t bin = marks == 1 ? 0 : mark * panel->bars / (marks - 1);
        bin = bin < panel->bars ? bin : panel->bars - 1;
        snprintf(label, sizeof label, "%.0f", low + (double)bin);
        label_under(canvas, PLOT_LEFT + (int64_t)(bin * width + width / 2), base, 2, label);
    }
}

/* The y axis: 0, half the largest count and the largest, each at its bar height. */
static void count_labels(struct plot_canvas *canvas, uint64_t largest, int64_t base)
{
    uint64_t values[3] = {0, largest / 2, largest};
    char label[32];
    for (int mark = 0; mark < 3 && largest > 0; mark++) {
        int64_t row = base - bar_height(values[mark], largest);
        snprintf(label, sizeof label, "%" PRIu64, values[mark]);
        plot_canvas_fill(canvas, PLOT_LEFT - 5, row, 4, 1, black);
        plot_canvas_text(canvas, PLOT_LEFT - 8 - plot_text_width(label, 2), row - 7, 2, label,
                         black);
    }
}

static void panel_draw(struct plot_canvas *canvas, const struct panel *panel, size_t number)
{
    int64_t top = PLOT_MARGIN + (int64_t)number * PLOT_PANEL_HEIGHT;
    int64_t base = top + PLOT_TITLE_HEIGHT + PLOT_BARS_HEIGHT;
    uint32_t width = bar_width(panel);
    uint64_t largest = 0;
    for (size_t bar = 0; bar < panel->bars; bar++)
        largest = panel->counts[bar] > largest ? panel->counts[bar] : largest;
    plot_canvas_text(canvas, PLOT_LEFT, top, 2, panel->title, black);
    for (size_t bar = 0; bar < panel->bars; bar++) {
        int64_t height = bar_height(panel->counts[bar], largest);
        plot_canvas_fill(canvas, PLOT_LEFT + (int64_t)(bar * width), base - height,
                         width - (width >= 3), height, panel->color);
    }
    plot_canvas_fill(canvas, PLOT_LEFT - 1, base - PLOT_BARS_HEIGHT, 1, PLOT_BARS_HEIGHT + 1,
                     black);
    plot_canvas_fill(canvas, PLOT_LEFT - 1, base, (int64_t)(panel->bars * width) + 1, 1, black);
    count_labels(canvas, largest, base);
    if (panel->classes != NULL)
        class_labels(canvas, panel, base);
    else
        value_labels(canvas, panel, base);
}

static int panels_render(const struct panels *panels, const char *path)
{
    int64_t width = 0;
    for (size_t number = 0; number < panels->count; number++) {
        const struct panel *panel = &panels->list[number];
        int64_t wanted = (int64_t)(panel->bars * bar_width(panel));
        int64_t title = plot_text_width(panel->title, 2);
        width = wanted > width ? wanted : width;
        width = title > width ? title : width;
    }
    struct plot_canvas canvas;
    int result = plot_canvas_create(&canvas, (uint32_t)(PLOT_LEFT + width + 40),
                                    (uint32_t)(PLOT_MARGIN + panels->count * PLOT_PANEL_HEIGHT));
    for (size_t number = 0; result == EXIT_OK && number < panels->count; number++)
        panel_draw(&canvas, &panels->list[number], number);
    struct png_bytes bytes = {0};
    if (result == EXIT_OK)
        result = png_encode_memory(canvas.pixels, canvas.width, canvas.height, 3, &bytes);
    if (result == EXIT_OK)
        result = publish_bytes(path, bytes.data, bytes.size);
    png_bytes_free(&bytes);
    plot_canvas_free(&canvas);
    return result;
}

int stats_plot_write(const json_t *report, const char *path)
{
    struct panels panels = {.count = 0};
    const char *plotted = json_string_value(json_object_get(report, "plotted_split"));
    panels_gather(&panels, report);
    int result = panels.count == 0
                     ? error_set(EXIT_USAGE, "nothing to plot: split %s has no class counts or "
                                 "numbers", plotted != NULL ? plotted : "(none)")
                     : panels_render(&panels, path);
    for (size_t number = 0; number < panels.count; number++)
        free(panels.list[number].counts);
    return result;
}
