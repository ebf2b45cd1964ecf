/* Builds the fuel_provenance JSON, the inputs hashed from the bytes their readers read (taps) or
   in a thread while the conversion runs. */
#include "provenance.h"

#include "common/base/error.h"
#include "common/base/hash.h"
#include "common/base/threads.h"
#include "common/base/provenance_inputs.h"
#include "common/base/read_tap.h"
#include "common/base/versions.h"
#include "common/formats/fixture_marker.h"
#include "common/formats/gzip/inflated_digest.h"

#include <jansson.h>
#include <libgen.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

struct input_digest {
    char *path;
    char *name; /* NULL: the path's file name */
    uint64_t size;
    unsigned char sha256[32]; /* binary, hex only in the text: an image folder has many inputs */
    unsigned char md5[16];    /* unless MD5_TAKEN, unset */
    bool md5_taken; /* a raw file whose md5 can match the published one */
    /* With MD5_TAKEN, the published file's sha256 and md5 when both are known: the md5 is then
       not computed, but the published one when the sha256 is that one; NULL otherwise. */
    const char *implying_sha256;
    const char *implied_md5;
    bool md5_pending; /* the sha256 is another: the md5 is computed at the finish */
    bool fixture; /* the file carries the mark of fuel fixture --raw */
    const char *published; /* the checksum its record publishes, when it publishes the content
                              too (struct provenance_publication); NULL otherwise */
    struct provenance_publication publication; /* with PUBLISHED: the record's whole entry */
    bool content_read;     /* its size is not the published one: its content hashed as read */
    bool content_digested; /* other bytes than published: its decompressed content's digest */
    uint64_t content_size;
    unsigned char content_sha256[32];
    bool supplied; /* its digests come from provenance_supply, not the thread */
    bool digested;
    struct read_tap *tap; /* hashing it as it is read, or NULL */
    bool content_tapped;  /* the tap inflated its content whole: CONTENT_* are set */
};

struct provenance {
    json_t *argv;
    struct input_digest *inputs;
    size_t input_count;
    bool raw_files; /* md5 too */
    bool threaded;  /* THREAD hashes the inputs neither supplied nor tapped */
    pthread_t thread;
    pthread_mutex_t supplying; /* provenance_supply's callers */
    atomic_bool cancelled;
    int result;
    char message[2048];
};

static void provenance_free(struct provenance *provenance)
{
    for (size_t index = 0; index < provenance->input_count; index++) {
        free(provenance->inputs[index].path);
        free(provenance->inputs[index].name);
        read_tap_free(provenance->inputs[index].tap);
    }
    free(provenance->inputs);
    json_decref(provenance->argv);
    pthread_mutex_destroy(&provenance->supplying);
    free(provenance);
}

/* COUNT bytes from the 2 * COUNT lowercase hex digits of HEX (hash_finish's). */
static unsigned nibble(char digit)
{
    return digit <= '9' ? (unsigned)(digit - '0') : (unsigned)(digit - 'a' + 10);
}

static void bytes_from_hex(const char *hex, unsigned char *bytes, size_t count)
{
    for (size_t index = 0; index < count && hex[2 * index] != '\0'; index++)
        bytes[index] = (unsigned char)(nibble(hex[2 * index]) << 4 | nibble(hex[2 * index + 1]));
}

static void hex_from_bytes(const unsigned char *bytes, size_t count, char hex[HASH_HEX_SIZE])
{
    for (size_t index = 0; index < count && 2 * index + 2 < HASH_HEX_SIZE; index++)
        snprintf(hex + 2 * index, 3, "%02x", bytes[index]);
}

/* Whether INPUT's md5 is computed as it is read. */
static bool md5_computed(const struct input_digest *input)
{
    return input->md5_taken && input->implying_sha256 == NULL;
}

/* With its sha256 (hex) known: INPUT's md5 is the published one, or (another file of the
   published size, rare) pending. */
static void md5_imply(struct input_digest *input, const char *sha256)
{
    if (input->implying_sha256 == NULL)
        return;
    input->md5_pending = strcasecmp(sha256, input->implying_sha256) != 0;
    bytes_from_hex(input->implied_md5, input->md5, sizeof input->md5);
}

static void digests_keep(struct input_digest *input, const struct file_digests *digests)
{
    input->size = digests->size;
    bytes_from_hex(digests->sha256, input->sha256, sizeof input->sha256);
    bytes_from_hex(digests->md5, input->md5, sizeof input->md5);
    md5_imply(input, digests->sha256);
    input->fixture = fixture_marker_found(digests->head, digests->head_length, digests->tail,
                                          digests->tail_length);
    input->digested = true;
}

/* make DIGESTS=off builds the baseline bench/compare.sh measures provenance against: no input is
   read or hashed, its digests stay zero. Never a product build. */
#ifdef FUEL_BENCH_NO_DIGESTS
enum { DIGESTS_ON = 0 };
#else
enum { DIGESTS_ON = 1 };
#endif

/* Hashes input INDEX from its file; error_set on failure. */
static int input_hash(struct provenance *provenance, size_t index)
{
    if (!DIGESTS_ON) {
        provenance->inputs[index].digested = true;
        return EXIT_OK;
    }
    struct file_digests digests;
    int result = hash_file_digests(provenance->inputs[index].path,
                                   md5_computed(&provenance->inputs[index]), &digests);
    if (result == EXIT_OK)
        digests_keep(&provenance->inputs[index], &digests);
    return result;
}

/* At the caller's priority, not niced as decoding workers are: an export waits for it before
   its first set (export_npy under load: 0.86 s against 0.46 s without the digests). */
static void *hash_inputs(void *argument)
{
    struct provenance *provenance = argument;
    for (size_t index = 0; index < provenance->input_count; index++) {
        if (atomic_load(&provenance->cancelled))
            break;
        if (provenance->inputs[index].supplied || provenance->inputs[index].tap != NULL)
            continue;
        provenance->result = input_hash(provenance, index);
        if (provenance->result != EXIT_OK) {
            snprintf(provenance->message, sizeof provenance->message, "%s", error_message());
            break;
        }
    }
    return NULL;
}

static int copy_arguments(struct provenance *provenance, int argc, char *const *argv,
                          const char *const *input_paths, const char *const *names,
                          size_t input_count)
{
    provenance->argv = json_array();
    if (provenance->argv == NULL)
        return -1;
    for (int index = 0; index < argc; index++)
        if (json_array_append_new(provenance->argv, json_string(argv[index])) != 0)
            return -1;
    provenance->inputs = calloc(input_count + 1, sizeof *provenance->inputs);
    if (provenance->inputs == NULL)
        return -1;
    for (size_t index = 0; index < input_count; index++) {
        provenance->input_count++;
        provenance->inputs[index].path = strdup(input_paths[index]);
        if (provenance->inputs[index].path == NULL)
            return -1;
        if (names != NULL && (provenance->inputs[index].name = strdup(names[index])) == NULL)
            return -1;
    }
    return 0;
}

int provenance_begin(struct provenance **provenance, int argc, char *const *argv,
                     const char *const *input_paths, size_t input_count, bool raw_files)
{
    return provenance_begin_named(provenance, argc, argv, input_paths, NULL, input_count,
                                  raw_files);
}

int provenance_begin_named(struct provenance **provenance, int argc, char *const *argv,
                           const char *const *input_paths, const char *const *names,
                           size_t input_count, bool raw_files)
{
    return provenance_begin_supplied(provenance, argc, argv, input_paths, names, input_count,
                                     raw_files, NULL, NULL);
}

/* Whether a file beginning with HEAD's LENGTH bytes lacks the fixture mark (a fixture's content
   is never compared with the published one). */
static bool head_unmarked(const unsigned char *head, size_t length)
{
    return !fixture_marker_found(head, length, NULL, 0);
}

/* What INPUT's record publishes (NULL: nothing known): whether its md5 is taken, whether its
   content is wanted, and in which pass. A file that cannot be looked at keeps both, as before. */
static void publication_apply(struct input_digest *input, bool raw_files,
                              const struct provenance_publication *published)
{
    input->md5_taken = raw_files;
    if (published == NULL)
        return;
    struct stat status;
    bool known = stat(input->path, &status) == 0 && S_ISREG(status.st_mode);
    bool other_size = published->size > 0 && known && (uint64_t)status.st_size != published->size;
    input->md5_taken = raw_files && published->checksum != NULL && strlen(published->checksum) == 32 &&
                 !other_size;
    if (input->md5_taken && published->sha256 != NULL) {
        input->implying_sha256 = published->sha256;
        input->implied_md5 = published->checksum;
    }
    if (published->content && published->checksum != NULL) {
        input->published = published->checksum;
        input->publication = *published;
        bool repacked_size = published->repacked_sha256 != NULL && known &&
                             (uint64_t)status.st_size == published->repacked_size;
        input->content_read = (published->size == 0 || !known || other_size) && !repacked_size;
    }
}

/* With TAPPED, a tap for each input neither supplied nor flagged in APART; then the thread, which
   hashes the others not supplied, when there are any. */
static int hashing_start(struct provenance *provenance, bool tapped, const bool *apart)
{
    bool threaded = !tapped;
    for (size_t index = 0; tapped && index < provenance->input_count; index++) {
        struct input_digest *input = &provenance->inputs[index];
        if (apart != NULL && apart[index] && !input->supplied)
            threaded = true;
        int result = !DIGESTS_ON || input->supplied || (apart != NULL && apart[index])
                         ? EXIT_OK
                         : read_tap_create(&input->tap, input->path, md5_computed(input));
        if (result != EXIT_OK)
            return result;
        if (input->tap != NULL && input->published != NULL && input->content_read)
            read_tap_want_content(input->tap, head_unmarked);
    }
    int number = threaded ? threads_start(&provenance->thread, hash_inputs, provenance) : 0;
    if (number != 0)
        return error_set(EXIT_OTHER, "cannot record provenance: cannot start a thread: %s",
                         strerror(number));
    provenance->threaded = threaded;
    return EXIT_OK;
}

/* The inputs' arguments of begin. */
struct begin_inputs {
    const char *const *paths;
    const char *const *names;
    size_t count;
    bool raw_files;
    const bool *supplied;
    const struct provenance_publication *published;
};

static int begin(struct provenance **provenance, int argc, char *const *argv,
                 const struct begin_inputs *inputs, bool tapped, const bool *apart)
{
    *provenance = calloc(1, sizeof **provenance);
    if (*provenance == NULL)
        return error_set(EXIT_OTHER, "cannot record provenance: out of memory");
    (*provenance)->raw_files = inputs->raw_files;
    atomic_init(&(*provenance)->cancelled, false);
    pthread_mutex_init(&(*provenance)->supplying, NULL);
    int copied =
        copy_arguments(*provenance, argc, argv, inputs->paths, inputs->names, inputs->count);
    for (size_t index = 0; copied == 0 && index < inputs->count; index++) {
        (*provenance)->inputs[index].supplied = inputs->supplied != NULL && inputs->supplied[index];
        publication_apply(&(*provenance)->inputs[index], inputs->raw_files,
                          inputs->published != NULL ? &inputs->published[index] : NULL);
    }
    int result = copied < 0 ? error_set(EXIT_OTHER, "cannot record provenance: out of memory")
                            : hashing_start(*provenance, tapped, apart);
    if (result != EXIT_OK) {
        provenance_free(*provenance);
        *provenance = NULL;
    }
    return result;
}

int provenance_begin_supplied(struct provenance **provenance, int argc, char *const *argv,
                              const char *const *input_paths, const char *const *names,
                              size_t input_count, bool raw_files, const bool *supplied,
                              const struct provenance_publication *published)
{
    struct begin_inputs inputs = {input_paths, names, input_count, raw_files, supplied, published};
    return begin(provenance, argc, argv, &inputs, false, NULL);
}

int provenance_begin_read(struct provenance **provenance, int argc, char *const *argv,
                          const char *const *input_paths, const char *const *names,
                          size_t input_count, bool raw_files, const bool *supplied,
                          const bool *apart, const struct provenance_publication *published)
{
    struct begin_inputs inputs = {input_paths, names, input_count, raw_files, supplied, published};
    return begin(provenance, argc, argv, &inputs, true, apart);
}

/* Input INDEX's entry, compact JSON (caller frees). */
static char *input_text(const struct provenance *provenance, size_t index)
{
    const struct input_digest *input = &provenance->inputs[index];
    json_t *entry = json_object();
    json_object_set_new(entry, "name", json_string(input->name != NULL ? input->name
                                                                       : basename(input->path)));
    json_object_set_new(entry, "size", json_integer((json_int_t)input->size));
    char sha256[HASH_HEX_SIZE], md5[HASH_HEX_SIZE];
    hex_from_bytes(input->sha256, sizeof input->sha256, sha256);
    hex_from_bytes(input->md5, sizeof input->md5, md5);
    json_object_set_new(entry, "sha256", json_string(sha256));
    if (input->md5_taken)
        json_object_set_new(entry, "md5", json_string(md5));
    if (input->fixture)
        json_object_set_new(entry, "origin", json_string(PROVENANCE_FIXTURE_ORIGIN));
    if (input->content_digested) {
        char content[HASH_HEX_SIZE];
        hex_from_bytes(input->content_sha256, sizeof input->content_sha256, content);
        json_object_set_new(entry, "content_size", json_integer((json_int_t)input->content_size));
        json_object_set_new(entry, "content_sha256", json_string(content));
    }
    char *text = entry != NULL ? json_dumps(entry, JSON_COMPACT) : NULL;
    json_decref(entry);
    return text;
}

static json_t *libraries_json(void)
{
    struct library_version versions[LIBRARY_VERSION_COUNT];
    library_versions(versions);
    json_t *libraries = json_object();
    for (int index = 0; libraries != NULL && index < LIBRARY_VERSION_COUNT; index++)
        json_object_set_new(libraries, versions[index].name, json_string(versions[index].version));
    return libraries;
}

/* The members before "inputs": the first note, tool, version, argv. */
static json_t *head_json(const struct provenance *provenance,
                         const struct provenance_notes *notes)
{
    json_t *head = json_object();
    if (head != NULL && notes != NULL && notes->first != NULL) {
        json_t *parent = json_object_get(notes->first, "parent");
        char sha256[HASH_HEX_SIZE];
        if (parent != NULL && provenance->input_count > 0) {
            hex_from_bytes(provenance->inputs[0].sha256, sizeof provenance->inputs[0].sha256,
                           sha256);
            json_object_set_new(parent, "sha256", json_string(sha256));
        }
        json_object_set(head, notes->first_key, notes->first);
    }
    json_object_set_new(head, "tool", json_string("fuel"));
    json_object_set_new(head, "version", json_string(FUEL_VERSION));
    json_object_set(head, "argv", provenance->argv);
    return head;
}

/* The members after "inputs": libraries, created, the converter's notes. */
static json_t *tail_json(const struct provenance_notes *notes)
{
    char created[32];
    provenance_created(created, sizeof created);
    json_t *tail = json_object();
    json_object_set_new(tail, "libraries", libraries_json());
    json_object_set_new(tail, "created", json_string(created));
    if (notes != NULL && notes->last != NULL && json_object_size(notes->last) > 0)
        json_object_set(tail, "conversion", notes->last);
    return tail;
}

/* Keys are inserted in this order and jansson keeps insertion order, so the text is stable. The
   inputs are written one entry at a time between the dumps of the members around them: an image
   folder's tens of thousands of entries never stand as one tree. */
static char *provenance_text(const struct provenance *provenance,
                             const struct provenance_notes *notes)
{
    json_t *head = head_json(provenance, notes), *tail = tail_json(notes);
    char *before = head != NULL ? json_dumps(head, JSON_COMPACT) : NULL;
    char *after = tail != NULL ? json_dumps(tail, JSON_COMPACT) : NULL;
    json_decref(head);
    json_decref(tail);
    char *text = NULL;
    size_t size = 0;
    FILE *stream = before != NULL && after != NULL ? open_memstream(&text, &size) : NULL;
    bool written = stream != NULL;
    if (written)
        fprintf(stream, "%.*s,\"inputs\":[", (int)(strlen(before) - 1), before);
    for (size_t index = 0; written && index < provenance->input_count; index++) {
        char *entry = input_text(provenance, index);
        written = entry != NULL && fprintf(stream, "%s%s", index > 0 ? "," : "", entry) > 0;
        free(entry);
    }
    if (written)
        written = fprintf(stream, "],%s", after + 1) > 0;
    if (stream != NULL && (fclose(stream) != 0 || !written)) {
        free(text);
        text = NULL;
    }
    free(before);
    free(after);
    return text;
}

int provenance_supply(struct provenance *provenance, size_t index, const void *bytes,
                      size_t size)
{
    if (!DIGESTS_ON)
        return EXIT_OK;
    struct file_digests digests;
    int result = hash_memory_digests(bytes, size, md5_computed(&provenance->inputs[index]),
                                     &digests);
    if (result != EXIT_OK)
        return result;
    struct input_digest *input = &provenance->inputs[index];
    pthread_mutex_lock(&provenance->supplying);
    unsigned char sha256[sizeof input->sha256];
    bytes_from_hex(digests.sha256, sha256, sizeof sha256);
    bool changed = input->digested && (input->size != digests.size ||
                                       memcmp(input->sha256, sha256, sizeof sha256) != 0);
    if (!changed)
        digests_keep(input, &digests);
    pthread_mutex_unlock(&provenance->supplying);
    if (changed)
        return error_set(EXIT_CORRUPT_INPUT, "input changed while being read: %s", input->path);
    return EXIT_OK;
}

void provenance_supply_digest(struct provenance *provenance, size_t index, const char *sha256,
                              uint64_t size)
{
    struct input_digest *input = &provenance->inputs[index];
    pthread_mutex_lock(&provenance->supplying);
    input->size = size;
    bytes_from_hex(sha256, input->sha256, sizeof input->sha256);
    md5_imply(input, sha256);
    input->md5_taken = input->md5_taken && !input->md5_pending; /* no file to read it from */
    input->md5_pending = false;
    input->digested = true;
    pthread_mutex_unlock(&provenance->supplying);
}

/* Whether INPUT is the re-compressed copy its record knows to hold the published content: its
   content's digest and size are then the record's. */
static bool repacked_known(struct input_digest *input)
{
    const struct provenance_publication *publication = &input->publication;
    char sha256[HASH_HEX_SIZE];
    hex_from_bytes(input->sha256, sizeof input->sha256, sha256);
    if (publication->repacked_sha256 == NULL || publication->content_sha256 == NULL ||
        input->size != publication->repacked_size ||
        strcasecmp(sha256, publication->repacked_sha256) != 0)
        return false;
    input->content_size = publication->content_size;
    bytes_from_hex(publication->content_sha256, input->content_sha256,
                   sizeof input->content_sha256);
    return true;
}

/* The decompressed content's digest of each input whose bytes are not the published ones but
   whose record publishes its content: what tells a re-compressed file from another file. A file
   that does not decompress is left without one. */
static void contents_digest(struct provenance *provenance)
{
    for (size_t index = 0; DIGESTS_ON && index < provenance->input_count; index++) {
        struct input_digest *input = &provenance->inputs[index];
        if (input->published == NULL || input->fixture)
            continue;
        char recorded[HASH_HEX_SIZE], content[HASH_HEX_SIZE];
        bool md5 = strlen(input->published) == 32;
        if (md5 && !provenance->raw_files)
            continue;
        hex_from_bytes(md5 ? input->md5 : input->sha256, md5 ? 16 : 32, recorded);
        if ((!md5 || input->md5_taken) && strcasecmp(recorded, input->published) == 0)
            continue; /* without its md5 (a file of another size), not the published one */
        if (input->content_tapped || repacked_known(input)) {
            input->content_digested = true;
            continue;
        }
        if (inflated_digest(input->path, content, &input->content_size) != EXIT_OK) {
            error_clear();
            continue;
        }
        bytes_from_hex(content, input->content_sha256, sizeof input->content_sha256);
        input->content_digested = true;
    }
}

char *provenance_finish(struct provenance *provenance)
{
    return provenance_finish_noted(provenance, NULL);
}

/* Input INDEX's digests from its tap, which hashes what its readers left; error_set on failure. */
static int input_tapped(struct provenance *provenance, size_t index)
{
    struct input_digest *input = &provenance->inputs[index];
    struct file_digests digests;
    int result = read_tap_finish(input->tap, &digests);
    if (result != EXIT_OK)
        return result;
    digests_keep(input, &digests);
    char content[HASH_HEX_SIZE];
    if (read_tap_content_digest(input->tap, content, &input->content_size)) {
        bytes_from_hex(content, input->content_sha256, sizeof input->content_sha256);
        input->content_tapped = true;
    }
    return EXIT_OK;
}

/* The md5 of each input whose sha256 is not the published file's, which publishers' md5s are
   compared with: read again for it (left out when that fails). */
static void md5s_complete(struct provenance *provenance)
{
    for (size_t index = 0; index < provenance->input_count; index++) {
        struct input_digest *input = &provenance->inputs[index];
        struct file_digests digests;
        if (!input->md5_pending)
            continue;
        input->md5_taken = hash_file_digests(input->path, true, &digests) == EXIT_OK;
        if (input->md5_taken)
            bytes_from_hex(digests.md5, input->md5, sizeof input->md5);
        error_clear();
    }
}

char *provenance_finish_noted(struct provenance *provenance, const struct provenance_notes *notes)
{
    if (provenance->threaded)
        pthread_join(provenance->thread, NULL);
    for (size_t index = 0; provenance->result == EXIT_OK && index < provenance->input_count;
         index++)
        if (provenance->inputs[index].tap != NULL &&
            (provenance->result = input_tapped(provenance, index)) != EXIT_OK)
            snprintf(provenance->message, sizeof provenance->message, "%s", error_message());
    for (size_t index = 0; provenance->result == EXIT_OK && index < provenance->input_count;
         index++)
        if (provenance->inputs[index].supplied && !provenance->inputs[index].digested &&
            (provenance->result = input_hash(provenance, index)) != EXIT_OK)
            snprintf(provenance->message, sizeof provenance->message, "%s", error_message());
    char *text = NULL;
    if (provenance->result != EXIT_OK) {
        error_set(provenance->result, "%s", provenance->message);
    } else {
        md5s_complete(provenance);
        contents_digest(provenance);
        text = provenance_text(provenance, notes);
        if (text == NULL)
            error_set(EXIT_OTHER, "cannot record provenance: out of memory");
    }
    provenance_free(provenance);
    return text;
}

void provenance_discard(struct provenance *provenance)
{
    if (provenance == NULL)
        return;
    atomic_store(&provenance->cancelled, true);
    /* Joined, not detached: exit() after a failure runs OpenSSL's cleanup, which would pull
       libcrypto from under a thread still hashing (a crash at exit instead of the exit code). */
    if (provenance->threaded)
        pthread_join(provenance->thread, NULL);
    provenance_free(provenance);
}
