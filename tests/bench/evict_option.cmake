# bench_evict_option: clgather-bench --evict host evicts with a copy on the host thread (as
# bench/peers.py evicts its peers) and says so in its header and JSON; --evict device is the default;
# any other value is refused before a case runs.
#   cmake -DBENCH=<clgather-bench> -DOUT=<scratch folder> -P evict_option.cmake
set(common --repeat 10 --ref-repeat 1 --no-first-call --case batched)
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${BENCH} --evict sideways ${common} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT err MATCHES "--evict wants device or host" OR out MATCHES "batched")
  message(FATAL_ERROR "--evict sideways: status ${rc}, stdout:\n${out}\nstderr:\n${err}")
endif()
foreach(mode host device)
  execute_process(COMMAND ${BENCH} --evict ${mode} ${common} --json ${OUT}/${mode}.json OUTPUT_VARIABLE out
                  ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "--evict ${mode} failed (${rc}):\n${out}\n${err}")
  endif()
  file(READ ${OUT}/${mode}.json json)
  string(JSON evict GET "${json}" evict)
  string(JSON verified GET "${json}" cases 0 verified)
  string(JSON median GET "${json}" cases 0 median_s)
  string(JSON adjacent GET "${json}" cases 0 adjacent_copy_gbps)
  if(NOT evict STREQUAL mode OR NOT verified OR NOT median GREATER 0 OR NOT adjacent GREATER 0)
    message(FATAL_ERROR "--evict ${mode}: JSON evict '${evict}', verified ${verified}, median ${median}, "
                        "adjacent copy ${adjacent}:\n${json}")
  endif()
  if(mode STREQUAL host AND NOT out MATCHES "evict: +a [0-9]+ MiB copy before each timed run, on the host thread")
    message(FATAL_ERROR "--evict host: the header does not say so:\n${out}")
  endif()
endforeach()
message(STATUS "--evict host and device both ran batched, checked; refused an unknown mode")
