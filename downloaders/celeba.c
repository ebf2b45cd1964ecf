/* CelebA's files from the Dropbox folder Fuel's downloader names, in its order; the MD5s are those
   torchvision publishes (no size is published). */
#include "celeba.h"

#include "datasets.h"

#define CELEBA_FOLDER "https://www.dropbox.com/sh/8oqt9vytwxb3s4r/"

const struct dataset_file celeba_files[CELEBA_FILE_COUNT] = {
    [CELEBA_ATTRIBUTES] = {.name = "list_attr_celeba.txt",
                           .urls = {CELEBA_FOLDER
                                    "AAC7-uCaJkmPmvLX2_P5qy0ga/Anno/list_attr_celeba.txt?dl=1",
                                    NULL},
                           .checksum = "75e246fa4810816ffd6ee81facbd244c"},
    [CELEBA_IMAGES] = {.name = "img_align_celeba.zip",
                       .urls = {CELEBA_FOLDER
                                "AADIKlz8PR9zr6Y20qbkunrba/Img/img_align_celeba.zip?dl=1",
                                NULL},
                       .checksum = "00d2c5bc6d35e252742224ab0c1e8fcb"},
};

const struct dataset celeba_aligned_cropped_dataset = {
    .name = "celeba",
    .variant = "aligned_cropped",
    .summary = "202599 celebrity faces, 178x218, with 40 attributes each",
    DATASET_FILES(celeba_files),
    .converter = &celeba_aligned_cropped_converter,
};

const struct dataset celeba_64_dataset = {
    .name = "celeba",
    .variant = "64",
    .summary = "202599 celebrity faces resized and cropped to 64x64, with 40 attributes each",
    DATASET_FILES(celeba_files),
    .converter = &celeba_64_converter,
};
