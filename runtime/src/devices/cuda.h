// The CUDA driver's part of the device hooks (devices/devices.h): cuBLAS handles, and
// StarPU's transfer predictions to and from CUDA devices without their contention doubling.
#pragma once

namespace peppher::detail {

/// @brief A cuBLAS handle per CUDA worker, on its stream (starpu_cublas_get_local_handle()
///        in a CUDA variant); nothing without CUDA workers or a StarPU without CUDA.
void open_cuda();
/// @brief Releases what open_cuda() made.
void close_cuda() noexcept;
/// @brief StarPU's prediction @p predicted (microseconds) of a copy from memory node @p src
///        to @p dst, without the doubling for contention when one of them is a CUDA device.
double cuda_transfer_us(unsigned src, unsigned dst, double predicted) noexcept;

}  // namespace peppher::detail
