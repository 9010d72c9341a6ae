// pf_likelihood, OpenCL variant: work-item i moves particle i of the block and weighs it, by
// the rules of pf_particle.h repeated operation for operation (its exp, log and cos in +, -,
// *, / and floor; no contraction into fused multiply-adds), so the same bits as the CPU.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

#define PF_RAND_M 2147483647
#define PF_LN2 0.6931471805599453
#define PF_TWO_PI 6.283185307179586

double pf_randu(__global int* seed) {
  const int num = as_int(1103515245u * as_uint(*seed) + 12345u);
  *seed = num % PF_RAND_M;
  const int s = *seed < 0 ? -*seed : *seed;
  return (s == 0 ? 1 : s) / (double)PF_RAND_M;
}

double pf_log_unit(double u) {
  double m = u;
  int e = 0;
  while (m < 0.7071067811865476) {
    m = m * 2.0;
    e = e - 1;
  }
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  double t = 0.0;
  for (int k = 21; k >= 1; k -= 2) t = t * s2 + 1.0 / k;
  return e * PF_LN2 + 2.0 * s * t;
}

double pf_exp_bounded(double x) {
  const double nd = floor(x / PF_LN2 + 0.5);
  const double r = x - nd * PF_LN2;
  double t = 1.0;
  for (int k = 17; k >= 1; --k) t = 1.0 + t * r / k;
  const int n = (int)nd;
  double p = 1.0;
  double b = n < 0 ? 0.5 : 2.0;
  for (int m = n < 0 ? -n : n; m != 0; m = m / 2) {
    if (m % 2 != 0) p = p * b;
    b = b * b;
  }
  return t * p;
}

double pf_cos_2pi(double v) {
  const double x = PF_TWO_PI * (v - floor(v + 0.5));
  const double x2 = x * x;
  double t = 1.0;
  for (int k = 15; k >= 1; --k) t = 1.0 - (x2 / ((2.0 * k - 1.0) * (2.0 * k))) * t;
  return t;
}

double pf_randn(__global int* seed) {
  const double u = pf_randu(seed);
  const double v = pf_randu(seed);
  return sqrt(-2.0 * pf_log_unit(u)) * pf_cos_2pi(v);
}

long pf_pixel(double v) {
  const double c = v < -1.0e6 ? -1.0e6 : (v > 1.0e6 ? 1.0e6 : v);
  return (long)floor(c + 0.5);
}

__kernel void pf_likelihood_opencl(__global const int* video, int video_size,
                                   __global const int* disk, int disk_size, int frame, int cols,
                                   int frames, int particles, int block, __global double* x,
                                   int x_size, __global double* y, int y_size, __global int* seed,
                                   int seed_size, __global double* weights, int weights_size) {
  (void)block;
  (void)y_size;
  (void)seed_size;
  (void)weights_size;
  const int i = (int)get_global_id(0);
  if (i >= x_size) return;
  x[i] = x[i] + 1.0 + 5.0 * pf_randn(&seed[i]);
  y[i] = y[i] - 2.0 + 2.0 * pf_randn(&seed[i]);
  const long r = pf_pixel(x[i]), c = pf_pixel(y[i]);
  const int ones = disk_size / 2;
  double l = 0.0;
  for (int d = 0; d < ones; ++d) {
    long ind = (r + disk[2 * d]) * cols * frames + (c + disk[2 * d + 1]) * frames + frame;
    if (ind < 0) ind = -ind;
    if (ind >= video_size) ind = 0;
    const double a = video[ind] - 100.0;
    const double b = video[ind] - 228.0;
    l = l + (a * a - b * b) / 50.0;
  }
  l = l / ones;
  l = l < -700.0 ? -700.0 : (l > 700.0 ? 700.0 : l);
  weights[i] = (1.0 / particles) * pf_exp_bounded(l);
}
