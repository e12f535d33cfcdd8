/* The first call of a fresh process: context creation plus one small gather, timed in a child
 * process, with empty and with warm program caches (clgather's binary cache and PoCL's own). */
#ifndef CLGATHER_BENCH_FIRST_CALL_H
#define CLGATHER_BENCH_FIRST_CALL_H

typedef struct first_call_times {
    double cold_s;          /* both caches empty */
    double clgather_only_s; /* clgather's cache warm, the driver's cache empty */
    double warm_s;          /* both warm */
    int ok;
} first_call_times;

/* Child side (clgather-bench --first-call-probe SPEC, SPEC "" for the default): time it and print "first_call_s <seconds>". */
int first_call_probe(const char *device_spec);

/* Parent side: run the probe three times in fresh processes. */
first_call_times measure_first_call(const char *device_spec);

#endif
