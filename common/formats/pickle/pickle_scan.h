/* Walks a pickle's opcodes as its bytes arrive, to find a long byte string before its bytes do. */
#ifndef FUEL_PICKLE_SCAN_H
#define FUEL_PICKLE_SCAN_H

#include <stdint.h>

enum pickle_scan_status {
    PICKLE_SCAN_MORE,   /* the opcode at *POSITION runs past the bytes available */
    PICKLE_SCAN_STRING, /* *POSITION is the first byte of a long byte string, *LENGTH bytes */
    PICKLE_SCAN_END,    /* *POSITION is at STOP, or at an opcode the reader would refuse */
};

/* Walks the opcodes of BYTES[0, AVAILABLE) from *POSITION, an opcode's first byte, without
   interpreting them, and stops at the first counted byte string (not text) of at least THRESHOLD
   bytes. After PICKLE_SCAN_STRING the caller moves *POSITION past the string to go on. */
enum pickle_scan_status pickle_scan(const unsigned char *bytes, uint64_t available,
                                    uint64_t *position, uint64_t threshold, uint64_t *length);

#endif
