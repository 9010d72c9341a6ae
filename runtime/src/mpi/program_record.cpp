// ProgramRecord (program_record.h): the entries of one rank's record, their comparison
// between the ranks (a collective), and the description of the first difference.
#include "mpi/program_record.h"

#include <algorithm>
#include <utility>

#include "peppher/error.h"

namespace peppher::mpi {
namespace {

std::string shape_text(const detail::Shape& shape) {
  switch (shape.layout) {
    case detail::Layout::Vector:
      return "Vector of " + std::to_string(shape.nx) + " elements";
    case detail::Layout::Matrix:
      return "Matrix of " + std::to_string(shape.ny) + " x " + std::to_string(shape.nx);
    case detail::Layout::Variable:
      break;
  }
  return "Scalar";
}

// "rank 2", "ranks 1 and 3", "ranks 1, 2 and 3".
std::string ranks_text(const std::vector<int>& ranks) {
  std::string text = ranks.size() == 1 ? "rank " : "ranks ";
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (i > 0) text += i + 1 == ranks.size() ? " and " : ", ";
    text += std::to_string(ranks[i]);
  }
  return text;
}

}  // namespace

void ProgramRecord::start() {
  entries_.clear();
  current_ = nullptr;
  count_ = 0;
  pending_ = kSeed;
  calls_ = 0;
  done_ = false;
  diverged_.clear();
}

void ProgramRecord::call(const detail::Call& call) {
  Entry& e = add(Entry::Kind::Call);
  e.calls = ++calls_;
  e.iface = call.iface();
  e.hash = fold(e.hash, call.iface());
  for (const detail::Operand& op : call.operands()) {
    Operand noted;
    e.hash = fold(fold(e.hash, static_cast<std::uint64_t>(op.index)),
                  static_cast<std::uint64_t>(op.kind));
    if (op.container != nullptr) {
      noted.serial = op.container->serial();
      noted.shape = op.container->shape();
      e.hash = fold(fold(fold(e.hash, noted.serial), noted.shape.nx), noted.shape.ny);
      e.hash = fold(e.hash, noted.shape.elem_size);
    } else {
      noted.bytes = op.handle != nullptr ? starpu_data_get_size(op.handle) : 0;
    }
    e.operands.push_back(noted);
  }
}

void ProgramRecord::created(const detail::Storage& s) {
  Entry& e = add(Entry::Kind::Creation);
  e.calls = calls_;
  e.serial = s.serial();
  e.shape = s.shape();
  e.hash = fold(
      fold(fold(fold(e.hash, e.serial), static_cast<std::uint64_t>(e.shape.layout)), e.shape.nx),
      e.shape.ny);
}

void ProgramRecord::note(std::uint64_t v) {
  if (current_ == nullptr)
    pending_ = fold(pending_, v);
  else
    current_->hash = fold(current_->hash, v);
}

void ProgramRecord::compare(MPI_Comm comm, int nranks, detail::SyncPoint what, std::uint64_t serial,
                            std::size_t block) {
  if (!diverged_.empty()) throw Error(diverged_);
  if (done_) return;  // after the shutdown's comparison: nothing more to compare
  Entry& e = add(Entry::Kind::Sync);
  e.sync = what;
  e.serial = serial;
  e.block = block;
  e.calls = calls_;
  e.hash = fold(fold(fold(e.hash, static_cast<std::uint64_t>(what)), serial), block);
  merge_overflow();
  std::uint64_t summary = fold(kSeed, count_);
  for (const Entry& entry : entries_) summary = fold(summary, entry.hash);
  const std::uint64_t mine[2] = {count_, summary};
  std::vector<std::uint64_t> all(2 * static_cast<std::size_t>(nranks));
  MPI_Allgather(mine, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, comm);
  bool same = true;
  for (int r = 1; r < nranks; ++r) same = same && all[2 * r] == all[0] && all[2 * r + 1] == all[1];
  if (same) {
    entries_.clear();
    current_ = nullptr;
    count_ = 0;
    done_ = what == detail::SyncPoint::Shutdown;
    return;
  }
  diverged_ = first_difference(comm, nranks);
  throw Error(diverged_);
}

ProgramRecord::Entry& ProgramRecord::add(Entry::Kind kind) {
  ++count_;
  merge_overflow();
  if (entries_.size() < kMaxEntries) {
    entries_.emplace_back();
    current_ = &entries_.back();
  } else {
    overflow_ = Entry{};  // folded into the last entry kept, which describes it
    current_ = &overflow_;
  }
  current_->kind = kind;
  current_->hash = fold(std::exchange(pending_, kSeed), static_cast<std::uint64_t>(kind));
  return *current_;
}

void ProgramRecord::merge_overflow() {
  if (current_ != &overflow_) return;
  entries_.back().hash = fold(entries_.back().hash, overflow_.hash);
  current_ = &entries_.back();
}

std::string ProgramRecord::after(const Entry& e) {
  return e.calls == 0 ? " before any call" : " after call " + std::to_string(e.calls);
}

std::string ProgramRecord::describe(const Entry& e) const {
  std::string text;
  switch (e.kind) {
    case Entry::Kind::Call: {
      text = "made call " + std::to_string(e.calls) + ", " + e.iface + "(";
      for (std::size_t i = 0; i < e.operands.size(); ++i) {
        const Operand& op = e.operands[i];
        text += i > 0 ? ", " : "";
        if (op.serial != 0)
          text += "container " + std::to_string(op.serial) + ": " + shape_text(op.shape);
        else
          text += op.bytes != 0 ? "an array of " + std::to_string(op.bytes) + " bytes" : "an array";
      }
      text += ")";
      break;
    }
    case Entry::Kind::Creation:
      text = "created container " + std::to_string(e.serial) + " (" + shape_text(e.shape) + ")" +
             after(e);
      break;
    case Entry::Kind::Sync:
      text = sync_text(e);
      break;
  }
  if (&e == &entries_.back() && count_ > entries_.size())
    text += " (or one of the " + std::to_string(count_ - entries_.size()) +
            " calls, creations and synchronisation points after it)";
  return text;
}

std::string ProgramRecord::sync_text(const Entry& e) {
  const std::string container = "container " + std::to_string(e.serial);
  switch (e.sync) {
    case detail::SyncPoint::HostRead:
      return "read " + container + " on the host" + after(e);
    case detail::SyncPoint::HostWrite:
      return "wrote " + container + " on the host" + after(e);
    case detail::SyncPoint::ElementRead:
      return "read an element of " + container + " (in its block " + std::to_string(e.block) +
             ") on the host" + after(e);
    case detail::SyncPoint::Resize:
      return "resized " + container + after(e);
    case detail::SyncPoint::Gather:
      return "gathered " + container + " (created distributed) for call " + std::to_string(e.calls);
    case detail::SyncPoint::Destroy:
      return "destroyed " + container + after(e);
    case detail::SyncPoint::CallEnd:
      return "waited for the tasks of call " + std::to_string(e.calls);
    case detail::SyncPoint::BytesSent:
      return "called peppher::mpi::bytes_sent()" + after(e);
    case detail::SyncPoint::Shutdown:
      break;
  }
  return "called PEPPHER_SHUTDOWN()" + after(e);
}

std::string ProgramRecord::first_difference(MPI_Comm comm, int nranks) const {
  const std::size_t n = static_cast<std::size_t>(nranks);
  std::vector<int> counts(n), displs(n);
  const int kept = static_cast<int>(entries_.size());
  MPI_Allgather(&kept, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  int total = 0;
  for (std::size_t r = 0; r < n; ++r) {
    displs[r] = total;
    total += counts[r];
  }
  std::vector<std::uint64_t> mine;
  for (const Entry& e : entries_) mine.push_back(e.hash);
  std::vector<std::uint64_t> all(static_cast<std::size_t>(total));
  MPI_Allgatherv(mine.data(), kept, MPI_UINT64_T, all.data(), counts.data(), displs.data(),
                 MPI_UINT64_T, comm);
  // Every record ends with the synchronisation point, so two records differ in an entry
  // that both have (at the latest in that last one).
  const int shortest = *std::min_element(counts.begin(), counts.end());
  int first = shortest - 1;
  for (int i = 0; i < shortest && first == shortest - 1; ++i)
    for (std::size_t r = 1; r < n; ++r)
      if (all[static_cast<std::size_t>(displs[r] + i)] != all[static_cast<std::size_t>(i)]) {
        first = i;
        break;
      }
  const std::string text = describe(entries_[static_cast<std::size_t>(first)]);
  const int length = static_cast<int>(text.size());
  std::vector<int> lengths(n), starts(n);
  MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm);
  int chars = 0;
  for (std::size_t r = 0; r < n; ++r) {
    starts[r] = chars;
    chars += lengths[r];
  }
  std::string texts(static_cast<std::size_t>(chars), '\0');
  MPI_Allgatherv(text.data(), length, MPI_CHAR, texts.data(), lengths.data(), starts.data(),
                 MPI_CHAR, comm);
  // The ranks grouped by what they did, in the order of their first rank.
  std::vector<std::pair<std::string, std::vector<int>>> groups;
  for (int r = 0; r < nranks; ++r) {
    const std::size_t at = static_cast<std::size_t>(r);
    std::string did =
        texts.substr(static_cast<std::size_t>(starts[at]), static_cast<std::size_t>(lengths[at]));
    auto it =
        std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == did; });
    if (it == groups.end())
      groups.push_back({std::move(did), {r}});
    else
      it->second.push_back(r);
  }
  std::string message =
      "the ranks' programs differ (under compose --mpi every rank makes the same component "
      "calls and creates the same containers, in the same order; containers are numbered "
      "in the order of their creation; docs/MPI.md): ";
  for (std::size_t g = 0; g < groups.size(); ++g)
    message += (g > 0 ? "; " : "") + ranks_text(groups[g].second) + " " + groups[g].first;
  if (groups.size() == 1)
    message += ", on every rank, but with other tasks or data (e.g. another split)";
  return message;
}

}  // namespace peppher::mpi
