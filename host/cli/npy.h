/* NumPy .npy files: reading (versions 1.0, 2.0, 3.0; little- or big-endian; hostile input) and
 * writing (little-endian, version 1.0 or 2.0 when the header needs it). */
#ifndef CLI_NPY_H
#define CLI_NPY_H

#include "tensor.h"

/* Parse a .npy image held in memory into *out (host byte order). what names the file in messages.
 * Returns 0, or CLI_EXIT_REFUSED with "<what> '<name>': <reason>" recorded. */
int cli_npy_parse(const char *what, const char *name, const unsigned char *file, size_t file_len, cli_tensor *out);

/* Read a .npy file. Inputs hold at most CLG_MAX_RANK dimensions. */
int cli_npy_read(const char *what, const char *path, cli_tensor *out);

/* Write a tensor as .npy, atomically (nothing at path changes on failure). */
int cli_npy_write(const char *path, const cli_tensor *t);

#endif
