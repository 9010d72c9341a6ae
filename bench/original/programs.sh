# bench/original's programs, sourced by bench/original/run and tools/gpu-bundle: each one's
# folder in PolyBench-ACC (the same under OpenMP/, OpenCL/ and CUDA/) and the file name of its
# OpenCL and CUDA programs there (<name>.c, <name>.cl, <name>.cu).
# shellcheck shell=bash disable=SC2034
pb_programs=(gemm atax bicg fdtd-2d correlation convolution-2d)
declare -A pb_dir=([gemm]=linear-algebra/kernels/gemm [atax]=linear-algebra/kernels/atax
  [bicg]=linear-algebra/kernels/bicg [fdtd-2d]=stencils/fdtd-2d
  [correlation]=datamining/correlation [convolution-2d]=stencils/convolution-2d)
declare -A pb_name=([gemm]=gemm [atax]=atax [bicg]=bicg [fdtd-2d]=fdtd2d [correlation]=correlation
  [convolution-2d]=2DConvolution)
