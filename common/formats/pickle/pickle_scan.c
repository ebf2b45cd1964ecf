/* Walks a pickle's opcodes as its bytes arrive, to find a long byte string before its bytes do. */
#include "pickle_scan.h"

#include <stdbool.h>
#include <string.h>

/* How an opcode's argument is laid out: none, fixed bytes, a count and that many bytes, or
   lines of text. */
struct argument {
    enum { ARGUMENT_FIXED, ARGUMENT_COUNTED, ARGUMENT_LINES, ARGUMENT_END } kind;
    unsigned size;  /* FIXED: the bytes; COUNTED: the count's bytes; LINES: the lines */
    bool bytes;     /* COUNTED: a byte string, which may be long */
    bool signed_count;
};

static struct argument fixed(unsigned size)
{
    return (struct argument){.kind = ARGUMENT_FIXED, .size = size};
}

static struct argument counted(unsigned size, bool bytes, bool signed_count)
{
    return (struct argument){ARGUMENT_COUNTED, size, bytes, signed_count};
}

static struct argument argument_of(unsigned char opcode)
{
    static const char none[] = "(012}])dltaesuNRb" "\x85\x86\x87\x88\x89\x93\x94";
    switch (opcode) {
    case 'K': case 'q': case 'h': case 0x80: return fixed(1);
    case 'M': return fixed(2);
    case 'J': case 'r': case 'j': return fixed(4);
    case 0x95: return fixed(8);
    case 'U': case 'C': return counted(1, true, false);
    case 0x8c: case 0x8a: return counted(1, false, false);
    case 'T': return counted(4, true, true);
    case 'B': return counted(4, true, false);
    case 'X': return counted(4, false, false);
    case 0x8b: return counted(4, false, true);
    case 0x8e: case 0x96: return counted(8, true, false);
    case 0x8d: return counted(8, false, false);
    case 'S': case 'V': case 'I': case 'L': case 'p': case 'g':
        return (struct argument){.kind = ARGUMENT_LINES, .size = 1};
    case 'c': return (struct argument){.kind = ARGUMENT_LINES, .size = 2};
    default:
        if (opcode != 0 && memchr(none, opcode, sizeof none - 1) != NULL)
            return fixed(0);
        return (struct argument){.kind = ARGUMENT_END};
    }
}

/* Where the LINES lines starting at START end, or 0 when they run past AVAILABLE. */
static uint64_t lines_end(const unsigned char *bytes, uint64_t available, uint64_t start,
                          unsigned lines)
{
    for (; lines > 0; lines--) {
        const unsigned char *newline = start < available
                                           ? memchr(bytes + start, '\n', available - start)
                                           : NULL;
        if (newline == NULL)
            return 0;
        start = (uint64_t)(newline - bytes) + 1;
    }
    return start;
}

/* The little-endian count of SIZE bytes at BYTES; false when it is negative (signed) or
   would not fit an offset. */
static bool count_of(const unsigned char *bytes, unsigned size, bool signed_count,
                     uint64_t *count)
{
    *count = 0;
    for (unsigned index = size; index > 0; index--)
        *count = *count << 8 | bytes[index - 1];
    if (signed_count && (bytes[size - 1] & 0x80))
        return false;
    return *count < (UINT64_C(1) << 62);
}

enum pickle_scan_status pickle_scan(const unsigned char *bytes, uint64_t available,
                                    uint64_t *position, uint64_t threshold, uint64_t *length)
{
    while (*position < available) {
        struct argument argument = argument_of(bytes[*position]);
        uint64_t start = *position + 1, next = 0, count = 0;
        if (argument.kind == ARGUMENT_END)
            return PICKLE_SCAN_END;
        if (argument.kind == ARGUMENT_LINES) {
            next = lines_end(bytes, available, start, argument.size);
            if (next == 0)
                return PICKLE_SCAN_MORE;
        } else if (available - start < argument.size) {
            return PICKLE_SCAN_MORE;
        } else if (argument.kind == ARGUMENT_FIXED) {
            next = start + argument.size;
        } else {
            if (!count_of(bytes + start, argument.size, argument.signed_count, &count))
                return PICKLE_SCAN_END;
            start += argument.size;
            if (argument.bytes && count >= threshold) {
                *position = start;
                *length = count;
                return PICKLE_SCAN_STRING;
            }
            next = start + count;
        }
        *position = next;
    }
    return PICKLE_SCAN_MORE;
}
