// The H200 machine's measured figures (bench/README.md, bench/gpu on an NVIDIA H200,
// 2026-11-26/27) behind bench/sim's prediction functions: one dependent multiply-add per
// element and round, on one CPU core or on the GPU, and what a task costs beyond its work.
#pragma once

namespace h200 {
// One core: 1.54 ns per element and round (the far split case: 64 rounds on n = 16M took the
// 15 CPU workers about 40 x the GPU's 2.7 ms, 110 ms).
constexpr double kCpuElementRoundUs = 1.54e-3;
// A CPU task: 5.5 us (the CPU model's 9.4 us at n = 64, 40 rounds, less its work).
constexpr double kCpuTaskUs = 5.5;
// The GPU: 0.19 ps per element and round (the far split case: the GPU alone took 2.7 ms a
// call on n = 16M, 64 rounds, of which the two 64 MB copies at 54 GB/s are 2.5 ms: about
// 0.2 ms of kernel).
constexpr double kGpuElementRoundUs = 1.9e-7;
// A CUDA task: 11.8 us (the CUDA model's time at n = 64, 40 rounds).
constexpr double kGpuTaskUs = 11.8;
}  // namespace h200
