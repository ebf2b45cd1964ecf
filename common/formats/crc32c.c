/* CRC-32C (Castagnoli, reflected polynomial 0x82f63b78): SSE4.2's crc32 instruction when the CPU
   has it (checked at run time, so one binary serves every x86-64), slicing-by-8 tables otherwise.
   The tables are built once, on first use. */
#include "crc32c.h"

#include <pthread.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CRC32C_SSE42 1
#include <nmmintrin.h>
#endif

enum { CASTAGNOLI = 0x82f63b78u };

static uint32_t tables[8][256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

/* tables[0][n]: the CRC of byte n; tables[k][n]: of byte n followed by k zero bytes. */
static void build_tables(void)
{
    for (uint32_t byte = 0; byte < 256; byte++) {
        uint32_t crc = byte;
        for (int bit = 0; bit < 8; bit++)
            crc = crc & 1 ? (crc >> 1) ^ CASTAGNOLI : crc >> 1;
        tables[0][byte] = crc;
    }
    for (int slice = 1; slice < 8; slice++)
        for (int byte = 0; byte < 256; byte++) {
            uint32_t previous = tables[slice - 1][byte];
            tables[slice][byte] = (previous >> 8) ^ tables[0][previous & 0xff];
        }
}

static uint32_t little_endian_32(const unsigned char *bytes)
{
    return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 |
           (uint32_t)bytes[3] << 24;
}

uint32_t crc32c_software(uint32_t crc, const void *data, size_t size)
{
    pthread_once(&tables_once, build_tables);
    const unsigned char *bytes = data;
    crc = ~crc;
    for (; size >= 8; bytes += 8, size -= 8) {
        uint32_t low = crc ^ little_endian_32(bytes), high = little_endian_32(bytes + 4);
        crc = tables[7][low & 0xff] ^ tables[6][(low >> 8) & 0xff] ^
              tables[5][(low >> 16) & 0xff] ^ tables[4][low >> 24] ^ tables[3][high & 0xff] ^
              tables[2][(high >> 8) & 0xff] ^ tables[1][(high >> 16) & 0xff] ^
              tables[0][high >> 24];
    }
    for (; size > 0; bytes++, size--)
        crc = tables[0][(crc ^ *bytes) & 0xff] ^ (crc >> 8);
    return ~crc;
}

#ifdef CRC32C_SSE42
bool crc32c_hardware_available(void)
{
    return __builtin_cpu_supports("sse4.2");
}

__attribute__((target("sse4.2"))) uint32_t crc32c_hardware(uint32_t crc, const void *data,
                                                            size_t size)
{
    const unsigned char *bytes = data;
    uint64_t value = ~crc;
    for (; size > 0 && (uintptr_t)bytes % 8 != 0; bytes++, size--)
        value = _mm_crc32_u8((uint32_t)value, *bytes);
    for (; size >= 8; bytes += 8, size -= 8) {
        uint64_t word;
        memcpy(&word, bytes, sizeof word);
        value = _mm_crc32_u64(value, word);
    }
    for (; size > 0; bytes++, size--)
        value = _mm_crc32_u8((uint32_t)value, *bytes);
    return ~(uint32_t)value;
}
#else
bool crc32c_hardware_available(void)
{
    return false;
}

uint32_t crc32c_hardware(uint32_t crc, const void *data, size_t size)
{
    return crc32c_software(crc, data, size);
}
#endif

uint32_t crc32c(uint32_t crc, const void *data, size_t size)
{
    if (crc32c_hardware_available())
        return crc32c_hardware(crc, data, size);
    return crc32c_software(crc, data, size);
}
