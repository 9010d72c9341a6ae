// axpby on OpenCL, one work-item per element; T arrives as a build option (-DT=float).
__kernel void axpby_opencl(T a, __global const T* x, T b, __global T* y, int n) {
  const int i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + b * y[i];
}
