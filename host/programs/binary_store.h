/* Persistent storage of compiled program binaries: one file per program under the cache directory,
 * and the serialized blobs of clg_context_export_binaries. Every entry carries the full key it was
 * built for and a checksum of the binary, because drivers accept damaged binaries (PoCL does) and a
 * damaged one must never reach the driver. Every failure here is silent: the caller builds from
 * source instead. */
#ifndef CLG_BINARY_STORE_H
#define CLG_BINARY_STORE_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a, 64 bits. */
uint64_t clg_hash64(const void *data, size_t size, uint64_t seed);
#define CLG_HASH_SEED 0xcbf29ce484222325ull

/* Where clgather keeps files across runs (CLGATHER_CACHE_DIR, else $XDG_CACHE_HOME/clgather, else
 * ~/.cache/clgather), whatever CLGATHER_CACHE says; NULL if none is set or it is too long. */
const char *clg_cache_base_directory(char *buf, size_t size);

/* mkdir -p; failures are left to the open that follows. */
void clg_make_directories(const char *path);

/* The directory of the persistent cache, or NULL when it is off: CLGATHER_CACHE=0, or a driver that
 * caches its programs itself (driver_caches_programs) without CLGATHER_CACHE=1. Writes at most size
 * bytes. */
const char *clg_cache_directory(char *buf, size_t size, int driver_caches_programs);

/* Load the binary stored for key (exact match of the key text and a valid checksum). Returns 1 and a
 * malloc'd binary on success, 0 otherwise. */
int clg_disk_cache_load(const char *directory, const char *key, unsigned char **binary, size_t *size);

/* Store a binary for key: written to a temporary file and renamed, so readers never see half a file. */
void clg_disk_cache_store(const char *directory, const char *key, const unsigned char *binary, size_t size);

/* Blob serialization: a sequence of (source name, options, key, binary) records. */
typedef struct clg_blob_record {
    const char *source_name;
    const char *options;
    const char *key;
    const unsigned char *binary;
    size_t binary_size;
} clg_blob_record;

/* Bytes a blob of these records needs. */
size_t clg_blob_size(const clg_blob_record *records, size_t count);
/* Write the blob (out has clg_blob_size bytes). */
void clg_blob_write(const clg_blob_record *records, size_t count, unsigned char *out);
/* Validate a whole blob; on success *count holds the number of records. Returns 0 if malformed. */
int clg_blob_validate(const unsigned char *blob, size_t size, size_t *count);
/* Read record k of a validated blob; strings point into the blob and are NUL-terminated there. */
void clg_blob_record_at(const unsigned char *blob, size_t k, clg_blob_record *record);

#endif
