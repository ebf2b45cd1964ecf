/* Decodes JPEG images held in memory with libjpeg-turbo to the pixels PIL gives for them. */
#ifndef FUEL_JPEG_READ_H
#define FUEL_JPEG_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* PIL's own limit: Image.open raises DecompressionBombError above twice MAX_IMAGE_PIXELS
   (89,478,485), so Fuel's converters never see a larger image. */
#define JPEG_PIL_MAX_PIXELS UINT64_C(178956970)
/* Images of more pixels than this (or than a caller's smaller limit) are refused before any
   pixel or coefficient buffer is allocated: what PIL opens is accepted. */
#define JPEG_MAX_PIXELS JPEG_PIL_MAX_PIXELS
/* Files of more scans are refused as they are met (each progressive scan passes over the whole
   image: 60,000 of them take minutes); real photos have at most a few dozen. */
#define JPEG_MAX_SCANS 500

/* What the header says, as PIL reads it: 1 channel (grayscale, PIL's "L"), 3 (RGB, whatever
   the stored color space) or 4 (CMYK and YCCK, PIL's "CMYK"). */
struct jpeg_header {
    uint32_t width;
    uint32_t height;
    uint32_t channels;
    bool progressive;
    /* Bytes libjpeg holds for the whole image while decoding it, besides the pixels: the
       coefficients of every block when the file has several scans (progressive ones). */
    uint64_t coefficient_bytes;
};

struct jpeg_options {
    uint64_t max_pixels; /* 0: JPEG_MAX_PIXELS */
    bool interleaved;    /* height x width x channels, as numpy.asarray(PIL image); else
                            channels x height x width, Fuel's layout */
    /* false: every libjpeg warning ("Corrupt JPEG data: ...", "Premature end of JPEG file") is
       a failure. true: only what makes PIL raise fails (the data ending before the last row);
       PIL ignores the other warnings and keeps the pixels libjpeg made of the damaged data. */
    bool warnings_as_pil;
    /* Not 0: decoded at the smallest of libjpeg's scales 1/8, 2/8, ... 8/8 at which both sides
       keep at least this many pixels (PIL's Image.draft), the image then taking the scaled size. */
    uint32_t reduce_to;
    bool luminance; /* 3 components decoded to their luma alone (1 channel, PIL's draft("L")) */
};

struct jpeg_image {
    uint32_t width;
    uint32_t height;
    uint32_t channels;
    uint8_t *pixels; /* channels * height * width bytes in the layout the options asked for */
    size_t capacity; /* bytes allocated at pixels: a later decode into the same image reuses them */
    uint8_t *scratch; /* the interleaved pixels before the channel-major layout, reused likewise */
    size_t scratch_capacity;
};

/* Reads the header of the SIZE bytes at DATA (no pixel is decoded). EXIT_CORRUPT_INPUT with
   "cannot decode JPEG: NAME: why" when they are not a JPEG PIL could decode (a component count
   other than 1, 3 or 4, a precision other than 8 bits). */
int jpeg_probe(const void *data, size_t size, const char *name, struct jpeg_header *header);

/* Decodes the SIZE bytes at DATA into IMAGE (start from a zeroed image; decoding again into
   the same image reuses its buffers) as PIL 9 does: JDCT_ISLOW, fancy upsampling, YCbCr and
   RGB to RGB, grayscale to 1 channel, CMYK and YCCK to CMYK with Adobe's inverted values
   (255 - v, PIL's "CMYK;I"). OPTIONS may be NULL (the defaults above). EXIT_CORRUPT_INPUT
   naming NAME when the bytes do not decode or declare too many pixels, EXIT_OTHER when memory
   runs out; IMAGE then holds no pixels but keeps its buffers. */
int jpeg_decode(const void *data, size_t size, const char *name, const struct jpeg_options *options,
                struct jpeg_image *image);

/* Validates the SIZE bytes at DATA as jpeg_decode would, with the same verdict and message,
   faster: under PIL's policy a single Huffman-coded scan that ends at an end marker is passed
   once its header and tables are read (nothing in it could fail), and every other file is
   decoded at 1/8 scale, the pixels discarded (every coefficient's Huffman code is still read). */
int jpeg_check(const void *data, size_t size, const char *name, const struct jpeg_options *options);

void jpeg_image_free(struct jpeg_image *image);

/* The bytes decoding an image of HEADER takes at most: its pixels (twice when channel-major: the
   interleaved rows first), and libjpeg's coefficients when it has several scans. */
uint64_t jpeg_decode_bytes(const struct jpeg_header *header, bool interleaved);

/* Rearranges HEIGHT x WIDTH x CHANNELS bytes at INTERLEAVED into CHANNELS x HEIGHT x WIDTH at
   PLANAR (the two must not overlap). */
void jpeg_to_channel_major(const uint8_t *interleaved, uint32_t height, uint32_t width,
                           uint32_t channels, uint8_t *planar);

#endif
