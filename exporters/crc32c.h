/* CRC-32C (Castagnoli), the checksum of TFRecord framing: SSE4.2's crc32 instruction when the
   CPU has it, slicing-by-8 tables otherwise. */
#ifndef FUEL_CRC32C_H
#define FUEL_CRC32C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CRC (0 at first) updated with SIZE bytes of DATA, as zlib's crc32 is used: crc32c(0, "123456789",
   9) is 0xe3069283, and crc32c(crc32c(0, A, N), B, M) that of A followed by B. */
uint32_t crc32c(uint32_t crc, const void *data, size_t size);

/* The same computed with tables, on any CPU. */
uint32_t crc32c_software(uint32_t crc, const void *data, size_t size);

/* Whether this CPU has SSE4.2's crc32 instruction (x86-64, asked at run time). */
bool crc32c_hardware_available(void);

/* The same computed with the instruction; only when crc32c_hardware_available() (elsewhere it is
   crc32c_software). */
uint32_t crc32c_hardware(uint32_t crc, const void *data, size_t size);

#endif
