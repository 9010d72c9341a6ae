# bench/original/rodinia k-means: how the suite's originals are built, run, timed and read
# (sourced by ../run; $suite, $orig, $here, $tiny are set). Originals: openmp/kmeans/
# kmeans_openmp compiled without (seq) and with -fopenmp (omp, given -n 2: it sets its own
# thread count), as its Makefile builds it; 5 clusters, threshold 0.001 (both programs'
# defaults). opencl/kmeans is no timed original: built at -O1 or -O2 it crashes here (a
# segmentation fault after "ERROR: clCreateCommandQueue() failed" under AddressSanitizer: the
# suite's host code is undefined somewhere); built at -O0 (ocl_check) it runs, and its
# centres (-o) are the reference numbers. Input: a generated text file (common/rd_gen_points.c) of 34 features a
# point, as the suite's kdd_cup. The reference numbers: the OpenCL original's centres (the
# OpenMP program prints none: its seq and omp originals are shown "unchecked" and still count
# as references, being the suite's code on the same input).
# shellcheck shell=bash disable=SC2034,SC2154
if [ "$tiny" = 1 ]; then points=2000; else points=100000; fi
features=34
rd_composed_args=("$orig/points.txt")
rd_tolerance=0.01  # printed with %.2f: within 1 % or 0.01
rd_reference=ocl_check

rd_build() {
  local s="$suite/openmp/kmeans/kmeans_openmp" o="$suite/opencl/kmeans"
  local omp_src=("$s/cluster.c" "$s/getopt.c" "$s/kmeans.c" "$s/kmeans_clustering.c")
  gcc -O2 -w -include omp.h "${omp_src[@]}" -o "$orig/seq" -lm -lgomp
  gcc -O2 -w -fopenmp "${omp_src[@]}" -o "$orig/omp" -lm
  g++ -O0 -w -DTIMING -DCL_TARGET_OPENCL_VERSION=120 -I"$suite/opencl/util" "$o/kmeans.cpp" \
    "$o/cluster.c" "$o/getopt.c" "$o/read_input.c" "$o/rmse.c" "$o/kmeans_clustering.c" \
    "$suite/opencl/util/timing.c" -o "$orig/ocl_check" -lOpenCL -lm
  cp "$o/kmeans.cl" "$orig/"
  gcc -O2 -Wall -Wextra -Werror "$here/common/rd_gen_points.c" -o "$orig/rd_gen_points"
}
rd_prepare() {
  if [ ! -f points.txt ] || [ "$(wc -l <points.txt)" != "$points" ]; then
    ./rd_gen_points "$points" "$features" points.txt
  fi
}
rd_command() {
  case $1 in
    seq) echo "./seq -i points.txt" ;;
    omp) echo "./omp -n 2 -i points.txt" ;;
    ocl_check) echo "./ocl_check -i points.txt -o" ;;
  esac
}
# Kernel region: the OpenMP program's "Time for process: <s>" (omp_get_wtime around its
# clustering).
rd_region() { sed -n 's/^Time for process: \([0-9.]*\)$/\1/p' "$2"; }
# The numbers checked: the centres ("<i>: <f>..." lines after "Centroid Coordinates").
rd_result() { awk '/Centroid Coordinates/ { on = 1; next } on && /^[0-9]+:/ { sub(/^[0-9]+:/, ""); print }' "$2"; }
rd_checked_by=()
rd_unchecked=(seq omp)
rd_originals=(seq omp)
