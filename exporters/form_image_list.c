/* The image-list form (Caffe's ImageData layer, torchvision's ImageFolder): DIR/SPLIT/LABEL/N.png
   (N.jpg for stored JPEGs, as they are) and NAME_SPLIT.txt of "SPLIT/LABEL/N.png LABEL" lines;
   where the file names its classes, NAME_SPLIT.classes.txt, class i's name on line i + 1 (the
   labels file of Caffe's classification example, its synset_words.txt). */
#include "common/base/error.h"
#include "common/h5py/class_names.h"
#include "export_form.h"
#include "png_blocks.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct list_output {
    struct export_job *job;
    FILE *list;
    char list_entry[600];
};

static int list_consume(void *context, const struct encoded_example *example)
{
    struct list_output *output = context;
    char label[64], entry[700], path[4800];
    element_label_text(example->label, label, sizeof label);
    snprintf(entry, sizeof entry, "%s/%s/%" PRIu64 ".%s", output->job->split, label,
             example->number, example->extension);
    int result = export_set_path(output->job->set, entry, path, sizeof path);
    if (result != EXIT_OK)
        return result;
    FILE *stream = fopen(path, "wb");
    int failed = stream == NULL || fwrite(example->png, 1, example->size, stream) != example->size;
    if (stream != NULL && fclose(stream) != 0)
        failed = 1;
    if (!failed && fprintf(output->list, "%s %s\n", entry, label) < 0)
        failed = 1;
    if (failed)
        return error_set(EXIT_WRITE, "cannot write: %s/%s: %s", output->job->request->directory,
                         entry, strerror(errno));
    return EXIT_OK;
}

/* NAME_SPLIT.classes.txt when the label source's classes are named; a newline in a name would
   shift the lines after it, so it is written as a space. */
static int classes_write(struct export_job *job)
{
    struct class_names names;
    int result = job->label != NULL ? class_names_read(job->file, job->label->name, &names)
                                    : EXIT_OK;
    if (job->label == NULL || result != EXIT_OK || names.count == 0)
        return result;
    size_t length = 0;
    for (size_t index = 0; index < names.count; index++)
        length += strlen(names.names[index]) + 1;
    char *text = malloc(length + 1), entry[600];
    result = text != NULL ? EXIT_OK : error_set(EXIT_OTHER, "out of memory");
    for (size_t index = 0, at = 0; text != NULL && index < names.count; index++) {
        for (const char *character = names.names[index]; *character != '\0'; character++)
            text[at++] = *character == '\n' ? ' ' : *character;
        text[at++] = '\n';
    }
    snprintf(entry, sizeof entry, "%s.classes.txt", job->stem);
    if (result == EXIT_OK)
        result = export_text_write(job, entry, text, length);
    free(text);
    class_names_free(&names);
    return result;
}

static int list_form_write(struct export_job *job)
{
    struct list_output output = {.job = job};
    snprintf(output.list_entry, sizeof output.list_entry, "%s.txt", job->stem);
    snprintf(job->main_file, sizeof job->main_file, "%s", output.list_entry);
    /* The list is named to the set after the images, so the split's directory is published
       first and the list that names its files after it. */
    char path[4800];
    snprintf(path, sizeof path, "%s/%s", job->set->staging.path, output.list_entry);
    output.list = fopen(path, "wb");
    if (output.list == NULL)
        return error_set(EXIT_WRITE, "cannot write: %s: %s", path, strerror(errno));
    int result = png_blocks_run(job, list_consume, &output);
    if (fclose(output.list) != 0 && result == EXIT_OK)
        result = error_set(EXIT_WRITE, "cannot write: %s: %s", path, strerror(errno));
    if (result == EXIT_OK)
        result = export_set_path(job->set, output.list_entry, path, sizeof path);
    if (result == EXIT_OK)
        result = classes_write(job);
    return result;
}

const struct export_form export_form_image_list = {
    .name = "image-list", .images = true, .variable = true, .write = list_form_write,
    .listing = export_provenance_write};
