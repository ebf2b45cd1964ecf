/* Unit tests for common/pickle.c: Python 2 and 3 pickles of CIFAR-like dicts, and hostile ones. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/formats/pickle/pickle_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BYTES(literal) literal, sizeof literal - 1

struct parsed {
    unsigned char *data;
    struct pickle *pickle;
    struct pickle_value root;
};

static int parse(struct parsed *parsed, const char *bytes, size_t size)
{
    parsed->data = malloc(size ? size : 1);
    assert_non_null(parsed->data);
    memcpy(parsed->data, bytes, size);
    error_clear();
    int result = pickle_parse(&parsed->pickle, parsed->data, size, "test.pickle", &parsed->root);
    if (result != EXIT_OK)
        assert_null(parsed->pickle);
    return result;
}

static void release(struct parsed *parsed)
{
    pickle_free(parsed->pickle);
    free(parsed->data);
}

static void assert_refused(const char *bytes, size_t size, const char *opcode, size_t offset,
                           const char *why)
{
    struct parsed parsed;
    assert_int_equal(parse(&parsed, bytes, size), EXIT_CORRUPT_INPUT);
    char expected[128];
    snprintf(expected, sizeof expected, "unsupported pickle construct: opcode %s at offset %zu",
             opcode, offset);
    if (strstr(error_message(), expected) == NULL || strstr(error_message(), why) == NULL)
        fail_msg("message \"%s\" lacks \"%s\" or \"%s\"", error_message(), expected, why);
    assert_non_null(strstr(error_message(), "test.pickle"));
    free(parsed.data);
}

static void assert_labels(const struct pickle_value *root, const char *key, const int *expected,
                          size_t count)
{
    const struct pickle_value *labels = pickle_dict_find(root, key);
    assert_non_null(labels);
    assert_int_equal(labels->type, PICKLE_LIST);
    assert_int_equal(labels->items->count, count);
    for (size_t index = 0; index < count; index++) {
        assert_int_equal(labels->items->values[index].type, PICKLE_INT);
        assert_int_equal(labels->items->values[index].integer, expected[index]);
    }
}

static void assert_array(const struct pickle_value *root, uint64_t rows, uint64_t columns,
                         const unsigned char *expected)
{
    const struct pickle_value *data = pickle_dict_find(root, "data");
    assert_non_null(data);
    assert_int_equal(data->type, PICKLE_ARRAY);
    assert_true(data->array->complete);
    assert_false(data->array->fortran_order);
    assert_int_equal(data->array->rank, 2);
    assert_int_equal(data->array->shape[0], rows);
    assert_int_equal(data->array->shape[1], columns);
    assert_int_equal(data->array->size, rows * columns);
    assert_memory_equal(data->array->data, expected, rows * columns);
}

/* What Python 2's cPickle.dump(protocol=2) writes for a CIFAR batch (as in the real archives):
   {'data': uint8 array [[1,2,3],[253,254,255]], 'labels': [7, 0], 'filenames': [s, s]}. */
static const char python2_batch[] =
    "\200\002}q\000(U\004dataq\001cnumpy.core.multiarray\n_reconstruct\nq\002cnumpy\nndarray\nq"
    "\003K\000\205q\004U\001bq\005\207q\006Rq\007(K\001K\002K\003\206q\010cnumpy\ndtype\nq\011U"
    "\002u1q\nK\000K\001\207q\013Rq\014(K\003U\001|q\015NNNJ\377\377\377\377J\377\377\377\377K"
    "\000tq\016b\211T\006\000\000\000\001\002\003\375\376\377q\017tq\020bU\006labelsq\021]q\022(K"
    "\007K\000eU\011filenamesq\023]q\024(U\005a.pngq\025h\025eu.";

/* The same with shape (2, 2) for 6 bytes of data; its array BUILD is at offset 170. */
static const char mismatched_batch[] =
    "\200\002}q\000(U\004dataq\001cnumpy.core.multiarray\n_reconstruct\nq\002cnumpy\nndarray\nq"
    "\003K\000\205q\004U\001bq\005\207q\006Rq\007(K\001K\002K\002\206q\010cnumpy\ndtype\nq\011U"
    "\002u1q\nK\000K\001\207q\013Rq\014(K\003U\001|q\015NNNJ\377\377\377\377J\377\377\377\377K"
    "\000tq\016b\211T\006\000\000\000\001\002\003\375\376\377q\017tq\020bU\006labelsq\021]q\022(K"
    "\007K\000eU\011filenamesq\023]q\024(U\005a.pngq\025h\025eu.";

static void test_python2_protocol2_batch(void **state)
{
    (void)state;
    struct parsed parsed;
    assert_int_equal(parse(&parsed, python2_batch, sizeof python2_batch - 1), EXIT_OK);
    assert_int_equal(parsed.root.type, PICKLE_DICT);
    assert_array(&parsed.root, 2, 3, (const unsigned char *)"\001\002\003\375\376\377");
    assert_labels(&parsed.root, "labels", (const int[]){7, 0}, 2);
    const struct pickle_value *names = pickle_dict_find(&parsed.root, "filenames");
    assert_non_null(names);
    assert_int_equal(names->items->count, 2);
    assert_int_equal(names->items->values[1].type, PICKLE_BYTES);
    assert_int_equal(names->items->values[1].string->length, 5);
    assert_memory_equal(names->items->values[1].string->bytes, "a.png", 5);
    assert_null(pickle_dict_find(&parsed.root, "absent"));
    /* Large strings are not copied: the array's data lies inside the parsed bytes. */
    const struct pickle_value *data = pickle_dict_find(&parsed.root, "data");
    assert_true(data->array->data > parsed.data &&
                data->array->data < parsed.data + sizeof python2_batch);
    /* and they are the bytes as read, which a caller may find again in the input */
    assert_true(data->array->data_as_read);
    release(&parsed);
}

/* NumPy 2 names the reconstruction numpy._core.multiarray._reconstruct; the rest is unchanged. */
static void test_numpy2_module_name(void **state)
{
    (void)state;
    static const char old_name[] = "numpy.core.multiarray\n", new_name[] = "numpy._core.multiarray\n";
    const char *at = memmem(python2_batch, sizeof python2_batch - 1, old_name, sizeof old_name - 1);
    assert_non_null(at);
    size_t before = (size_t)(at - python2_batch), after = sizeof python2_batch - 1 - before;
    char *bytes = malloc(sizeof python2_batch + 1);
    assert_non_null(bytes);
    memcpy(bytes, python2_batch, before);
    memcpy(bytes + before, new_name, sizeof new_name - 1);
    memcpy(bytes + before + sizeof new_name - 1, at + sizeof old_name - 1,
           after - (sizeof old_name - 1));
    struct parsed parsed;
    assert_int_equal(parse(&parsed, bytes, sizeof python2_batch), EXIT_OK);
    assert_array(&parsed.root, 2, 3, (const unsigned char *)"\001\002\003\375\376\377");
    release(&parsed);
    free(bytes);
}

/* Protocol 0 as Python 2 writes it: text opcodes, quoted strings with escapes, PUT/GET. */
static const char python2_protocol0[] =
    "(dp0\nS'data'\np1\ncnumpy.core.multiarray\n_reconstruct\np2\n(cnumpy\nndarray\np3\n(I0\n"
    "tp4\nS'b'\np5\ntp6\nRp7\n(I1\n(I1\nI4\ntp8\ncnumpy\ndtype\np9\n(S'u1'\np10\nI0\nI1\ntp11\n"
    "Rp12\n(I3\nS'|'\np13\nNNNI-1\nI-1\nI0\ntp14\nbI00\nS'\\x00\\n\\'\\xff'\np15\ntp16\nb"
    "sS'labels'\np17\n(lp18\nI3\naL9L\nasS'flag'\np19\nI01\nsS'ref'\np20\ng17\ns.";

static void test_python2_protocol0(void **state)
{
    (void)state;
    struct parsed parsed;
    assert_int_equal(parse(&parsed, python2_protocol0, sizeof python2_protocol0 - 1), EXIT_OK);
    assert_array(&parsed.root, 1, 4, (const unsigned char *)"\000\n'\377");
    /* unescaped in place from a quoted repr: not the input's bytes */
    assert_false(pickle_dict_find(&parsed.root, "data")->array->data_as_read);
    assert_labels(&parsed.root, "labels", (const int[]){3, 9}, 2);
    const struct pickle_value *flag = pickle_dict_find(&parsed.root, "flag");
    assert_non_null(flag);
    assert_int_equal(flag->type, PICKLE_BOOL);
    assert_int_equal(flag->integer, 1);
    const struct pickle_value *reference = pickle_dict_find(&parsed.root, "ref");
    assert_non_null(reference);
    assert_int_equal(reference->type, PICKLE_BYTES);
    assert_int_equal(reference->string->length, 6);
    assert_memory_equal(reference->string->bytes, "labels", 6);
    release(&parsed);
}

/* Runs /usr/bin/python3 to pickle a CIFAR-like dict with PROTOCOL; KEYS 'bytes' or 'str'. */
static size_t python_pickle(int protocol, const char *keys, char **bytes)
{
    char command[1024];
    snprintf(command, sizeof command,
             "/usr/bin/python3 -c \"import pickle, sys, numpy\n"
             "k = (lambda s: s.encode()) if '%s' == 'bytes' else (lambda s: s)\n"
             "data = numpy.arange(3 * 5, dtype=numpy.uint8).reshape(3, 5) * 17\n"
             "data[2, 4] = 200\n"
             "batch = {k('batch_label'): b'x\\xe9', k('data'): data, k('labels'): [1, 0, 2**40],"
             " k('names'): ['caf\\u00e9', b'\\xff'], k('pair'): (None, True, -5, 3.5 > 1)}\n"
             "sys.stdout.buffer.write(pickle.dumps(batch, protocol=%d))\"",
             keys, protocol);
    FILE *pipe = popen(command, "r");
    assert_non_null(pipe);
    size_t capacity = 1 << 16, size = 0;
    *bytes = malloc(capacity);
    assert_non_null(*bytes);
    size_t count;
    while ((count = fread(*bytes + size, 1, capacity - size, pipe)) > 0)
        size += count;
    assert_int_equal(pclose(pipe), 0);
    assert_true(size > 0 && size < capacity);
    return size;
}

static void check_python3_pickle(int protocol, const char *keys)
{
    char *bytes;
    size_t size = python_pickle(protocol, keys, &bytes);
    struct parsed parsed;
    if (parse(&parsed, bytes, size) != EXIT_OK)
        fail_msg("protocol %d: %s", protocol, error_message());
    unsigned char expected[15];
    for (int index = 0; index < 15; index++)
        expected[index] = (unsigned char)(index * 17);
    expected[14] = 200;
    assert_array(&parsed.root, 3, 5, expected);
    /* protocols 0 to 2 carry bytes as text for _codecs.encode (rewritten as latin-1), 3 and up
       as bytes, found as read */
    assert_int_equal(pickle_dict_find(&parsed.root, "data")->array->data_as_read, protocol >= 3);
    const struct pickle_value *labels = pickle_dict_find(&parsed.root, "labels");
    assert_non_null(labels);
    assert_int_equal(labels->items->count, 3);
    assert_int_equal(labels->items->values[2].integer, INT64_C(1) << 40);
    const struct pickle_value *label = pickle_dict_find(&parsed.root, "batch_label");
    assert_non_null(label);
    assert_int_equal(label->type, PICKLE_BYTES);
    assert_int_equal(label->string->length, 2);
    assert_memory_equal(label->string->bytes, "x\351", 2);
    const struct pickle_value *names = pickle_dict_find(&parsed.root, "names");
    assert_int_equal(names->items->values[0].type, PICKLE_TEXT);
    assert_memory_equal(names->items->values[0].string->bytes, "caf\303\251", 5);
    assert_int_equal(names->items->values[1].type, PICKLE_BYTES);
    const struct pickle_value *pair = pickle_dict_find(&parsed.root, "pair");
    assert_int_equal(pair->type, PICKLE_TUPLE);
    assert_int_equal(pair->items->values[0].type, PICKLE_NONE);
    assert_int_equal(pair->items->values[1].type, PICKLE_BOOL);
    assert_int_equal(pair->items->values[2].integer, -5);
    release(&parsed);
    free(bytes);
}

static void test_python3_protocols(void **state)
{
    (void)state;
    for (int protocol = 0; protocol <= 5; protocol++) {
        check_python3_pickle(protocol, "bytes");
        check_python3_pickle(protocol, "str");
    }
}

static void test_fortran_order_reported(void **state)
{
    (void)state;
    char *bytes;
    FILE *pipe = popen("/usr/bin/python3 -c \"import pickle, sys, numpy\n"
                       "a = numpy.asfortranarray(numpy.arange(6, dtype=numpy.uint8).reshape(2, 3))\n"
                       "sys.stdout.buffer.write(pickle.dumps({'data': a}, protocol=5))\"",
                       "r");
    assert_non_null(pipe);
    bytes = malloc(4096);
    size_t size = fread(bytes, 1, 4096, pipe);
    assert_int_equal(pclose(pipe), 0);
    struct parsed parsed;
    assert_int_equal(parse(&parsed, bytes, size), EXIT_OK);
    const struct pickle_value *data = pickle_dict_find(&parsed.root, "data");
    assert_true(data->array->fortran_order);
    assert_memory_equal(data->array->data, "\000\003\001\004\002\005", 6);
    release(&parsed);
    free(bytes);
}

/* Empty containers built from a mark as the first opcodes (fuzzing: the stack was still NULL). */
static void test_empty_marked_containers(void **state)
{
    (void)state;
    static const struct {
        const char *bytes;
        size_t size;
        enum pickle_type type;
    } cases[] = {{BYTES("(l."), PICKLE_LIST}, {BYTES("(t."), PICKLE_TUPLE},
                 {BYTES("(d."), PICKLE_DICT}, {BYTES("\x80\x02(t."), PICKLE_TUPLE}};
    for (size_t index = 0; index < sizeof cases / sizeof *cases; index++) {
        struct parsed parsed;
        assert_int_equal(parse(&parsed, cases[index].bytes, cases[index].size), EXIT_OK);
        assert_int_equal(parsed.root.type, cases[index].type);
        assert_int_equal(parsed.root.items->count, 0);
        release(&parsed);
    }
}

static void test_hostile_globals_refused(void **state)
{
    (void)state;
    assert_refused(BYTES("cos\nsystem\n(S'echo owned'\ntR."), "'c' (0x63)", 0,
                   "global os.system is not allowed");
    assert_refused(BYTES("\200\004\214\002os\214\006system\223."), "0x93", 14,
                   "global os.system is not allowed");
    assert_refused(BYTES("cbuiltins\neval\n."), "'c' (0x63)", 0, "builtins.eval");
    assert_refused(BYTES("\200\002])R."), "'R' (0x52)", 4, "REDUCE of something other");
    assert_refused(BYTES("cnumpy\nndarray\n)R."), "'R' (0x52)", 16, "REDUCE of numpy.ndarray");
    assert_refused(BYTES("cnumpy\ndtype\nU\002f8\205R."), "'R' (0x52)", 18, "dtype other than u1");
    assert_refused(BYTES("c_codecs\nencode\nX\003\000\000\000\342\202\254X\006\000\000\000latin1\206R."),
                   "'R' (0x52)", 36, "outside latin-1");
    assert_refused(BYTES("\200\002]}b."), "'b' (0x62)", 4, "BUILD of something other");
}

static void test_unknown_opcodes_refused(void **state)
{
    (void)state;
    assert_refused(BYTES("\200\002}\377."), "0xff", 3, "unknown or unsupported opcode");
    assert_refused(BYTES("\200\002G@\011\036\270Q\353\205\037."), "'G' (0x47)", 2, "unsupported");
    assert_refused(BYTES("\200\002(cnumpy\nndarray\no."), "'o' (0x6f)", 18, "unsupported");
    assert_refused(BYTES("\200\005\227."), "0x97", 2, "unsupported");
    assert_refused(BYTES("\200\006N."), "0x80", 0, "protocol newer than 5");
}

static void test_lengths_past_the_end_refused(void **state)
{
    (void)state;
    assert_refused(BYTES("\200\002T\000\001\000\000abc."), "'T' (0x54)", 2,
                   "length past the end of the data");
    assert_refused(BYTES("\200\002T\377\377\377\377."), "'T' (0x54)", 2, "negative length");
    assert_refused(BYTES("\200\004\225\000\000\000\000\000\001\000\000N."), "0x95", 2,
                   "length past the end of the data");
    assert_refused(BYTES("\200\004\216\377\377\377\377\377\377\377\377."), "0x8e", 2,
                   "length past the end of the data");
    assert_refused(BYTES("\200\002U"), "'U' (0x55)", 2, "length past the end of the data");
    assert_refused(BYTES("S'abc"), "'S' (0x53)", 0, "line past the end of the data");
    assert_refused(BYTES("\200\002N"), "0x00", 3, "data ends before STOP");
    assert_refused(BYTES(""), "0x00", 0, "data ends before STOP");
}

static void test_memo_misuse_refused(void **state)
{
    (void)state;
    assert_refused(BYTES("\200\002h\005."), "'h' (0x68)", 2, "memo index never set");
    assert_refused(BYTES("\200\002Nq\001h\000."), "'h' (0x68)", 5, "memo index never set");
    assert_refused(BYTES("\200\002Nr\377\377\377\177."), "'r' (0x72)", 3, "memo index too large");
    assert_refused(BYTES("\200\002q\000."), "'q' (0x71)", 2, "stack underflow");
}

static void test_structure_misuse_refused(void **state)
{
    (void)state;
    assert_refused(BYTES("\200\002a."), "'a' (0x61)", 2, "stack underflow");
    assert_refused(BYTES("\200\002NNa."), "'a' (0x61)", 4, "non-list");
    assert_refused(BYTES("\200\002}(Nu."), "'u' (0x75)", 5, "odd number of dict items");
    assert_refused(BYTES("\200\002t."), "'t' (0x74)", 2, "no mark");
    assert_refused(BYTES("\200\002NN."), "'.' (0x2e)", 4, "stack not left with one value");
    assert_refused(BYTES("\200\002I12x\n."), "'I' (0x49)", 2, "malformed integer");
    assert_refused(BYTES("\200\002\212\011\000\000\000\000\000\000\000\000\001."), "0x8a", 2,
                   "integer too large");
    assert_refused(mismatched_batch, sizeof mismatched_batch - 1, "'b' (0x62)", 170,
                   "ndarray data size does not match its shape");
}

static void test_depth_and_memory_bounded(void **state)
{
    (void)state;
    char marks[80];
    memset(marks, '(', sizeof marks);
    assert_refused(marks, sizeof marks, "'(' (0x28)", 64, "nesting too deep");
    enum { LISTS = 400000 };
    char *lists = malloc(LISTS);
    assert_non_null(lists);
    memset(lists, ']', LISTS);
    struct parsed parsed;
    assert_int_equal(parse(&parsed, lists, LISTS), EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "more memory than its size justifies"));
    free(parsed.data);
    free(lists);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_python2_protocol2_batch),
        cmocka_unit_test(test_python2_protocol0),
        cmocka_unit_test(test_numpy2_module_name),
        cmocka_unit_test(test_python3_protocols),
        cmocka_unit_test(test_fortran_order_reported),
        cmocka_unit_test(test_empty_marked_containers),
        cmocka_unit_test(test_hostile_globals_refused),
        cmocka_unit_test(test_unknown_opcodes_refused),
        cmocka_unit_test(test_lengths_past_the_end_refused),
        cmocka_unit_test(test_memo_misuse_refused),
        cmocka_unit_test(test_structure_misuse_refused),
        cmocka_unit_test(test_depth_and_memory_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
