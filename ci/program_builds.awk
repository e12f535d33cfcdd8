# Every suite's kernel programs, from a CTest log (Testing/Temporary/LastTest.log): the line
# tests/support/test_support.c prints at the end of each suite, under the test's name; sorted, most
# first, with the total. Most of a cold run's time on a CPU device is these builds.
/^[0-9]+\/[0-9]+ Test: / { name = $3 }
/^kernel programs built: / {
    built[name] = $4
    from_source[name] = substr($5, 2)
    total += $4
}
END {
    n = 0
    for (t in built) order[++n] = t
    for (i = 2; i <= n; ++i) # insertion sort: a few dozen suites
        for (j = i; j > 1 && built[order[j]] + 0 > built[order[j - 1]] + 0; --j) {
            swap = order[j]; order[j] = order[j - 1]; order[j - 1] = swap
        }
    for (i = 1; i <= n; ++i) printf "%6d programs (%d from source)  %s\n", built[order[i]], from_source[order[i]], order[i]
    printf "%6d programs in all\n", total
}
