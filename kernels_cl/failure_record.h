/* The failure record a call's check leaves on the device (host/core/operation.h, clg_failure_record):
 * the flag, which kernels lower with atomic_min to their first failing unit (NONE_FAILED if none),
 * then details a locate kernel writes once the flag is set. One record per call, 64 bytes.
 *
 * A gated kernel (build option GATE=1) takes the record as its last argument and writes nothing when
 * the flag is set: the deferred error policy runs check and kernel back to back with no host wait. */
#ifndef CLG_FAILURE_RECORD_H
#define CLG_FAILURE_RECORD_H

#define NONE_FAILED 0xFFFFFFFFu

/* details[0 .. 6] follow the flag and a reserved word */
inline __global ulong *failure_details(volatile __global uint *record) { return (__global ulong *)(record + 2); }

#if GATE
#define GATE_PARAMETER   , __global const uint *gate
#define GATE_IS_CLOSED() (gate[0] != NONE_FAILED)
#else
#define GATE_PARAMETER
#define GATE_IS_CLOSED() 0
#endif

#endif /* CLG_FAILURE_RECORD_H */
