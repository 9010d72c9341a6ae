// The PEPPHER runtime umbrella header: everything generated code and applications use.
// Include this (generated peppher.h does) rather than the individual headers. It brings the
// light form's annotations too (PEPPHER_WRITE, ...: nothing outside compose), so a component
// header that takes peppher containers needs no second include for them.
#pragma once

#include "peppher/annotate.h"
#include "peppher/distribution.h"
#include "peppher/element_ref.h"
#include "peppher/error.h"
#include "peppher/execution_counter.h"
#include "peppher/init.h"
#include "peppher/matrix.h"
#include "peppher/partition.h"
#include "peppher/scalar.h"
#include "peppher/selection.h"
#include "peppher/vector.h"
