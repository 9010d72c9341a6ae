# bench/original/rodinia HotSpot3D: how the suite's originals are built, run, timed and read
# (sourced by ../run; $suite, $orig, $here, $work, $tiny are set). Originals: openmp/hotspot3D
# compiled without (seq) and with -fopenmp (omp), opencl/hotspot3D (ocl), each as its Makefile
# builds it but at -O2 like every variant. Input: the power and temperature files the suite's
# data set would hold, generated (common/rd_gen_grid.c). Sizes: the suite's run file's grid
# (512 x 512 x 8) and its OpenMP run's 100 iterations (an even count: both originals then
# write the same step's result, see main.cpp).
# shellcheck shell=bash disable=SC2034,SC2154
if [ "$tiny" = 1 ]; then n=64 layers=4 iterations=6; else n=512 layers=8 iterations=100; fi
rd_composed_args=("$n" "$layers" "$iterations" "$orig/power.txt" "$orig/temp.txt" "$orig/output.out")
rd_tolerance=0.0001  # float, printed with %g (6 digits)

rd_build() {
  local s="$suite/openmp/hotspot3D" o="$suite/opencl/hotspot3D"
  gcc -O2 -include omp.h "$s/3D.c" -o "$orig/seq" -lm -lgomp
  gcc -O2 -fopenmp "$s/3D.c" -o "$orig/omp" -lm
  gcc -O2 -DTIMING -DCL_TARGET_OPENCL_VERSION=120 -include "$here/../common/ocl_io_timer.h" \
    -I"$suite/opencl/util" "$o/3D.c" "$o/CL_helper.c" "$suite/opencl/util/timing.c" \
    -o "$orig/ocl" -lOpenCL -lm
  cp "$o/hotspotKernel.cl" "$orig/"
  gcc -O2 -Wall -Wextra -Werror "$here/common/rd_gen_grid.c" -o "$orig/rd_gen_grid"
}
# The input files, written once per size.
rd_prepare() {
  local count=$((n * n * layers))
  if [ ! -f power.txt ] || [ "$(wc -l <power.txt)" != "$count" ]; then
    ./rd_gen_grid power "$count" power.txt
    ./rd_gen_grid temp "$count" temp.txt
  fi
}
rd_command() {
  case $1 in
    seq | omp) echo "./$1 $n $layers $iterations power.txt temp.txt output.out" ;;
    ocl) echo "./ocl -n $n -l $layers -i $iterations -f power.txt temp.txt output.out" ;;
  esac
}
# Kernel region: the OpenMP program's "Time: <s> (s)" (gettimeofday around computeTempOMP;
# printed with 3 decimals), the OpenCL one's ocl_io_timer.h line.
rd_region() {
  case $1 in
    seq | omp) sed -n 's/^Time: \([0-9.]*\) (s)$/\1/p' "$2" ;;
    ocl) sed -n 's/^with transfers: \([0-9.]*\)$/\1/p' "$2" ;;
  esac
}
# The numbers checked: the output file's values (writeoutput: "<index>\t<value>").
rd_result() { cut -f2 "$orig/output.out"; }
rd_checked_by=(seq omp ocl)
