# bench/original/rodinia Gaussian: how the suite's original is built, run, timed and read
# (sourced by ../run; $suite, $orig, $here, $tiny are set). Rodinia 3.1 has Gaussian
# elimination in OpenCL only: its one original is opencl/gaussian (ocl), built as its Makefile
# builds it but at -O2 like every variant; the composed CPU variants are its kernels' bodies as
# loops. Input: the matrix its -s option generates. The suite's run file's size is 2048; 1024
# here (about 1 s on pocl on 2 cores). The reference numbers: its -v output (b after the
# elimination and the solution, printed %.2e), compared within 5 %: the back substitution
# amplifies float rounding differences between the kernels on pocl (which may contract
# a * b + c into one fma) and the CPU loops; at 1024, b agrees within 1 % and the solution's
# small components (about 5e-4) within 3-5 %.
# shellcheck shell=bash disable=SC2034,SC2154
if [ "$tiny" = 1 ]; then size=64; else size=1024; fi
rd_composed_args=("$size")
rd_tolerance=0.05
rd_reference=ocl_check

rd_build() {
  local o="$suite/opencl/gaussian"
  for v in ocl ocl_check; do
    local extra=()
    [ $v = ocl ] && extra=(-include "$here/../common/ocl_io_timer.h")
    g++ -O2 -w -fopenmp -DTIMING -DCL_TARGET_OPENCL_VERSION=120 "${extra[@]}" \
      -I"$suite/opencl/util" "$o/clutils.cpp" "$o/gaussianElim.cpp" "$o/utils.cpp" \
      -o "$orig/$v" -lOpenCL
  done
  cp "$o/gaussianElim_kernels.cl" "$orig/"
}
rd_command() {
  case $1 in
    ocl) echo "./ocl -s $size" ;;
    ocl_check) echo "./ocl -s $size -v" ;;
  esac
}
# Kernel region: ocl_io_timer.h's line (first buffer to last blocking read).
rd_region() { sed -n 's/^with transfers: \([0-9.]*\)$/\1/p' "$2"; }
# The numbers checked: the lines after "The result of array b is:" and "The final solution is:".
rd_result() { awk 'p { print; p = 0 } /^The (result of array b|final solution) is:/ { p = 1 }' "$2"; }
rd_checked_by=()
rd_originals=(ocl)
