# bench/original/rodinia PathFinder: how the suite's originals are built, run, timed and read
# (sourced by ../run; $suite, $orig, $here, $tiny are set). Originals: openmp/pathfinder
# compiled without (seq) and with -fopenmp (omp), opencl/pathfinder (ocl; ocl_check built with
# its BENCH_PRINT on, run once for the check). The sizes are the suite's run files' (100000
# columns, 100 rows, pyramid height 20).
# shellcheck shell=bash disable=SC2034,SC2154
if [ "$tiny" = 1 ]; then cols=1000 rows=30 height=4; else cols=100000 rows=100 height=20; fi
rd_composed_args=("$cols" "$rows" "$height")
rd_tolerance=0  # integers: exact

rd_build() {
  local s="$suite/openmp/pathfinder" o="$suite/opencl/pathfinder"
  g++ -O2 -Wno-unused-result "$s/pathfinder.cpp" -o "$orig/seq" 2>/dev/null
  g++ -O2 -fopenmp "$s/pathfinder.cpp" -o "$orig/omp" 2>/dev/null
  for v in ocl ocl_check; do
    local extra=()
    [ $v = ocl ] && extra=(-include "$here/../common/ocl_io_timer.h")
    [ $v = ocl_check ] && extra=(-DBENCH_PRINT)
    # As its Makefile builds it (-DTIMING), in the C++ of its time (std::data clashes with its
    # global `data` in C++17) and OpenCL 1.2's headers.
    g++ -std=gnu++11 -O2 -w -DTIMING -DCL_TARGET_OPENCL_VERSION=120 "${extra[@]}" \
      -I"$suite/opencl/util" "$o/main.cpp" "$o/OpenCL.cpp" \
      "$suite/opencl/util/timing.c" -o "$orig/$v" -lOpenCL
  done
  cp "$o/kernels.cl" "$orig/"
}
# The command line of an original (run in $orig).
rd_command() {
  case $1 in
    seq | omp) echo "./$1 $cols $rows" ;;
    ocl | ocl_check) echo "./$1 -c $cols -r $rows -h $height" ;;
  esac
}
# Its kernel region in seconds, from its output ($2): the OpenMP program prints rdtsc cycles
# around its row loop ("timer: N"; $tsc_hz converts), the OpenCL one ocl_io_timer.h's line.
rd_region() {
  case $1 in
    seq | omp) awk -v hz="$tsc_hz" '/^timer: / { printf "%.6f\n", $2 / hz; exit }' "$2" ;;
    ocl) sed -n 's/^with transfers: \([0-9.]*\)$/\1/p' "$2" ;;
  esac
}
# The numbers its output checks: the result row (the last line of numbers alone: BENCH_PRINT's second row).
rd_result() { grep -E '^[0-9 ]+$' "$2" | tail -n 1; }
rd_checked_by=(seq omp ocl_check)  # originals whose output is compared with seq's
