/* The public header must compile alone, as C99, C11 and C++. */
#include <clgather.h>

int clgather_header_check(void) { return (int)sizeof(clg_gather_desc) + (int)CLG_MAX_OUTPUT_RANK; }
