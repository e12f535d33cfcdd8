/* Device hints. The host chooses them per device and driver (its tuning table, host/core/tuning_table.c)
 * and passes them as build options: a kernel never guesses its compiler, and with every hint 0 a
 * kernel is plain OpenCL C 1.2 that any conformant driver builds.
 *
 *   HINT_PREFETCH     0 none; 1 clang's __builtin_prefetch (PoCL, Intel's CPU runtime), at the tuning's
 *                     PREFETCH_LOCALITY (BAG_PREFETCH_LOCALITY in EmbeddingBag's programs); 2 OpenCL's
 *                     prefetch() of one cache line
 *   HINT_STREAM       1: clang's __builtin_nontemporal_store and the x86 sfence builtin may be used
 *                     (kernels still stream only where their own STREAM option asks)
 *   HINT_FORCE_INLINE 1: clang's always_inline on the hot helpers (PoCL, Intel's CPU runtime)
 *   HINT_ITEM_LOOPS   1: ask the compiler not to vectorize across work-items in kernels whose
 *                     work-items each walk a long loop (Intel's CPU runtime: intel_vec_len_hint(1)) */
#ifndef CLG_HINTS_H
#define CLG_HINTS_H

/* clang's -Wpsabi warns of calls passing 16-wide f32 or i32 vectors on x86 targets without AVX-512, an
 * ABI no call in a kernel module crosses, and PoCL prints the warnings' count on stderr at every build
 * (docs/drivers.md, pocl_psabi_warning): off, in every program (each includes this before its code). */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wpsabi"
#endif

#ifndef HINT_PREFETCH
#define HINT_PREFETCH 0
#endif
#ifndef HINT_STREAM
#define HINT_STREAM 0
#endif
#ifndef HINT_ITEM_LOOPS
#define HINT_ITEM_LOOPS 0
#endif

/* The kernels' tuning constants come from the host's tuning table as build options (host/core/tuning.c
 * names each tunable's macro): a build without them is the host's mistake, not a default to guess. */
#ifndef CACHE_LINE
#error "CACHE_LINE and the other tuning constants are build options from the host's tuning table"
#endif

/* The builtin's locality: the EmbeddingBag programs (which define BAG_PROGRAM before any include) have
 * their own, since their prefetches of a bag's random rows run furthest ahead of use. */
#ifdef BAG_PROGRAM
#define PROGRAM_PREFETCH_LOCALITY BAG_PREFETCH_LOCALITY
#else
#define PROGRAM_PREFETCH_LOCALITY PREFETCH_LOCALITY
#endif
#if HINT_PREFETCH == 1
#define PREFETCH(p) __builtin_prefetch((const __global void *)(p), 0, PROGRAM_PREFETCH_LOCALITY)
#elif HINT_PREFETCH == 2
#define PREFETCH(p) prefetch((const __global uchar *)(p), CACHE_LINE)
#elif HINT_PREFETCH == 0
#define PREFETCH(p) ((void)0)
#else
#error "HINT_PREFETCH must be 0, 1 or 2"
#endif

/* Every cache line of [p, p + bytes), once: p's line, then each line start after it. Steps of
 * CACHE_LINE from p itself miss the last line where p is not line-aligned (a caller's memory used in
 * place: numpy puts a large array 16 bytes past a page, and each 136-byte FBGEMM row then lost the
 * line of its scale). */
#if HINT_PREFETCH
inline void prefetch_span(__global const uchar *p, ulong bytes)
{
    if (bytes == 0) return;
    PREFETCH(p);
    const ulong skew = (ulong)(uintptr_t)p % CACHE_LINE;
    for (ulong at = CACHE_LINE - skew; at < bytes; at += CACHE_LINE) PREFETCH(p + at);
}
#else
#define prefetch_span(p, bytes) ((void)(p), (void)(bytes))
#endif

/* Output stores. Streaming stores are weakly ordered on x86: an sfence must make them visible before
 * the work-group completes. CPU runtimes run a group's items one after another on one thread, so one
 * sfence by the group's last item orders every streaming store the group made (a fence per item costs
 * more than the streaming saves). No barrier before it: PoCL 3.1 corrupts memory outside the kernel's
 * buffers when dequant_runs ends in barrier() (docs/drivers.md, "PoCL: a closing barrier"). Kernels
 * using STREAM_GROUP_FENCE must let every item reach it. */
#if defined(STREAM) && STREAM && HINT_STREAM
#define STORE_UNIT(p, v) __builtin_nontemporal_store((v), (p))
#define STREAM_GROUP_FENCE()                                                   \
    do {                                                                       \
        if (get_local_id(0) + 1 == get_local_size(0)) __builtin_ia32_sfence(); \
    } while (0)
#else
#define STORE_UNIT(p, v)     (*(p) = (v))
#define STREAM_GROUP_FENCE() ((void)0)
#endif

#if HINT_ITEM_LOOPS
#define ITEM_LOOPS_KERNEL __attribute__((intel_vec_len_hint(1))) __kernel
#else
#define ITEM_LOOPS_KERNEL __kernel
#endif

/* Hot helpers that take a struct of parameters by pointer: inlined where HINT_FORCE_INLINE says the
 * compiler takes clang's always_inline, so the build-time constants in it fold away their branches. */
#ifndef HINT_FORCE_INLINE
#define HINT_FORCE_INLINE 0
#endif
#if HINT_FORCE_INLINE
#define HOT_INLINE inline __attribute__((always_inline))
#else
#define HOT_INLINE inline
#endif

/* A hot loop kept a function of its own where HINT_FORCE_INLINE says the compiler is clang's: its
 * registers are then allocated for it alone, not across the paths of a large caller. */
#if HINT_FORCE_INLINE
#define OWN_FUNCTION __attribute__((noinline))
#else
#define OWN_FUNCTION inline
#endif

#endif /* CLG_HINTS_H */
