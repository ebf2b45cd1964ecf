/* SVHN's files from Stanford's housenumbers page, with their sizes and MD5s: format 1's
   {train,test,extra}.tar.gz and format 2's {train,test,extra}_32x32.mat. */
#include "svhn.h"

#include "datasets.h"

#define STANFORD "http://ufldl.stanford.edu/housenumbers/"
#define SVHN_FILE(file, bytes, md5)                                                              \
    {.name = file, .urls = {STANFORD file, NULL}, .size = bytes, .checksum = md5}

const struct dataset_file svhn_format_1_files[SVHN_FORMAT_1_FILE_COUNT] = {
    [SVHN_FORMAT_1_TRAIN] = SVHN_FILE("train.tar.gz", 404141560,
                                      "a649f4cb15c35520e8a8c342d4c0005a"),
    [SVHN_FORMAT_1_TEST] = SVHN_FILE("test.tar.gz", 276555967,
                                     "790d9c8d42f1fcbd219b59956c853a81"),
    [SVHN_FORMAT_1_EXTRA] = SVHN_FILE("extra.tar.gz", 1955489752,
                                      "606f41243d71ca4d5fe66dbaf1f02bee"),
};

const struct dataset_file svhn_format_2_files[SVHN_FORMAT_2_FILE_COUNT] = {
    [SVHN_FORMAT_2_TRAIN] = SVHN_FILE("train_32x32.mat", 182040794,
                                      "e26dedcc434d2e4c54c9b2d4a06d8373"),
    [SVHN_FORMAT_2_TEST] = SVHN_FILE("test_32x32.mat", 64275384,
                                     "eb5a983be6a315427106f1b164d9cef3"),
    [SVHN_FORMAT_2_EXTRA] = SVHN_FILE("extra_32x32.mat", 1329278602,
                                      "a93ce644f1a588dc4d68dda5feec44a7"),
};

const struct dataset svhn_format_1_dataset = {
    .name = "svhn",
    .variant = "1",
    .summary = "street view house numbers, full images with digit boxes (format 1)",
    DATASET_FILES(svhn_format_1_files),
    .converter = &svhn_format_1_converter,
};

const struct dataset svhn_format_2_dataset = {
    .name = "svhn",
    .variant = "2",
    .summary = "street view house numbers, cropped 32x32 digits (format 2)",
    DATASET_FILES(svhn_format_2_files),
    .converter = &svhn_format_2_converter,
};

const char *const svhn_box_fields[SVHN_BOX_FIELD_COUNT] = {"label", "height", "width", "left", "top"};
