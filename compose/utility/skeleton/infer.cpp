// Inference rules behind the skeleton descriptors (see infer.h): guesses only, each with
// the reason the generated descriptor shows so the user can review it; a length that more
// than one parameter could give is left to the user (the placeholder), never guessed.
#include "compose/utility/skeleton/infer.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iterator>
#include <regex>
#include <set>

#include "compose/util/text.h"

namespace peppher::skeleton {
namespace {

using text::lower;

bool is_in(const std::string& s, std::initializer_list<const char*> words) {
  return std::any_of(words.begin(), words.end(), [&](const char* w) { return s == w; });
}

// A parameter's name in lower case, without trailing underscores: `values_count_` (renamed
// off a name the generated code reserves) still reads as the length of `values`.
std::string base_name(const std::string& name) {
  std::string n = lower(name);
  while (n.size() > 1 && n.back() == '_') n.pop_back();
  return n;
}

// Names that say "the length of `p`": nx, x_len, len_x, xsize, num_x, x_count, ...
bool names_length_of(const std::string& candidate, const std::string& pointer) {
  const std::string c = base_name(candidate), p = lower(pointer);
  static const char* const kPrefixes[] = {"n",       "n_",   "len",   "len_",  "length",
                                          "length_", "size", "size_", "num",   "num_",
                                          "nb",      "nb_",  "count", "count_"};
  static const char* const kSuffixes[] = {"n",       "_n",   "len",    "_len",   "length",
                                          "_length", "size", "_size",  "count",  "_count",
                                          "num",     "_num", "nelems", "_nelems"};
  for (const char* pre : kPrefixes) {
    if (c == pre + p) return true;
  }
  for (const char* suf : kSuffixes) {
    if (c == p + suf) return true;
  }
  return false;
}

bool is_generic_length(const std::string& name) {
  // n + a plural: nbins, npoints, num_items, nb_cells
  static const std::regex kCountOf("(n|n_|num|num_|nb|nb_)[a-z_]+s");
  if (std::regex_match(base_name(name), kCountOf)) return true;
  return is_in(base_name(name),
               {"n",        "size",         "len",         "length", "count",     "num", "nelems",
                "nelem",    "num_elements", "numelements", "nitems", "num_items", "nnz", "nrows",
                "ncols",    "num_rows",     "num_cols",    "rows",   "cols",      "m",   "dim",
                "elements", "nb",           "nel",         "nmemb"});
}

bool is_row_pointer(const std::string& p) {
  return is_in(lower(p),
               {"rowptr", "row_ptr", "rowptrs", "row_ptrs", "row_offsets", "rowoffsets",
                "row_offset", "rowoffset", "row_pointers", "ia", "row_starts", "rowstart"});
}

bool is_nonzero_array(const std::string& p) {
  return is_in(lower(p), {"values", "vals", "val", "colidx", "colidxs", "col_idx", "col_idxs",
                          "col_indices", "colindices", "colind", "col_ind", "ja", "col_index"});
}

// The one integer parameter giving the stride of `pointer` (BLAS: incX for X; also
// inc_x, x_inc, stride_x, x_stride, xstride), or npos.
size_t stride_of(const std::vector<std::string>& names, const std::vector<size_t>& integers,
                 const std::string& pointer) {
  const std::string p = lower(pointer);
  static const char* const kWords[] = {"inc", "stride"};
  auto names_stride = [&](const std::string& c) {
    return std::any_of(std::begin(kWords), std::end(kWords), [&](const std::string& w) {
      return c == w + p || c == w + "_" + p || c == p + w || c == p + "_" + w;
    });
  };
  size_t found = std::string::npos;
  for (size_t i : integers) {
    if (names_stride(lower(names[i]))) {
      if (found != std::string::npos) return std::string::npos;  // two: the user decides
      found = i;
    }
  }
  return found;
}

// A plain identifier (a length parameter's name), not the placeholder or an expression.
bool is_parameter_name(const std::string& text) {
  return !text.empty() && text != kNumElementsPlaceholder &&
         std::all_of(text.begin(), text.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
         });
}

// The length of a pointer read with a stride: n elements at 0, |inc|, ..., (n-1)*|inc|
// (BLAS reads a negative stride from the far end), none when n is 0. The expression
// language has no abs(), so |inc| is inc*((inc>0)-(inc<0)).
std::string strided_length(const std::string& n, const std::string& inc) {
  return "(" + n + ">0)*(1+(" + n + "-1)*" + inc + "*((" + inc + ">0)-(" + inc + "<0)))";
}

Guess strided(const Guess& count, const std::string& inc, const std::string& pointer) {
  const std::string& n = count.value;
  return {strided_length(n, inc), "'" + pointer + "' is read with stride '" + inc +
                                      "' (BLAS-style): 1+(" + n + "-1)*|" + inc +
                                      "| elements, none when " + n + " is 0; " + n +
                                      " counts them (" + count.why + ")"};
}

}  // namespace

std::map<std::string, std::string> documented_directions(const std::string& doc_comment) {
  std::map<std::string, std::string> out;
  static const std::regex kParam(
      R"([\\@]param\s*\[\s*(in|out|in\s*,\s*out|inout|out\s*,\s*in)\s*\]\s+(\w+))",
      std::regex::icase);
  for (auto it = std::sregex_iterator(doc_comment.begin(), doc_comment.end(), kParam);
       it != std::sregex_iterator(); ++it) {
    std::string dir = lower((*it)[1].str());
    dir.erase(std::remove_if(dir.begin(), dir.end(), [](char c) { return c == ' ' || c == ','; }),
              dir.end());
    out[(*it)[2].str()] = dir == "in" || dir == "out" ? dir : "inout";
  }
  return out;
}

bool named_like_output(const std::string& name) {
  const std::string n = lower(name);
  if (is_in(n, {"out", "output", "outputs", "result", "results", "res", "ret", "dst", "dest",
                "destination"})) {
    return true;
  }
  for (const char* pre : {"out_", "dst_", "dest_", "result_", "output_"}) {
    if (n.rfind(pre, 0) == 0) return true;
  }
  for (const char* suf : {"_out", "_dst", "_result", "_output"}) {
    const std::string s(suf);
    if (n.size() > s.size() && n.compare(n.size() - s.size(), s.size(), s) == 0) return true;
  }
  // camelCase: xOut, vecResult
  for (const char* suf : {"Out", "Result", "Output"}) {
    const std::string s(suf);
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
      return true;
    }
  }
  return false;
}

Guess infer_access(const scan::ScannedParam& p, const std::string& name,
                   const std::map<std::string, std::string>& directions) {
  if (p.shape == scan::ParamShape::Value) return {"read", "by value"};
  const bool pointer = p.shape == scan::ParamShape::Pointer;
  const std::string what = pointer ? "pointer" : "reference";
  if (p.pointee_const) return {"read", "const " + what};
  auto doc = directions.find(name);
  if (doc != directions.end()) {
    if (doc->second == "out") return {"write", "documented [out]"};
    if (doc->second == "in")
      return {"read", "documented [in], though the " + what + " is not const"};
    return {"readwrite", "documented [in,out]"};
  }
  if (named_like_output(name)) return {"write", "non-const " + what + " named like an output"};
  return {"readwrite", "non-const " + what};
}

namespace {

// Whether `pointer` is named like a matrix (the usual single capital, A or B2, or mat, grid,
// image, ...): flattened, it holds rows*cols elements, which one length parameter `n` does not
// tell (n*n, n*m). BLAS's strided vectors (X with incX) are decided before this is asked.
bool named_like_matrix(const std::string& pointer) {
  if (!pointer.empty() && std::isupper(static_cast<unsigned char>(pointer[0])) != 0 &&
      std::all_of(pointer.begin() + 1, pointer.end(),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }))
    return true;
  const std::string n = lower(pointer);
  for (const char* word : {"mat", "grid", "image", "img", "tile", "2d"})
    if (n.find(word) != std::string::npos) return true;
  return false;
}

// How many elements `pointer` holds (or, with a stride, how many it is read at).
Guess infer_count(const std::vector<std::string>& names, const std::vector<size_t>& integers,
                  const std::string& pointer, bool strided) {
  // More than one parameter could be the length: the user decides (a product such as
  // npoints*nfeatures is as likely as any one of them); a guess would read past the data.
  auto undecided = [&](const std::vector<size_t>& candidates) {
    std::string list;
    for (size_t i : candidates) list += (list.empty() ? "" : ", ") + names[i];
    return Guess{kNumElementsPlaceholder,
                 "more than one parameter could give the length: " + list +
                     "; write the one that does, or their product for a flattened array"};
  };
  // Candidates: parameters named after the pointer (nx, x_len) or with a length-like name
  // (n, size, npoints), in parameter order. `clusters` next to `nclusters` and `nfeatures`
  // may hold nclusters*nfeatures elements: a name alone decides only when it is the one.
  std::vector<size_t> named_after, candidates;
  for (size_t i : integers) {
    const bool named = names_length_of(names[i], pointer);
    if (named) named_after.push_back(i);
    if (named || is_generic_length(names[i])) candidates.push_back(i);
  }
  if (named_after.size() == 1 && candidates.size() == 1) {
    return {names[named_after[0]], "the length parameter named after '" + pointer + "'"};
  }
  if (is_row_pointer(pointer)) {
    for (size_t i : integers) {
      if (is_in(lower(names[i]), {"nrows", "num_rows", "n_rows", "rows", "nrow"})) {
        return {names[i] + "+1", "CSR row offsets: one more than the row count"};
      }
    }
  }
  if (is_nonzero_array(pointer)) {
    for (size_t i : integers) {
      if (lower(names[i]) == "nnz")
        return {names[i], "CSR values / column indices: one per nonzero"};
    }
  }
  if (candidates.size() == 1 && !strided && named_like_matrix(pointer)) {
    const std::string& n = names[candidates[0]];
    return {kNumElementsPlaceholder, "'" + pointer + "' is named like a matrix: flattened, it " +
                                         "holds rows*cols elements (" + n + "*" + n +
                                         " for a square one), not " + n + "; write the length"};
  }
  if (candidates.size() == 1) {
    return {names[candidates[0]], "the only integer parameter with a length-like name"};
  }
  if (candidates.size() > 1) return undecided(candidates);
  return {kNumElementsPlaceholder, "no integer parameter's name gives the length: write it here"};
}

}  // namespace

Guess infer_num_elements(const std::vector<scan::ScannedParam>& params,
                         const std::vector<std::string>& names, size_t index) {
  const std::string& pointer = names[index];
  if (!params[index].array_size.empty()) {
    return {params[index].array_size, "declared as an array of " + params[index].array_size};
  }
  std::vector<size_t> integers;
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].shape == scan::ParamShape::Value && params[i].integer) integers.push_back(i);
  }
  // The stride is no length: left out of the candidates, it decides the length's form.
  const size_t inc = stride_of(names, integers, pointer);
  if (inc != std::string::npos) integers.erase(std::find(integers.begin(), integers.end(), inc));
  const Guess count = infer_count(names, integers, pointer, inc != std::string::npos);
  if (inc == std::string::npos) return count;
  if (is_parameter_name(count.value)) return strided(count, names[inc], pointer);
  return {count.value, count.why + "; '" + pointer + "' is read with stride '" + names[inc] +
                           "': for n elements write " + strided_length("n", names[inc])};
}

std::vector<std::string> parameter_names(const std::vector<scan::ScannedParam>& params) {
  std::set<std::string> taken;
  for (const scan::ScannedParam& p : params) taken.insert(p.name);
  std::vector<std::string> names;
  for (size_t i = 0; i < params.size(); ++i) {
    std::string name = params[i].name;
    if (name.empty()) {
      name = "arg" + std::to_string(i + 1);
      while (taken.count(name) > 0) name += "_";
      taken.insert(name);
    }
    names.push_back(name);
  }
  return names;
}

}  // namespace peppher::skeleton
