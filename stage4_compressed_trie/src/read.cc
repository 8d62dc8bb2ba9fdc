// Get, GetNth and Scan walks. They read node contents directly: under
// lock=rcu the content of a published node never changes (copy on write) and
// the epoch section keeps it allocated; under the other modes the caller's
// lock excludes writers. With `couple` (lock=node) the walks take each inner
// node's shared lock before releasing its parent's, and read a leaf while
// still holding its parent's.

#include <cstring>

#include "kvlab/stage4/ctrie_store.h"
#include "kvlab/stage4/rw_spin_lock.h"
#include "node.h"

namespace kvlab {

using stage4::LoadChild;
using stage4::LoadCount;

namespace {

// Shared lock coupling for lock=node: `held` is the one lock we hold.
class Coupler {
 public:
  Coupler(bool active, uint32_t* root_lock)
      : active_(active), held_(root_lock) {
    if (active_) stage4::LockShared(std::atomic_ref<uint32_t>(*held_));
  }
  ~Coupler() {
    if (active_) stage4::UnlockShared(std::atomic_ref<uint32_t>(*held_));
  }
  Coupler(const Coupler&) = delete;
  Coupler& operator=(const Coupler&) = delete;

  // Called on arriving at `x`: an inner node gets its own lock, taken before
  // the parent's is released; a leaf is read under the parent's lock.
  void Enter(const stage4::Node* x) {
    if (!active_ || stage4::NumChildren(x) == 0) return;
    uint32_t* next =
        reinterpret_cast<uint32_t*>(const_cast<char*>(stage4::Bytes(x)) + 4);
    stage4::LockShared(std::atomic_ref<uint32_t>(*next));
    stage4::UnlockShared(std::atomic_ref<uint32_t>(*held_));
    held_ = next;
  }

 private:
  const bool active_;
  uint32_t* held_;  // the lock word we hold (shared)
};

}  // namespace

bool CTrieStore::FindWalk(std::string_view key, std::string* value,
                          bool couple) const {
  const stage4::FindMethod method = options_.find == CTrieOptions::Find::kSimd
                                        ? stage4::FindMethod::kSimd
                                        : stage4::FindMethod::kBinary;
  Coupler coupler(couple, &root_lock_);
  const Node* x = root_.load(std::memory_order_acquire);
  coupler.Enter(x);
  size_t pos = 0;
  for (;;) {
    const std::string_view label = stage4::Label(x);
    if (key.size() - pos < label.size()) return false;
    if (!label.empty() &&
        std::memcmp(key.data() + pos, label.data(), label.size()) != 0) {
      return false;
    }
    pos += label.size();
    if (pos == key.size()) {
      if (!stage4::HasValue(x)) return false;
      if (value != nullptr) value->assign(stage4::Value(x));
      return true;
    }
    const int i = stage4::FindChild(x, static_cast<uint8_t>(key[pos]), method);
    if (i < 0) return false;
    x = LoadChild(x, i);
    coupler.Enter(x);
    ++pos;
  }
}

// Descends by counts: at each node its own value comes first, then each
// child's subtree in branch order. Under lock=rcu the counts may be changing
// (the caller validates the sequence afterwards), so running out of children
// is reported, not assumed impossible.
CTrieStore::NthResult CTrieStore::NthWalk(uint64_t n, std::string* key,
                                          std::string* value,
                                          bool couple) const {
  Coupler coupler(couple, &root_lock_);
  if (n >= size_.load(std::memory_order_acquire)) return NthResult::kOutOfRange;
  const Node* x = root_.load(std::memory_order_acquire);
  coupler.Enter(x);
  if (key != nullptr) key->clear();
  for (;;) {
    if (key != nullptr) key->append(stage4::Label(x));
    if (stage4::HasValue(x)) {
      if (n == 0) {
        if (value != nullptr) value->assign(stage4::Value(x));
        return NthResult::kFound;
      }
      --n;
    }
    const size_t children = stage4::NumChildren(x);
    size_t i = 0;
    for (; i < children; ++i) {
      const uint32_t count = LoadCount(x, i);
      if (n < count) break;
      n -= count;
    }
    if (i == children) return NthResult::kInconsistent;
    if (key != nullptr) {
      key->push_back(static_cast<char>(stage4::BranchArray(x)[i]));
    }
    x = LoadChild(x, i);
    coupler.Enter(x);
  }
}

// Visits x's subtree in key order. `prefix` holds the key bytes above x's
// label. While `bounded`, start's first prefix->size() bytes equal *prefix,
// so keys below may still be < start and are compared as we go.
bool CTrieStore::ScanNode(const Node* x, std::string* prefix,
                          std::string_view start, bool bounded,
                          ScanVisitor visitor, uint64_t* visited) const {
  const size_t base = prefix->size();
  const std::string_view label = stage4::Label(x);
  bool visit_value = true;
  if (bounded) {
    const std::string_view rest = start.substr(base);
    const size_t common = stage4::CommonPrefix(label, rest);
    if (common == rest.size()) {
      bounded = false;  // start ends here or inside the label: all keys >= it
    } else if (common < label.size()) {
      if (static_cast<uint8_t>(label[common]) <
          static_cast<uint8_t>(rest[common])) {
        return true;  // the whole subtree sorts before start
      }
      bounded = false;
    } else {
      visit_value = false;  // x's own key is a proper prefix of start
    }
  }
  prefix->append(label);
  if (visit_value && stage4::HasValue(x)) {
    ++*visited;
    if (!visitor(*prefix, stage4::Value(x))) return false;
  }
  const size_t children = stage4::NumChildren(x);
  const uint8_t* branch = stage4::BranchArray(x);
  for (size_t i = 0; i < children; ++i) {
    bool child_bounded = false;
    if (bounded) {
      const auto want = static_cast<uint8_t>(start[prefix->size()]);
      if (branch[i] < want) continue;
      child_bounded = branch[i] == want;
    }
    prefix->push_back(static_cast<char>(branch[i]));
    if (!ScanNode(LoadChild(x, i), prefix, start, child_bounded, visitor,
                  visited)) {
      return false;
    }
    prefix->pop_back();
  }
  prefix->resize(base);
  return true;
}

}  // namespace kvlab
