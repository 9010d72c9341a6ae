// Shared by the vendor's kernels.
#define INCREMENT_BY 1.0f
inline float bumped(float v) {
  return v + INCREMENT_BY;
}
