/* Host byte order and element byte swapping (files are little-endian; .npy may be big-endian). */
#ifndef CLI_BYTE_ORDER_H
#define CLI_BYTE_ORDER_H

#include <stddef.h>
#include <stdint.h>

static inline int cli_host_is_little_endian(void)
{
    const uint16_t probe = 1;
    return *(const unsigned char *)&probe == 1;
}

/* Reverse the bytes of each word_size-byte word in bytes[0..len). Complex types swap per part, so
 * callers pass the part size (c64: 4, c128: 8). */
static inline void cli_swap_words(unsigned char *bytes, size_t len, size_t word_size)
{
    if (word_size < 2) return;
    for (size_t at = 0; at + word_size <= len; at += word_size)
        for (size_t i = 0, j = word_size - 1; i < j; ++i, --j) {
            unsigned char t = bytes[at + i];
            bytes[at + i] = bytes[at + j];
            bytes[at + j] = t;
        }
}

/* Little-endian loads from a byte stream, independent of the host order. */
static inline uint16_t cli_load_le16(const unsigned char *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t cli_load_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t cli_load_le64(const unsigned char *p)
{
    return (uint64_t)cli_load_le32(p) | ((uint64_t)cli_load_le32(p + 4) << 32);
}

#endif
