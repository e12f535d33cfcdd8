/* The failure record a call's check leaves on the device (host/core/operation.h, clg_failure_record):
 * the flag, which kernels lower with atomic_min to their first failing unit (NONE_FAILED if none),
 * then details a locate kernel writes once the flag is set. One record per call, 64 bytes.
 *
 * Every kernel that writes a call's output takes a gate (GATE_PARAMETER): the record of the call's
 * check, or for a call with none the context's open record, and writes nothing if its flag is set. So
 * the kernels follow the check on the queue with no host wait between them, under both error policies,
 * and calls with and without a check share one program. A kernel reads the gate first thing, as a
 * value, and folds it into its work count or its bound test, never into a branch of its own: Mesa's
 * llvmpipe warns on stderr about kernel arguments read inside such a branch
 * (tests/drivers/rusticl_kernel_arg_warning). */
#ifndef CLG_FAILURE_RECORD_H
#define CLG_FAILURE_RECORD_H

#define NONE_FAILED 0xFFFFFFFFu

/* details[0 .. 6] follow the flag and a reserved word */
inline __global ulong *failure_details(volatile __global uint *record) { return (__global ulong *)(record + 2); }

#define GATE_PARAMETER   , __global const uint *gate
#define GATE_IS_CLOSED() (gate[0] != NONE_FAILED)

#endif /* CLG_FAILURE_RECORD_H */
