__global__ void vscale_kernel(float* arr, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) arr[i] *= factor;
}

void vscale_cuda(float* arr, int n, float factor) {
  vscale_kernel<<<(n + 255) / 256, 256>>>(arr, n, factor);
  cudaThreadSynchronize();
}
