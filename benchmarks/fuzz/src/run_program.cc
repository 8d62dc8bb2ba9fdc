#include "kvlab/fuzz/run_program.h"

#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "kvlab/string_view_compat.h"

namespace kvlab::fuzz {
namespace {

using Model = std::map<std::string, std::string>;

class Runner {
 public:
  Runner(KVStore* store, const RunOptions& options)
      : store_(*store), options_(options) {}

  absl::Status Run(const Program& program) {
    if (store_.Size() != 0) {
      return absl::FailedPreconditionError("the store must start empty");
    }
    for (size_t i = 0; i < program.ops.size(); ++i) {
      const Op& op = program.ops[i];
      std::string error = Apply(op);
      if (error.empty() && store_.Size() != model_.size()) {
        error = absl::StrCat("Size() ", store_.Size(), ", expected ",
                             model_.size());
      }
      const bool check = op.kind == Op::Kind::kCheck ||
                         (i + 1) % options_.check_every == 0 ||
                         i + 1 == program.ops.size();
      if (error.empty() && check) error = FullCheck();
      if (!error.empty()) {
        return absl::InternalError(
            absl::StrCat("op #", i, " ", ToString(op), ": ", error));
      }
    }
    if (program.ops.empty()) {
      std::string error = FullCheck();
      if (!error.empty()) return absl::InternalError(error);
    }
    return absl::OkStatus();
  }

 private:
  bool Accepts(const Op& op) const {
    return ValidateKeyValue(op.key, op.value).ok() &&
           store_.ValidateKey(op.key).ok();
  }

  // What differs after `op`, or "".
  std::string Apply(const Op& op) {
    switch (op.kind) {
      case Op::Kind::kPut:
        return Put(op);
      case Op::Kind::kGet:
        return Get(op.key);
      case Op::Kind::kDelete: {
        const bool deleted = store_.Delete(op.key);
        if (deleted != (model_.erase(op.key) == 1)) {
          return absl::StrCat("returned ", deleted);
        }
        return "";
      }
      case Op::Kind::kGetNth:
        return GetNth(op.index);
      case Op::Kind::kDeleteNth:
        return DeleteNth(op.index);
      case Op::Kind::kScan:
        return Scan(op.key, op.limit);
      case Op::Kind::kSize:
      case Op::Kind::kCheck:
        return "";  // both checked after every operation
    }
    return "unknown operation";
  }

  std::string Put(const Op& op) {
    const absl::StatusOr<bool> replaced = store_.Put(op.key, op.value);
    if (!Accepts(op)) {
      if (replaced.ok()) return "accepted a key or value it must refuse";
      if (!absl::IsInvalidArgument(replaced.status())) {
        return absl::StrCat("refused with ", replaced.status().ToString(),
                            ", expected InvalidArgument");
      }
      // Unchanged: the size is checked by the caller, the key's value here.
      return op.key.size() <= kMaxKeySize ? Get(op.key) : "";
    }
    if (!replaced.ok()) {
      return absl::StrCat("refused: ", replaced.status().ToString());
    }
    const bool existed = !model_.insert_or_assign(op.key, op.value).second;
    if (*replaced != existed) {
      return absl::StrCat("returned replaced=", *replaced, ", expected ",
                          existed);
    }
    return "";
  }

  std::string Get(const std::string& key) const {
    std::string value = "untouched";
    const bool found = store_.Get(key, &value);
    auto it = model_.find(key);
    if (found != (it != model_.end())) {
      return absl::StrCat("Get(", ShowBytes(key), ") found=", found,
                          ", expected ", !found);
    }
    if (!found && value != "untouched") {
      return absl::StrCat("Get(", ShowBytes(key),
                          ") of an absent key wrote the value");
    }
    if (found && value != it->second) {
      return absl::StrCat("Get(", ShowBytes(key), ") value ", ShowBytes(value),
                          ", expected ", ShowBytes(it->second));
    }
    return "";
  }

  std::string GetNth(uint64_t n) const {
    std::string key = "untouched", value = "untouched";
    const bool found = store_.GetNth(n, &key, &value);
    const bool expected = options_.ordered && n < model_.size();
    if (found != expected) {
      return absl::StrCat("returned ", found, ", expected ", expected);
    }
    if (!found) return "";
    auto it = std::next(model_.begin(), static_cast<ptrdiff_t>(n));
    if (key != it->first || value != it->second) {
      return absl::StrCat("gave ", ShowBytes(key), " = ", ShowBytes(value),
                          ", expected ", ShowBytes(it->first), " = ",
                          ShowBytes(it->second));
    }
    return "";
  }

  std::string DeleteNth(uint64_t n) {
    const bool deleted = store_.DeleteNth(n);
    const bool expected = options_.ordered && n < model_.size();
    if (deleted != expected) {
      return absl::StrCat("returned ", deleted, ", expected ", expected);
    }
    if (!deleted) return "";
    auto it = std::next(model_.begin(), static_cast<ptrdiff_t>(n));
    const std::string key = it->first;
    model_.erase(it);
    if (store_.Get(key, nullptr)) {
      return absl::StrCat("left ", ShowBytes(key), ", its n-th key");
    }
    return "";
  }

  std::string Scan(const std::string& start, uint64_t limit) const {
    std::vector<std::pair<std::string, std::string>> seen;
    const uint64_t visited =
        store_.Scan(start, [&](std::string_view k, std::string_view v) {
          seen.emplace_back(k, v);
          return limit == 0 || seen.size() < limit;
        });
    if (visited != seen.size()) {
      return absl::StrCat("returned ", visited, " after ", seen.size(),
                          " visits");
    }
    if (!options_.ordered) {
      return visited == 0 ? "" : "an unordered store's Scan visited pairs";
    }
    auto it = model_.lower_bound(start);
    for (size_t i = 0; i < seen.size(); ++i, ++it) {
      if (it == model_.end()) {
        return absl::StrCat("visit ", i, " gave ", ShowBytes(seen[i].first),
                            " past the last key");
      }
      if (seen[i].first != it->first || seen[i].second != it->second) {
        return absl::StrCat("visit ", i, " gave ", ShowBytes(seen[i].first),
                            " = ", ShowBytes(seen[i].second), ", expected ",
                            ShowBytes(it->first), " = ", ShowBytes(it->second));
      }
    }
    if (it != model_.end() && (limit == 0 || seen.size() < limit)) {
      return absl::StrCat("stopped after ", seen.size(), " visits before ",
                          ShowBytes(it->first));
    }
    return "";
  }

  // The store's invariants and its whole content against the model, or "".
  std::string FullCheck() const {
    const absl::Status invariants = store_.CheckInvariants();
    if (!invariants.ok()) {
      return absl::StrCat("CheckInvariants: ", invariants.ToString());
    }
    if (!options_.ordered) {
      for (const auto& [key, value] : model_) {
        std::string error = Get(key);
        if (!error.empty()) return absl::StrCat("full check: ", error);
      }
      return "";
    }
    std::string error = Scan("", 0);
    if (!error.empty()) return absl::StrCat("full check: Scan(\"\"): ", error);
    return "";
  }

  KVStore& store_;
  const RunOptions options_;
  Model model_;
};

}  // namespace

absl::Status RunProgram(const Program& program, KVStore* store,
                        const RunOptions& options) {
  return Runner(store, options).Run(program);
}

}  // namespace kvlab::fuzz
