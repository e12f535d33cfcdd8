/* Printing tensor values for people (the demo report): nested lists, cut after a limit. */
#ifndef CLI_TENSOR_FORMAT_H
#define CLI_TENSOR_FORMAT_H

#include "tensor.h"

#include <stdio.h>

/* Print "f32 [2, 3] [[1, 2, 3], [4, 5, 6]]"; values are left out past max_values elements. */
void cli_print_tensor(FILE *out, const cli_tensor *t, uint64_t max_values);

/* One element as text. */
void cli_format_element(const cli_tensor *t, uint64_t index, char *text, size_t capacity);

#endif
