// A compile-time check that the runtime headers generated wrappers include
// (templates/wrapper.cpp.mustache, wrapper.h.mustache) parse none of the heavy standard headers
// below: parsing headers is most of each generated file's compile, and CI compiles every
// generated file of every test composition again whenever a runtime header changes. Put what
// needs one of them out of line in runtime/src (runtime/README.md, "What generated code
// includes"). Compiled only, never linked; the guards are libstdc++'s (another library passes).
#include <peppher/detail/checked_size.h>
#include <peppher/detail/variant_errors.h>
#include <peppher/inline_call.h>
#include <peppher/nested_call.h>
#include <peppher/opencl.h>
#include <peppher/partitioned_call.h>
#include <peppher/placement.h>
#include <peppher/runtime.h>
#include <peppher/task.h>
#include <peppher/trained_grid.h>

#if defined(_GLIBCXX_SSTREAM) || defined(_GLIBCXX_ISTREAM) || defined(_GLIBCXX_OSTREAM) || \
    defined(_GLIBCXX_IOSTREAM)
#error "a header generated wrappers include parses a stream header (<sstream>, <ostream>)"
#endif
#if defined(_GLIBCXX_FUNCTIONAL) || defined(_GLIBCXX_UNORDERED_MAP)
#error "a header generated wrappers include parses <functional> (std::function)"
#endif
#if defined(_GLIBCXX_MAP) || defined(_GLIBCXX_SET)
#error "a header generated wrappers include parses <map> or <set>"
#endif
#if defined(_GLIBCXX_CONDITION_VARIABLE) || defined(_GLIBCXX_THREAD)
#error "a header generated wrappers include parses <condition_variable> or <thread>"
#endif
#if defined(_GLIBCXX_ALGORITHM) || defined(_GLIBCXX_ITERATOR)
#error "a header generated wrappers include parses <algorithm> or <iterator>"
#endif
#if defined(_GLIBCXX_CMATH) || defined(_GLIBCXX_CHRONO)
#error "a header generated wrappers include parses <cmath> or <chrono>"
#endif
