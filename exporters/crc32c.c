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

/* The instruction takes 3 cycles and can start every cycle: three streams of STREAM bytes run
   side by side and are joined by shifting the first two over the bytes after them. Shifting a CRC
   state over N zero bytes is linear in the state, so it is tabled byte by byte, each entry made by
   running the instruction over the zeros itself. */
enum { STREAM = 2048 };

static uint32_t shifts[2][4][256]; /* [0]: over STREAM zero bytes, [1]: over 2 * STREAM */
static pthread_once_t shifts_once = PTHREAD_ONCE_INIT;

__attribute__((target("sse4.2"))) static uint32_t over_zeros(uint32_t state, size_t count)
{
    uint64_t value = state;
    for (size_t index = 0; index < count; index += 8)
        value = _mm_crc32_u64(value, 0);
    return (uint32_t)value;
}

static void build_shifts(void)
{
    for (int table = 0; table < 2; table++)
        for (int byte = 0; byte < 4; byte++)
            for (uint32_t value = 0; value < 256; value++)
                shifts[table][byte][value] = over_zeros(value << (8 * byte),
                                                        (size_t)STREAM * (table + 1));
}

static uint32_t shift(int table, uint32_t state)
{
    return shifts[table][0][state & 0xff] ^ shifts[table][1][(state >> 8) & 0xff] ^
           shifts[table][2][(state >> 16) & 0xff] ^ shifts[table][3][state >> 24];
}

static uint64_t load_64(const unsigned char *bytes)
{
    uint64_t word;
    memcpy(&word, bytes, sizeof word);
    return word;
}

/* STATE updated with the 3 * STREAM bytes at BYTES. */
__attribute__((target("sse4.2"))) static uint32_t three_streams(uint32_t state,
                                                               const unsigned char *bytes)
{
    uint64_t first = state, second = 0, third = 0;
    for (size_t index = 0; index < STREAM; index += 8) {
        first = _mm_crc32_u64(first, load_64(bytes + index));
        second = _mm_crc32_u64(second, load_64(bytes + STREAM + index));
        third = _mm_crc32_u64(third, load_64(bytes + 2 * STREAM + index));
    }
    return shift(1, (uint32_t)first) ^ shift(0, (uint32_t)second) ^ (uint32_t)third;
}

__attribute__((target("sse4.2"))) uint32_t crc32c_hardware(uint32_t crc, const void *data,
                                                            size_t size)
{
    const unsigned char *bytes = data;
    uint64_t value = ~crc;
    for (; size > 0 && (uintptr_t)bytes % 8 != 0; bytes++, size--)
        value = _mm_crc32_u8((uint32_t)value, *bytes);
    if (size >= 3 * STREAM)
        pthread_once(&shifts_once, build_shifts);
    for (; size >= 3 * STREAM; bytes += 3 * STREAM, size -= 3 * STREAM)
        value = three_streams((uint32_t)value, bytes);
    for (; size >= 8; bytes += 8, size -= 8)
        value = _mm_crc32_u64(value, load_64(bytes));
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
