/* The page facts the benchmarks report beside their times. A gather of random rows from a large table
 * misses the TLB on nearly every row with 4 KiB pages and far less with 2 MiB ones, so the same kernel's
 * time depends on how the table's memory was mapped, which the library does not choose: a CPU driver
 * allocates its buffers with malloc (4 KiB pages unless glibc is told otherwise), while numpy asks the
 * kernel for transparent huge pages on its large arrays (docs/performance.md, "Page size on CPU
 * devices"). Linux's files; elsewhere the facts read as unknown. */
#ifndef CLGATHER_BENCH_PAGE_FACTS_H
#define CLGATHER_BENCH_PAGE_FACTS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kernel's transparent huge page mode (always, madvise or never: the bracketed word of
 * /sys/kernel/mm/transparent_hugepage/enabled) into buf; "unknown" where that cannot be read. */
static inline const char *page_facts_thp_mode(char *buf, size_t size)
{
    snprintf(buf, size, "unknown");
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (!f) return buf;
    char line[128];
    if (fgets(line, sizeof line, f)) {
        const char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;
        if (open && close && close - open - 1 > 0 && (size_t)(close - open - 1) < size)
            snprintf(buf, size, "%.*s", (int)(close - open - 1), open + 1);
    }
    fclose(f);
    return buf;
}

/* glibc's glibc.malloc.hugetlb tunable as this process was started with it (GLIBC_TUNABLES): "1" makes
 * malloc ask for transparent huge pages on the memory it maps; "unset" where the variable does not name
 * it. */
static inline const char *page_facts_glibc_hugetlb(char *buf, size_t size)
{
    snprintf(buf, size, "unset");
    const char *tunables = getenv("GLIBC_TUNABLES");
    const char *key = "glibc.malloc.hugetlb=";
    for (const char *at = tunables; at && (at = strstr(at, key)) != NULL; at += strlen(key))
        if (at == tunables || at[-1] == ':')
            snprintf(buf, size, "%.*s", (int)strcspn(at + strlen(key), ":"), at + strlen(key));
    return buf;
}

/* The bytes of this process's anonymous memory now in transparent huge pages (AnonHugePages of
 * /proc/self/smaps_rollup); -1 where that cannot be read. */
static inline long long page_facts_anon_huge_bytes(void)
{
    FILE *f = fopen("/proc/self/smaps_rollup", "r");
    if (!f) return -1;
    char line[256];
    long long kib = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "AnonHugePages: %lld kB", &kib) == 1) break;
    fclose(f);
    return kib < 0 ? -1 : kib * 1024;
}

#endif /* CLGATHER_BENCH_PAGE_FACTS_H */
