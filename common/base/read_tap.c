/* Hashes inputs from the bytes their readers read (see read_tap.h): a registry of taps by file
   identity, the descriptors feeding them, and each tap's finish from where reading stopped. */
#include "read_tap.h"

#include "error.h"
#include "hash_stream.h"
#include "input_file.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Descriptors above this one never feed a tap: their files are hashed at the finish. */
enum { ATTACHED_LIMIT = 4096 };

/* What is read at once to fill a gap the reader skipped or to finish the file. */
enum { FILL_BLOCK = 1 << 20 };

/* A read ahead of the bytes hashed of at most HOLD_READ bytes is held, up to HOLD_TOTAL in all,
   until the hash reaches it, instead of reading the gap at once: HDF5 reads its metadata at the
   file's end first and its data in order after, which the gap's fill would read twice. A gap of
   at most GAP_READ bytes before a held read is read at once (bytes between the objects a reader
   reads in order: else the hash would wait there, every read after held). */
enum { HOLD_READ = 1 << 20, HOLD_TOTAL = 8 << 20, GAP_READ = 1 << 16 };

/* Bytes read ahead of the hash, kept by offset. */
struct held_read {
    struct held_read *next;
    uint64_t offset;
    size_t count;
    unsigned char bytes[];
};

enum content_state { CONTENT_UNWANTED, CONTENT_WANTED, CONTENT_FEEDING, CONTENT_ENDED };

struct read_tap {
    struct read_tap *next; /* in the registry */
    char *path;
    bool known; /* DEVICE and INODE are the file's */
    dev_t device;
    ino_t inode;
    bool registered;
    int descriptor; /* the one feeding it, or -1 */
    pthread_mutex_t lock; /* everything below */
    bool md5;
    struct hash_stream *raw; /* the file's bytes, hashed on the hashing thread */
    bool broken;             /* a gap could not be read: the finish hashes the whole file */
    uint64_t offset;         /* the bytes appended to RAW */
    struct held_read *held;  /* reads ahead of OFFSET, by offset */
    size_t held_bytes;
    unsigned char head[HASH_HEAD_BYTES]; /* the file's first bytes, as fed */
    size_t head_length;
    enum content_state content_state;
    read_tap_head_test *content_test; /* NULL: the content is wanted whatever the head */
    struct hash_stream *content;
    char content_hex[HASH_HEX_SIZE];
    uint64_t content_size;
};

/* A file open through input_file_open, so that a tap made while it is open takes its descriptor
   (fuel fixture --from opens its parent before the provenance begins). */
struct open_file {
    bool open;
    dev_t device;
    ino_t inode;
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct read_tap *registry;
static struct read_tap *attached[ATTACHED_LIMIT];
static struct open_file opened[ATTACHED_LIMIT];
static int opened_end; /* no descriptor at or past it is open */

static void held_free(struct read_tap *tap)
{
    while (tap->held != NULL) {
        struct held_read *next = tap->held->next;
        free(tap->held);
        tap->held = next;
    }
    tap->held_bytes = 0;
}

static void streams_free(struct read_tap *tap)
{
    held_free(tap);
    hash_stream_free(tap->raw);
    hash_stream_free(tap->content);
    tap->raw = tap->content = NULL;
}

/* TAP, registering, feeds from the descriptor its file is open on already, if any feeds none. */
static void open_descriptor_take(struct read_tap *tap)
{
    for (int descriptor = 0; tap->known && descriptor < opened_end; descriptor++)
        if (opened[descriptor].open && attached[descriptor] == NULL &&
            opened[descriptor].device == tap->device && opened[descriptor].inode == tap->inode) {
            tap->descriptor = descriptor;
            attached[descriptor] = tap;
            return;
        }
}

int read_tap_create(struct read_tap **tap, const char *path, bool md5)
{
    *tap = calloc(1, sizeof **tap);
    if (*tap == NULL || ((*tap)->path = strdup(path)) == NULL) {
        free(*tap);
        *tap = NULL;
        return error_set(EXIT_OTHER, "cannot hash: out of memory");
    }
    (*tap)->descriptor = -1;
    (*tap)->md5 = md5;
    pthread_mutex_init(&(*tap)->lock, NULL);
    int result = hash_stream_create(&(*tap)->raw, md5);
    if (result != EXIT_OK) {
        read_tap_free(*tap);
        *tap = NULL;
        return result;
    }
    struct stat status;
    if (stat(path, &status) == 0 && S_ISREG(status.st_mode)) {
        (*tap)->known = true;
        (*tap)->device = status.st_dev;
        (*tap)->inode = status.st_ino;
    }
    pthread_mutex_lock(&registry_lock);
    open_descriptor_take(*tap);
    (*tap)->next = registry;
    registry = *tap;
    (*tap)->registered = true;
    pthread_mutex_unlock(&registry_lock);
    return EXIT_OK;
}

void read_tap_want_content(struct read_tap *tap, read_tap_head_test *wanted)
{
    pthread_mutex_lock(&tap->lock);
    tap->content_test = wanted;
    if (tap->content_state == CONTENT_UNWANTED)
        tap->content_state = CONTENT_WANTED;
    pthread_mutex_unlock(&tap->lock);
}

/* Takes TAP out of the registry and off its descriptor; under registry_lock. */
static void unregister(struct read_tap *tap)
{
    for (struct read_tap **link = &registry; *link != NULL; link = &(*link)->next)
        if (*link == tap) {
            *link = tap->next;
            break;
        }
    if (tap->descriptor >= 0 && attached[tap->descriptor] == tap)
        attached[tap->descriptor] = NULL;
    tap->descriptor = -1;
    tap->registered = false;
}

void read_tap_attach(int descriptor, const struct stat *status)
{
    if (descriptor < 0 || descriptor >= ATTACHED_LIMIT)
        return;
    pthread_mutex_lock(&registry_lock);
    attached[descriptor] = NULL;
    opened[descriptor] = (struct open_file){true, status->st_dev, status->st_ino};
    opened_end = descriptor + 1 > opened_end ? descriptor + 1 : opened_end;
    for (struct read_tap *tap = registry; tap != NULL; tap = tap->next)
        if (tap->known && tap->device == status->st_dev &&
            (tap->descriptor < 0 || attached[tap->descriptor] != tap) && /* closed by close(2) */
            tap->inode == status->st_ino) {
            tap->descriptor = descriptor;
            attached[descriptor] = tap;
            pthread_mutex_lock(&tap->lock);
            if (tap->content_state == CONTENT_FEEDING) { /* a reader before stopped midway */
                hash_stream_free(tap->content);
                tap->content = NULL;
                tap->content_state = CONTENT_WANTED;
            }
            pthread_mutex_unlock(&tap->lock);
            break;
        }
    pthread_mutex_unlock(&registry_lock);
}

void read_tap_detach(int descriptor)
{
    if (descriptor < 0 || descriptor >= ATTACHED_LIMIT)
        return;
    pthread_mutex_lock(&registry_lock);
    struct read_tap *tap = attached[descriptor];
    if (tap != NULL) {
        tap->descriptor = -1;
    }
    attached[descriptor] = NULL;
    opened[descriptor].open = false;
    while (opened_end > 0 && !opened[opened_end - 1].open)
        opened_end--;
    pthread_mutex_unlock(&registry_lock);
}

bool read_tap_attached(int descriptor)
{
    if (descriptor < 0 || descriptor >= ATTACHED_LIMIT)
        return false;
    pthread_mutex_lock(&registry_lock);
    bool found = attached[descriptor] != NULL;
    pthread_mutex_unlock(&registry_lock);
    return found;
}

/* DESCRIPTOR's tap, locked (read_tap_bytes and the content calls unlock it); NULL: none. */
static struct read_tap *locked_tap(int descriptor)
{
    if (descriptor < 0 || descriptor >= ATTACHED_LIMIT)
        return NULL;
    pthread_mutex_lock(&registry_lock);
    struct read_tap *tap = attached[descriptor];
    if (tap != NULL)
        pthread_mutex_lock(&tap->lock);
    pthread_mutex_unlock(&registry_lock);
    return tap;
}

/* Hands the next COUNT bytes of the file to the hashing threads. */
static void tap_hash(struct read_tap *tap, const unsigned char *bytes, size_t count)
{
    if (tap->offset < HASH_HEAD_BYTES) {
        size_t kept = HASH_HEAD_BYTES - (size_t)tap->offset < count
                          ? HASH_HEAD_BYTES - (size_t)tap->offset : count;
        memcpy(tap->head + tap->offset, bytes, kept);
        tap->head_length = (size_t)tap->offset + kept;
    }
    tap->offset += count;
    hash_stream_append(tap->raw, bytes, count);
}

/* Hashes the held reads the hash has reached, dropping those behind it. */
static void held_drain(struct read_tap *tap)
{
    while (tap->held != NULL && tap->held->offset <= tap->offset) {
        struct held_read *first = tap->held;
        if (first->offset + first->count > tap->offset) {
            size_t behind = (size_t)(tap->offset - first->offset);
            tap_hash(tap, first->bytes + behind, first->count - behind);
        }
        tap->held = first->next;
        tap->held_bytes -= first->count;
        free(first);
    }
}

/* Keeps a copy of COUNT bytes read at OFFSET, ahead of the hash; false when over the bounds. */
static bool held_keep(struct read_tap *tap, const void *bytes, size_t count, uint64_t offset)
{
    if (count > HOLD_READ || tap->held_bytes + count > HOLD_TOTAL)
        return false;
    struct held_read *made = malloc(sizeof *made + count);
    if (made == NULL)
        return false;
    *made = (struct held_read){.offset = offset, .count = count};
    memcpy(made->bytes, bytes, count);
    struct held_read **link = &tap->held;
    while (*link != NULL && (*link)->offset <= offset)
        link = &(*link)->next;
    made->next = *link;
    *link = made;
    tap->held_bytes += count;
    return true;
}

/* Hashes the file's bytes from the tap's offset up to END (UINT64_MAX: its end), the held reads'
   where they have them, the rest read from DESCRIPTOR; EXIT_OK, or EXIT_OTHER with errno set. */
static int tap_fill(struct read_tap *tap, int descriptor, uint64_t end)
{
    uint64_t most = end - tap->offset < FILL_BLOCK ? end - tap->offset : FILL_BLOCK;
    unsigned char *buffer = malloc(most > 0 ? (size_t)most : 1);
    if (buffer == NULL)
        return EXIT_OTHER;
    int result = EXIT_OK;
    for (held_drain(tap); tap->offset < end; held_drain(tap)) {
        uint64_t stop = tap->held != NULL && tap->held->offset < end ? tap->held->offset : end;
        uint64_t wanted = stop - tap->offset < most ? stop - tap->offset : most;
        ssize_t count = pread(descriptor, buffer, (size_t)wanted, (off_t)tap->offset);
        if (count < 0 && errno == EINTR)
            continue;
        if (count < 0 || (count == 0 && end != UINT64_MAX)) {
            result = EXIT_OTHER;
            break;
        }
        if (count == 0)
            break;
        tap_hash(tap, buffer, (size_t)count);
    }
    free(buffer);
    return result;
}

void read_tap_bytes(int descriptor, const void *bytes, size_t count, uint64_t offset)
{
    struct read_tap *tap = locked_tap(descriptor);
    if (tap == NULL)
        return;
    if (!tap->broken && offset > tap->offset && offset - tap->offset <= GAP_READ)
        tap->broken = tap_fill(tap, descriptor, offset) != EXIT_OK; /* then hashed uncopied */
    bool held = !tap->broken && offset > tap->offset && held_keep(tap, bytes, count, offset);
    while (held && !tap->broken && tap->held != NULL &&
           tap->held->offset - tap->offset <= GAP_READ)
        tap->broken = tap_fill(tap, descriptor, tap->held->offset) != EXIT_OK;
    if (!held && !tap->broken && offset > tap->offset && tap_fill(tap, descriptor, offset) != EXIT_OK)
        tap->broken = true;
    if (!held && !tap->broken && offset + count > tap->offset) {
        size_t skipped = (size_t)(tap->offset - offset);
        tap_hash(tap, (const unsigned char *)bytes + skipped, count - skipped);
        held_drain(tap);
    }
    pthread_mutex_unlock(&tap->lock);
}

bool read_tap_wants_content(int descriptor)
{
    struct read_tap *tap = locked_tap(descriptor);
    if (tap == NULL)
        return false;
    bool wanted = tap->content_state == CONTENT_WANTED || tap->content_state == CONTENT_FEEDING;
    pthread_mutex_unlock(&tap->lock);
    return wanted;
}

/* The content's first bytes are coming: its hash begins unless the file's first bytes say it is
   not wanted (without one, the finish's caller inflates the file again when it needs it). */
static void content_begin(struct read_tap *tap)
{
    if (tap->content_state != CONTENT_WANTED)
        return;
    if (tap->content_test != NULL && !tap->content_test(tap->head, tap->head_length)) {
        tap->content_state = CONTENT_UNWANTED;
        return;
    }
    if (hash_stream_create(&tap->content, false) == EXIT_OK)
        tap->content_state = CONTENT_FEEDING;
    else
        error_clear();
}

void read_tap_content(int descriptor, const void *bytes, size_t count)
{
    struct read_tap *tap = locked_tap(descriptor);
    if (tap == NULL)
        return;
    content_begin(tap);
    if (tap->content_state == CONTENT_FEEDING)
        hash_stream_append(tap->content, bytes, count);
    pthread_mutex_unlock(&tap->lock);
}

void read_tap_content_end(int descriptor)
{
    struct read_tap *tap = locked_tap(descriptor);
    if (tap == NULL)
        return;
    content_begin(tap);
    if (tap->content_state == CONTENT_FEEDING)
        tap->content_state = CONTENT_ENDED; /* its digest taken at the finish */
    pthread_mutex_unlock(&tap->lock);
}

/* Starts TAP's hashes again from the file's first byte. */
static int tap_restart(struct read_tap *tap)
{
    hash_stream_free(tap->raw);
    held_free(tap);
    tap->raw = NULL;
    tap->offset = 0;
    tap->broken = false;
    return hash_stream_create(&tap->raw, tap->md5);
}

/* Hashes the file from the tap's offset to its end; errors as hash_file_digests'. */
static int tap_complete(struct read_tap *tap)
{
    int result = tap->broken ? tap_restart(tap) : EXIT_OK;
    if (result != EXIT_OK)
        return result;
    int descriptor = input_file_open(tap->path, NULL);
    if (descriptor < 0)
        return input_open_failure(tap->path);
    if (tap_fill(tap, descriptor, UINT64_MAX) != EXIT_OK)
        result = error_set(EXIT_OTHER, "cannot read: %s: %s", tap->path, strerror(errno));
    close(descriptor);
    return result;
}

int read_tap_finish(struct read_tap *tap, struct file_digests *digests)
{
    pthread_mutex_lock(&registry_lock);
    unregister(tap);
    pthread_mutex_unlock(&registry_lock);
    pthread_mutex_lock(&tap->lock);
    *digests = (struct file_digests){0};
    int result = tap_complete(tap);
    if (result == EXIT_OK)
        hash_stream_finish(tap->raw, digests);
    if (result == EXIT_OK && tap->content_state == CONTENT_ENDED) {
        struct file_digests content;
        hash_stream_finish(tap->content, &content);
        memcpy(tap->content_hex, content.sha256, HASH_HEX_SIZE);
        tap->content_size = content.size;
    }
    pthread_mutex_unlock(&tap->lock);
    return result;
}

bool read_tap_content_digest(const struct read_tap *tap, char hex[HASH_HEX_SIZE], uint64_t *size)
{
    if (tap->content_state != CONTENT_ENDED)
        return false;
    memcpy(hex, tap->content_hex, HASH_HEX_SIZE);
    *size = tap->content_size;
    return true;
}

void read_tap_free(struct read_tap *tap)
{
    if (tap == NULL)
        return;
    pthread_mutex_lock(&registry_lock);
    if (tap->registered)
        unregister(tap);
    pthread_mutex_unlock(&registry_lock);
    pthread_mutex_lock(&tap->lock); /* a reader's feed in progress ends first */
    pthread_mutex_unlock(&tap->lock);
    streams_free(tap);
    pthread_mutex_destroy(&tap->lock);
    free(tap->path);
    free(tap);
}
