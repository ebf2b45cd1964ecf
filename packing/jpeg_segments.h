/* A JPEG's header gathered from its file, for a probe: the segments libjpeg reads up to the
   first scan, copied without the large metadata segments between them (Exif, ICC profiles,
   comments), which are skipped, not read. */
#ifndef FUEL_JPEG_SEGMENTS_H
#define FUEL_JPEG_SEGMENTS_H

#include <stddef.h>

/* Segments kept at most: a header longer than this without its metadata is refused. */
#define JPEG_SEGMENTS_MAX_BYTES ((size_t)1 << 20)

/* Into BYTES (JPEG_SEGMENTS_MAX_BYTES long) the start of image, each segment of the file open as
   DESCRIPTOR (PATH) up to and with its first start of scan but the application and comment
   segments over 1 KiB, then an end of image; their count into *SIZE. EXIT_CORRUPT_INPUT naming
   PATH when the file ends first or the segments kept do not fit. */
int jpeg_segments_gather(int descriptor, const char *path, unsigned char *bytes, size_t *size);

#endif
