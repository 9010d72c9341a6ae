// One component with a CPU and an OpenCL variant and a history model: what a run that
// needs no device teaches the next (docs/SELECTION.md, "Devices the last run did not need").
#pragma once
#include <peppher/annotate.h>

void twice(const float* x PEPPHER_SIZE(n), float* y PEPPHER_SIZE(n), int n) PEPPHER_MODEL(history);
