/* Benchmark baseline: inflates every miCOMPRESSED element of a little-endian MAT-file, output discarded. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#define INPUT_SIZE (128 * 1024)
#define OUTPUT_SIZE (768 * 1024)

static unsigned char input[INPUT_SIZE], output[OUTPUT_SIZE];

static int inflate_element(FILE *file, uint32_t size)
{
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit(&stream) != Z_OK)
        return 1;
    int status = Z_OK;
    while (status != Z_STREAM_END) {
        if (stream.avail_in == 0) {
            size_t part = size < INPUT_SIZE ? size : INPUT_SIZE;
            if (part == 0 || fread(input, 1, part, file) != part)
                break;
            size -= (uint32_t)part;
            stream.next_in = input;
            stream.avail_in = (uInt)part;
        }
        stream.next_out = output;
        stream.avail_out = OUTPUT_SIZE;
        status = inflate(&stream, Z_NO_FLUSH);
        if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR)
            break;
    }
    inflateEnd(&stream);
    return status == Z_STREAM_END && fseek(file, size, SEEK_CUR) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    FILE *file = argc == 2 ? fopen(argv[1], "rb") : NULL;
    uint32_t tag[2];
    if (file == NULL || fseek(file, 128, SEEK_SET) != 0) {
        fprintf(stderr, "usage: inflate_elements FILE.mat\n");
        return 2;
    }
    while (fread(tag, sizeof tag, 1, file) == 1) {
        int failed = tag[0] == 15 ? inflate_element(file, tag[1]) : fseek(file, tag[1], SEEK_CUR);
        if (failed) {
            fprintf(stderr, "inflate_elements: %s: cannot inflate\n", argv[1]);
            return 1;
        }
    }
    fclose(file);
    return 0;
}
