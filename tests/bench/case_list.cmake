# bench_case_list: clgather-bench and bench/peers.py list the same cases, one name a line, because both
# read bench/cases.txt; peers.py lists them with nothing installed (no numpy, no peer).
#   cmake -DBENCH=<clgather-bench> -DPYTHON=<python3> -DPEERS=<bench/peers.py> -P case_list.cmake
execute_process(COMMAND ${BENCH} --list OUTPUT_VARIABLE from_bench RESULT_VARIABLE bench_rc)
execute_process(COMMAND ${PYTHON} -S ${PEERS} --list OUTPUT_VARIABLE from_peers ERROR_VARIABLE peers_err
                RESULT_VARIABLE peers_rc)
if(NOT bench_rc EQUAL 0)
  message(FATAL_ERROR "clgather-bench --list failed (${bench_rc})")
endif()
if(NOT peers_rc EQUAL 0)
  message(FATAL_ERROR "peers.py --list failed (${peers_rc}):\n${peers_err}")
endif()
if(NOT from_bench MATCHES "^embedding-f32\n")
  message(FATAL_ERROR "clgather-bench --list does not start with embedding-f32:\n${from_bench}")
endif()
if(NOT from_bench STREQUAL from_peers)
  message(FATAL_ERROR "the two lists differ\nclgather-bench --list:\n${from_bench}\npeers.py --list:\n${from_peers}")
endif()
string(REGEX MATCHALL "\n" lines "${from_bench}")
list(LENGTH lines count)
message(STATUS "both list the same ${count} cases")
