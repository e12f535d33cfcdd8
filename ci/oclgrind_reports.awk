# The reports Oclgrind wrote into a `ctest -V` log, one line each, prefixed with the test's number.
# ctest -V starts every line of a test's output with "<test number>: ", and with -j the lines of two
# tests interleave: an API error's report spans three lines, gathered per test. A build failure is
# one a test provoked on purpose (launch:failed_hinted_build_falls_back_to_no_hints, and the probe of
# support_compiler_defines, which Oclgrind's compiler fails); an unplanned one fails its test anyway.
{
    prefix = ""
    line = $0
    if (match(line, /^[0-9]+: /)) {
        prefix = substr(line, 1, RLENGTH)
        line = substr(line, RLENGTH + 1)
    }
    if (prefix in pending) { # the lines after an API error report of this test: the call, the error
        report[prefix] = report[prefix] " " line
        if (--pending[prefix] == 0) {
            if (report[prefix] !~ /CL_BUILD_PROGRAM_FAILURE/) print report[prefix]
            delete pending[prefix]
        }
        next
    }
    if (line ~ /^Oclgrind - OpenCL runtime error detected/) {
        pending[prefix] = 2
        report[prefix] = prefix line
        next
    }
    if (line ~ /^(Invalid (read|write)|Uninitiali[sz]ed value|Read-write data race|Write-write data race|Work-group divergence|OCLGRIND FATAL)/)
        print prefix line
}
