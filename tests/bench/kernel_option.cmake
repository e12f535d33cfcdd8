# bench_kernel_option: clgather-bench --kernel NAME forces a kernel variant by its registry name
# (host/core/variants.h) and names in its JSON the variant each case ran; a case of the variant's
# operations it cannot apply to is reported unavailable, not timed under another variant; an unknown
# name is refused before any case runs.
#   cmake -DBENCH=<clgather-bench> -DOUT=<scratch folder> -P kernel_option.cmake
set(common --repeat 10 --ref-repeat 1 --no-first-call)
execute_process(COMMAND ${BENCH} --kernel no-such-variant ${common} --case tiny OUTPUT_VARIABLE out
                ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT err MATCHES "no-such-variant")
  message(FATAL_ERROR "--kernel no-such-variant: status ${rc}, stderr:\n${err}")
endif()

# tiny is a Gather of 16 rows of 16 f32: row-units applies to it on every device
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${BENCH} --kernel row-units ${common} --case tiny --json ${OUT}/forced.json
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "--kernel row-units failed (${rc}):\n${out}\n${err}")
endif()
file(READ ${OUT}/forced.json json)
string(JSON variant GET "${json}" cases 0 variant)
if(NOT variant STREQUAL "row-units")
  message(FATAL_ERROR "tiny ran variant '${variant}' under --kernel row-units:\n${json}")
endif()

# column blocks stage an outer axis, never the innermost one: gather-elements-rows is reported, not timed
execute_process(COMMAND ${BENCH} --kernel elements-column-blocks ${common} --case gather-elements-rows
                        --json ${OUT}/inapplicable.json
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "--kernel elements-column-blocks failed (${rc}):\n${out}\n${err}")
endif()
file(READ ${OUT}/inapplicable.json json)
string(JSON available GET "${json}" cases 0 available)
string(JSON note GET "${json}" cases 0 note)
if(available OR NOT note MATCHES "does not apply")
  message(FATAL_ERROR "gather-elements-rows under --kernel elements-column-blocks: available ${available}, note '${note}'")
endif()
message(STATUS "--kernel forced row-units, reported elements-column-blocks as not applying, refused an unknown name")
