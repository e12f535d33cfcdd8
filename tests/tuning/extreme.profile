# A deliberately extreme tuning: values at or near an edge of their range, so that kernels run with
# one-item work-groups, one group a compute unit, one row a work-item, streaming stores on every output
# whose moves allow them (16 bytes or wider), staging and column blocks wherever a test turns them on or
# they fit, and the smallest column blocks. A tuning changes speed, never results: the differential
# suites run under this profile too (tests/CMakeLists.txt) and must still match the CPU reference bit
# for bit (the dequantizing gather's by hand: tests/CMakeLists.txt says why). Left as the table has
# them: the compiler hints (what the device compiler is asked for), the kernels' prefetch constants and
# the dequantizing gather's prefetch distance and lookups. They only place prefetches or pick among
# forms the suites test on their own, and changing them would rebuild every kernel of the suites again.
grid_groups_per_cu = 1
runs_groups_per_cu = 4096
runs_local_size = 1
adjacent_local_size = 2
runs_move_bytes = 16
adjacent_move_bytes = 64
run_bytes = 1
stream_min_bytes = 0
stream_min_row_bytes = 0
stream_min_unit_bytes = 0
stage_groups_per_cu = 4096
stage_sector_bytes = 1
block_row_min_bytes = 1
block_bytes_per_output = 65536
blocks_per_cu = 4096
dequant_run_bytes = 1
dequant_piece_values = 24
dequant_super_piece_values = 40
tree_local_size = 1
check_per_item = 1
check_local_size = 1
copy_local_size = 1
