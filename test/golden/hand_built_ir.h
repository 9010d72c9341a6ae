// Hand-built IR for the golden tests of the generators (STYLE item 13: generators are
// tested from IR, independently of the reader).
#pragma once

#include "compose/ir/ir.h"

namespace peppher::golden {

/// A descriptor expression as check/ leaves it: its text and its parsed tree.
ir::Expression expr(const std::string& text);

/// The published vector_scale example: raw pointer + two scalars, CPU and CUDA variants,
/// plus an OpenCL kernel variant.
ir::Application vector_scale_app();

/// Containers and a performance model: dot(x, y, n, result) with Vector/Scalar operands,
/// CPU, OPENMP and OpenCL variants, history-based model.
ir::Application containers_app();

}  // namespace peppher::golden
