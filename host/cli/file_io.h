/* Whole-file reading and atomic replacement of an output file. */
#ifndef CLI_FILE_IO_H
#define CLI_FILE_IO_H

#include <stddef.h>

/* Read a regular file whole (refusing devices and FIFOs, which could be endless). On failure records
 * "<what> '<path>': <reason>" and returns CLI_EXIT_REFUSED; on success *out is malloc'ed (never NULL,
 * even for an empty file) and the caller frees it. */
int cli_read_file(const char *what, const char *path, unsigned char **out, size_t *out_len);

/* Write len bytes from each of the pieces to path atomically: a temporary file in the same directory,
 * renamed over path only once everything is written and closed. On failure nothing at path changes,
 * the temporary file is removed, and CLI_EXIT_REFUSED is returned with the failure recorded. */
typedef struct cli_write_piece {
    const void *bytes;
    size_t len;
} cli_write_piece;
int cli_write_file_atomic(const char *path, const cli_write_piece *pieces, int piece_count);

/* snprintf into a path buffer; returns CLI_EXIT_REFUSED (recorded) when the path does not fit. */
enum { CLI_PATH_CAPACITY = 4096 };
int cli_path_format(char *out, size_t capacity, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
