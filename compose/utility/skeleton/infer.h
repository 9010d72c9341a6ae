// The skeleton generator's guesses: accessMode from const / pointer / reference semantics
// (and output-like names or documented [out]), numElements from a neighbouring integer
// parameter, and names for unnamed parameters. Pure functions over scanned parameters.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "compose/ir/ir.h"
#include "compose/utility/scan/scanned.h"

namespace peppher::skeleton {

// numElements of a pointer whose length could not be inferred. `compose --check` reports
// it as "numElements of parameter 'x' names unknown parameter 'TODO_numElements'" with
// the attribute's location, until the user writes the real length.
inline constexpr const char* kNumElementsPlaceholder = "TODO_numElements";

struct Guess {
  std::string value;  // the accessMode ("read", ...) or numElements expression
  std::string why;    // short reason, shown as an XML comment next to the parameter
};

// Directions documented with Doxygen `\param[out] x` / `@param[in,out] x`: name -> "in",
// "out" or "inout".
std::map<std::string, std::string> documented_directions(const std::string& doc_comment);

// Whether a name reads like an output: out, result, dst, out_x, x_out, ...
bool named_like_output(const std::string& name);

// accessMode of p (named `name`): const T* / const T& / by value: read; T*, T&: readwrite,
// or write when documented [out] or named like an output.
Guess infer_access(const scan::ScannedParam& p, const std::string& name,
                   const std::map<std::string, std::string>& directions);

// numElements of the pointer params[index], given the final parameter names: the size of
// an array parameter (`float v[16]`: 16), else the one
// integer parameter named after the pointer (nx, x_len), a CSR rule (nrows+1, nnz), or the
// one integer parameter with a length-like name (n, size, npoints). Never a guess: when
// none or more than one could be the length, the placeholder, with the candidates in `why`.
Guess infer_num_elements(const std::vector<scan::ScannedParam>& params,
                         const std::vector<std::string>& names, size_t index);

// Final parameter names: as declared, unnamed ones get arg1, arg2, ... (by position,
// avoiding names already used).
std::vector<std::string> parameter_names(const std::vector<scan::ScannedParam>& params);

}  // namespace peppher::skeleton
