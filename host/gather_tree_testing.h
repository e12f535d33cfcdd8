/* Test-only switch for GatherTree. Not part of the public API: the test suites link the static
 * library and use it to run the f16 kernel on devices without cl_khr_fp16 (the kernel reads f16
 * with the core vload_half and does no half arithmetic, so it runs on any device). */
#ifndef CLG_GATHER_TREE_TESTING_H
#define CLG_GATHER_TREE_TESTING_H

/* Let f16 GatherTree run on a device that does not report cl_khr_fp16 (1), or restore (0). */
void clg_testing_gather_tree_allow_f16(int on);

/* Whether the switch is on. */
int clg_testing_gather_tree_f16_allowed(void);

#endif
