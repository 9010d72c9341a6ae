// Written for another host program: unsigned elements and shift (accepted: an int's bits
// pass unchanged), but an 8-byte count where the wrapper passes an int.
__kernel void shift(__global uint* restrict x, const ulong n, const unsigned int by) {
  const size_t i = get_global_id(0);
  if (i < n) x[i] <<= by;
}
