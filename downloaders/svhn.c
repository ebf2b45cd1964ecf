/* SVHN from Stanford: format 1 is full images with boxes (tar.gz), format 2 cropped 32x32 digits
   (MATLAB files). */
#include "downloader.h"

#define STANFORD "http://ufldl.stanford.edu/housenumbers/"
#define SVHN_FILE(name, size, md5) {name, {STANFORD name, NULL}, size, md5}

static const struct dataset_file svhn_format_1_files[] = {
    SVHN_FILE("train.tar.gz", 404141560, "a649f4cb15c35520e8a8c342d4c0005a"),
    SVHN_FILE("test.tar.gz", 276555967, "790d9c8d42f1fcbd219b59956c853a81"),
    SVHN_FILE("extra.tar.gz", 1955489752, "606f41243d71ca4d5fe66dbaf1f02bee"),
};

static const struct dataset_file svhn_format_2_files[] = {
    SVHN_FILE("train_32x32.mat", 182040794, "e26dedcc434d2e4c54c9b2d4a06d8373"),
    SVHN_FILE("test_32x32.mat", 64275384, "eb5a983be6a315427106f1b164d9cef3"),
    SVHN_FILE("extra_32x32.mat", 1329278602, "a93ce644f1a588dc4d68dda5feec44a7"),
};

const struct downloader svhn_format_1_downloader = {
    .name = "svhn",
    .variant = "1",
    .summary = "street view house numbers, full images with digit boxes (format 1)",
    .files = svhn_format_1_files,
    .file_count = sizeof svhn_format_1_files / sizeof svhn_format_1_files[0],
};

const struct downloader svhn_format_2_downloader = {
    .name = "svhn",
    .variant = "2",
    .summary = "street view house numbers, cropped 32x32 digits (format 2)",
    .files = svhn_format_2_files,
    .file_count = sizeof svhn_format_2_files / sizeof svhn_format_2_files[0],
};
