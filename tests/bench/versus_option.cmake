# bench_versus_option: clgather-bench --versus PROFILE pairs every timed run with one under the tuning
# with PROFILE's lines applied: the other tuning's calls run (its kernel variant is the adjacent
# mapping's where the profile says so, the base calls keep theirs), its output is checked against the
# CPU reference, and the JSON carries its times and the pairs' ratios; a profile naming no tunable is
# refused before any case runs, naming the tunable.
#   cmake -DBENCH=<clgather-bench> -DOUT=<scratch folder> -P versus_option.cmake
set(common --repeat 10 --ref-repeat 1 --no-first-call --case tiny)
file(MAKE_DIRECTORY ${OUT})
file(WRITE ${OUT}/unknown.profile "no_such_tunable = 3\n")
execute_process(COMMAND ${BENCH} --versus ${OUT}/unknown.profile ${common} OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT err MATCHES "no_such_tunable" OR out MATCHES "tiny")
  message(FATAL_ERROR "--versus with an unknown tunable: status ${rc}, stderr:\n${err}")
endif()

# tiny, a Gather of 16 rows, runs a variant of the runs mapping under --mapping runs and one of the
# adjacent mapping under the profile, on any device (the bench itself stops if a timed run of either
# side ran the other side's variant)
file(WRITE ${OUT}/adjacent.profile "# the other mapping\nmapping = adjacent\n")
execute_process(COMMAND ${BENCH} --mapping runs --versus ${OUT}/adjacent.profile ${common} --json ${OUT}/versus.json
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "--versus adjacent.profile failed (${rc}):\n${out}\n${err}")
endif()
file(READ ${OUT}/versus.json json)
string(JSON named GET "${json}" tuning versus)
string(JSON base_variant GET "${json}" cases 0 variant)
string(JSON other_variant GET "${json}" cases 0 versus variant)
string(JSON verified GET "${json}" cases 0 versus verified)
string(JSON ratio GET "${json}" cases 0 versus ratio_median)
string(JSON other_wall GET "${json}" cases 0 versus wall_median_s)
if(NOT named STREQUAL "${OUT}/adjacent.profile" OR NOT verified OR base_variant STREQUAL other_variant
   OR NOT other_variant MATCHES "^(row|staged)-units$" OR NOT ratio GREATER 0 OR NOT other_wall GREATER 0)
  message(FATAL_ERROR "--versus: profile '${named}', variants '${base_variant}' and '${other_variant}', "
                      "verified ${verified}, ratio ${ratio}, wall ${other_wall}:\n${json}")
endif()
if(NOT out MATCHES "versus: pairs' median")
  message(FATAL_ERROR "--versus: no paired line in the table:\n${out}")
endif()
message(STATUS "--versus ran tiny as ${base_variant} and ${other_variant}, both checked; refused an unknown tunable")
