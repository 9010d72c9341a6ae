// The runtime's calls into the compiler's OpenMP library (libgomp), declared without <omp.h>:
// StarPU 1.4 installs an omp.h of its own (its OpenMP runtime's) in its include folder, which
// shadows the compiler's and lacks OpenMP 5's pause calls, so only openmp_threads.cpp, compiled
// without StarPU's include path (runtime/CMakeLists.txt), includes <omp.h>.
#pragma once

namespace peppher::detail {

// omp_set_num_threads for the calling thread's next parallel regions.
void openmp_set_threads(int threads) noexcept;
// omp_get_max_threads: what the calling thread's next parallel region would get.
int openmp_max_threads() noexcept;
// omp_in_parallel: the calling thread is inside an active parallel region.
bool openmp_in_parallel() noexcept;
// Ends the calling thread's idle OpenMP team (omp_pause_resource_all(omp_pause_soft)).
void openmp_end_team() noexcept;
// Once per process: makes libgomp count StarPU's workers among the threads that share the
// CPUs, so that its idle team threads spin 100 turns, not 300,000 (openmp_threads.cpp).
void openmp_count_the_workers() noexcept;

}  // namespace peppher::detail
