# bench/original/rodinia LUD: how the suite's originals are built, run, timed and read (sourced
# by ../run; $suite, $orig, $here, $tiny are set). Originals: openmp/lud/omp (lud.c, lud_omp.c,
# common.c) compiled without (seq) and with -fopenmp (omp, given -n 2: it sets its own thread
# count, 40 unless told), opencl/lud/ocl (ocl), as their Makefiles build them but at -O2 like
# every variant. Input: the matrix their -s option generates. The numbers: each side's run
# with -v (`dump` for the composed one) runs the suite's lud_verify, which prints a line for
# every element of L * U off the input by more than 0.0001; the count must be the
# sequential original's (0).
# shellcheck shell=bash disable=SC2034,SC2154
if [ "$tiny" = 1 ]; then size=64; else size=1024; fi
rd_composed_args=("$size")
rd_tolerance=0
rd_reference=seq_check

rd_build() {
  local s="$suite/openmp/lud" o="$suite/opencl/lud"
  gcc -O2 -w -I"$s/common" "$s/omp/lud.c" "$s/omp/lud_omp.c" "$s/common/common.c" -o "$orig/seq" \
    -lm -lgomp
  gcc -O2 -w -fopenmp -I"$s/common" "$s/omp/lud.c" "$s/omp/lud_omp.c" "$s/common/common.c" \
    -o "$orig/omp" -lm
  g++ -O2 -w -DTIMING -DCL_TARGET_OPENCL_VERSION=120 -include "$here/../common/ocl_io_timer.h" \
    -I"$o/common" -I"$suite/opencl/util" "$o/ocl/lud.cpp" "$o/common/common.c" \
    "$suite/opencl/util/timing.c" -o "$orig/ocl" -lOpenCL -lm
  cp "$o/lud_kernel.cl" "$orig/"
}
rd_command() {
  local verify=""
  [[ "$1" = *_check ]] && verify=" -v"
  case ${1%_check} in
    seq) echo "./seq -s $size$verify" ;;
    omp) echo "./omp -n 2 -s $size$verify" ;;
    ocl) echo "./ocl -s $size$verify" ;;
  esac
}
# Kernel region: the OpenMP program's "Time consumed(ms): <ms>" (its stopwatch around
# lud_omp), the OpenCL one's ocl_io_timer.h line.
rd_region() {
  case $1 in
    seq | omp) awk '/^Time consumed\(ms\): / { printf "%.6f\n", $3 / 1000; exit }' "$2" ;;
    ocl) sed -n 's/^with transfers: \([0-9.]*\)$/\1/p' "$2" ;;
  esac
}
# The numbers checked: how many elements lud_verify found off (after its ">>>Verify" line).
rd_result() {
  grep -q '^>>>Verify<<<<$' "$2" || { echo "no verification in $2"; return; }
  grep -c '^dismatch at' "$2" || true
}
rd_checked_by=(omp_check ocl_check)
