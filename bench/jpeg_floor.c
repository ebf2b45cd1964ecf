/* The decode floor of the JPEG benchmarks: streams the members of zip archives with libarchive
   (as fuel does, deflate included) and decodes each JPEG with libjpeg-turbo on THREADS worker
   threads with PIL's settings (JDCT_ISLOW, fancy upsampling), discarding the pixels: what no
   converter of these archives can beat. Each thread keeps its decompressor from image to image
   and reads rows 16 at a time; THREADS 0 decodes in the reading thread (no thread overlaps
   another: the floor of a serial converter). usage: jpeg_floor THREADS ZIP... ; prints the images
   decoded. */
#include <archive.h>
#include <archive_entry.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

enum { SLOTS = 64 };

struct queue {
    unsigned char *data[SLOTS];
    size_t size[SLOTS];
    size_t head, tail;
    int done;
    pthread_mutex_t lock;
    pthread_cond_t changed;
};

static struct queue queue = {.lock = PTHREAD_MUTEX_INITIALIZER,
                             .changed = PTHREAD_COND_INITIALIZER};

/* One decompressor per thread, kept from image to image; rows read 16 at a time into one buffer
   the thread reuses. */
struct decoder {
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr errors;
    unsigned char *rows;
    size_t capacity;
};

static void decode(struct decoder *decoder, const unsigned char *data, size_t size)
{
    struct jpeg_decompress_struct *info = &decoder->info;
    jpeg_mem_src(info, data, size);
    jpeg_read_header(info, TRUE);
    info->dct_method = JDCT_ISLOW;
    info->do_fancy_upsampling = TRUE;
    jpeg_start_decompress(info);
    size_t stride = (size_t)info->output_width * info->output_components;
    if (16 * stride > decoder->capacity) {
        decoder->rows = realloc(decoder->rows, 16 * stride);
        decoder->capacity = 16 * stride;
    }
    JSAMPROW rows[16];
    for (int row = 0; row < 16; row++)
        rows[row] = decoder->rows + row * stride;
    while (info->output_scanline < info->output_height)
        jpeg_read_scanlines(info, rows, 16);
    jpeg_finish_decompress(info);
}

static void *worker(void *argument)
{
    (void)argument;
    struct decoder decoder = {0};
    decoder.info.err = jpeg_std_error(&decoder.errors);
    jpeg_create_decompress(&decoder.info);
    for (;;) {
        pthread_mutex_lock(&queue.lock);
        while (queue.head == queue.tail && !queue.done)
            pthread_cond_wait(&queue.changed, &queue.lock);
        if (queue.head == queue.tail) {
            pthread_mutex_unlock(&queue.lock);
            break;
        }
        size_t slot = queue.head++ % SLOTS;
        unsigned char *data = queue.data[slot];
        size_t size = queue.size[slot];
        pthread_cond_broadcast(&queue.changed);
        pthread_mutex_unlock(&queue.lock);
        decode(&decoder, data, size);
        free(data);
    }
    jpeg_destroy_decompress(&decoder.info);
    free(decoder.rows);
    return NULL;
}

static void push(unsigned char *data, size_t size)
{
    pthread_mutex_lock(&queue.lock);
    while (queue.tail - queue.head == SLOTS)
        pthread_cond_wait(&queue.changed, &queue.lock);
    queue.data[queue.tail % SLOTS] = data;
    queue.size[queue.tail % SLOTS] = size;
    queue.tail++;
    pthread_cond_broadcast(&queue.changed);
    pthread_mutex_unlock(&queue.lock);
}

/* Streams PATH's regular members into the queue, or through SERIAL when it is not NULL; the count
   read. */
static long stream(const char *path, struct decoder *serial)
{
    struct archive *archive = archive_read_new();
    archive_read_support_format_zip_streamable(archive);
    if (archive_read_open_filename(archive, path, 1 << 16) != ARCHIVE_OK) {
        fprintf(stderr, "jpeg_floor: %s: %s\n", path, archive_error_string(archive));
        exit(1);
    }
    long count = 0;
    struct archive_entry *entry;
    while (archive_read_next_header(archive, &entry) == ARCHIVE_OK) {
        if (archive_entry_filetype(entry) != AE_IFREG)
            continue;
        size_t capacity = 1 << 16, size = 0;
        unsigned char *data = malloc(capacity);
        for (la_ssize_t read; (read = archive_read_data(archive, data + size, capacity - size)) > 0;) {
            size += (size_t)read;
            if (size == capacity)
                data = realloc(data, capacity *= 2);
        }
        if (serial != NULL) {
            decode(serial, data, size);
            free(data);
        } else {
            push(data, size);
        }
        count++;
    }
    archive_read_free(archive);
    return count;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: jpeg_floor THREADS ZIP...\n");
        return 2;
    }
    int threads = atoi(argv[1]);
    pthread_t workers[256];
    for (int index = 0; index < threads && index < 256; index++)
        pthread_create(&workers[index], NULL, worker, NULL);
    struct decoder serial = {0};
    if (threads == 0) {
        serial.info.err = jpeg_std_error(&serial.errors);
        jpeg_create_decompress(&serial.info);
    }
    long count = 0;
    for (int index = 2; index < argc; index++)
        count += stream(argv[index], threads == 0 ? &serial : NULL);
    if (threads == 0) {
        jpeg_destroy_decompress(&serial.info);
        free(serial.rows);
    }
    pthread_mutex_lock(&queue.lock);
    queue.done = 1;
    pthread_cond_broadcast(&queue.changed);
    pthread_mutex_unlock(&queue.lock);
    for (int index = 0; index < threads && index < 256; index++)
        pthread_join(workers[index], NULL);
    printf("%ld\n", count);
    return 0;
}
