#include "gather_tree_testing.h"

#include <stdatomic.h>

static atomic_int allow_f16;

void clg_testing_gather_tree_allow_f16(int on) { atomic_store(&allow_f16, on ? 1 : 0); }

int clg_testing_gather_tree_f16_allowed(void) { return atomic_load(&allow_f16); }
