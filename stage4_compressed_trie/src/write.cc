// Put and Delete: find the node to change, build its replacement (copy on
// write), then publish it with one pointer store while adjusting the counts
// on the path above. The caller holds the write side of the store's lock;
// in lock=node this code also takes the exclusive lock of every inner node it
// passes and keeps them all until the write ends (the counts on the whole
// path change, so no ancestor can be released early).
//
// Out of memory: only building allocates (NewNode), and everything built is
// listed in fresh_ until it is published. If an allocation throws, the
// WriteScope frees the fresh nodes, releases the locks and forgets the nodes
// that were to be replaced: the trie was never touched.

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "kvlab/stage4/ctrie_store.h"
#include "kvlab/stage4/epoch.h"
#include "kvlab/stage4/rw_spin_lock.h"
#include "node.h"
#include "node_pool.h"

namespace kvlab {

using stage4::CommonPrefix;
using stage4::FindChild;
using stage4::FindMethod;
using stage4::LoadChild;
using stage4::LoadCount;
using stage4::StoreChild;
using stage4::StoreCount;

namespace {

// handout: cut
FindMethod MethodOf(const CTrieOptions& o) {
  return o.find == CTrieOptions::Find::kSimd ? FindMethod::kSimd
                                             : FindMethod::kBinary;
}
// handout: end

void CopyBytes(char* dst, std::string_view src) {
  // memcpy must not get the null pointer an empty view may hold.
  if (!src.empty()) std::memcpy(dst, src.data(), src.size());
}

// Copies `n` children (pointer, count, branch) from src[from] to dst[to].
void CopyChildren(stage4::Node* dst, size_t to, const stage4::Node* src,
                  size_t from, size_t n) {
  const uint8_t* src_branch = stage4::BranchArray(src);
  uint8_t* dst_branch = stage4::BranchArray(dst);
  for (size_t i = 0; i < n; ++i) {
    StoreChild(dst, to + i, LoadChild(src, from + i));
    StoreCount(dst, to + i, LoadCount(src, from + i));
    dst_branch[to + i] = src_branch[from + i];
  }
}

void SetChild(stage4::Node* dst, size_t i, uint8_t branch, stage4::Node* child,
              uint32_t count) {
  StoreChild(dst, i, child);
  StoreCount(dst, i, count);
  stage4::BranchArray(dst)[i] = branch;
}

}  // namespace

// Ends every write, however it leaves: see EndWrite.
class CTrieStore::WriteScope {
 public:
  explicit WriteScope(CTrieStore* store) : store_(store) {
    store_->path_.clear();
  }
  ~WriteScope() { store_->EndWrite(published_); }
  WriteScope(const WriteScope&) = delete;
  WriteScope& operator=(const WriteScope&) = delete;

  void Publish(Node* replacement, int64_t delta) {
    store_->Publish(replacement, delta);
    published_ = true;
  }

 private:
  CTrieStore* const store_;
  bool published_ = false;
};

void* CTrieStore::AllocateNode(size_t bytes, bool align8) {
  try {
    return pool_->Allocate(bytes, align8);
  } catch (const std::bad_alloc&) {
    // Out of memory: nodes that earlier writes retired may be free by now.
    if (epochs_ == nullptr || epochs_->pending() == 0) throw;
    CollectRetired();
    return pool_->Allocate(bytes, align8);
  }
}

CTrieStore::Node* CTrieStore::NewNode(size_t children, std::string_view label,
                                      bool has_value, std::string_view value) {
  if (!has_value) value = {};
  // Only inner nodes hold 8-byte words (child pointers): leaves may sit at
  // any 4-byte boundary, which saves 2 bytes of rounding a leaf on average.
  Node* x = static_cast<Node*>(AllocateNode(
      stage4::NodeBytes(children, label.size(), value.size()), children > 0));
  assert(fresh_.size() < fresh_.capacity());  // so push_back cannot throw
  fresh_.push_back(x);
  x->meta = stage4::PackMeta(label.size(), has_value, value.size(), children);
  if (children > 0) stage4::LockWord(x).store(0, std::memory_order_relaxed);
  CopyBytes(stage4::MutableLabel(x), label);
  CopyBytes(stage4::MutableValue(x), value);
  return x;
}

CTrieStore::Node* CTrieStore::CopyWithValue(const Node* x, bool has_value,
                                            std::string_view value) {
  const size_t n = stage4::NumChildren(x);
  Node* y = NewNode(n, stage4::Label(x), has_value, value);
  CopyChildren(y, 0, x, 0, n);
  return y;
}

CTrieStore::Node* CTrieStore::CopyWithLabel(const Node* x,
                                            std::string_view label) {
  const size_t n = stage4::NumChildren(x);
  Node* y = NewNode(n, label, stage4::HasValue(x), stage4::Value(x));
  CopyChildren(y, 0, x, 0, n);
  return y;
}

CTrieStore::Node* CTrieStore::CopyWithChildInserted(const Node* x, size_t at,
                                                    uint8_t branch, Node* child,
                                                    uint32_t count) {
  const size_t n = stage4::NumChildren(x);
  Node* y =
      NewNode(n + 1, stage4::Label(x), stage4::HasValue(x), stage4::Value(x));
  CopyChildren(y, 0, x, 0, at);
  SetChild(y, at, branch, child, count);
  CopyChildren(y, at + 1, x, at, n - at);
  return y;
}

CTrieStore::Node* CTrieStore::CopyWithoutChild(const Node* x, size_t at) {
  const size_t n = stage4::NumChildren(x);
  Node* y =
      NewNode(n - 1, stage4::Label(x), stage4::HasValue(x), stage4::Value(x));
  CopyChildren(y, 0, x, 0, at);
  CopyChildren(y, at, x, at + 1, n - at - 1);
  return y;
}

// x's label, the branch byte and the child's label become one label; the
// result has the child's value and children.
CTrieStore::Node* CTrieStore::MergeWithChild(const Node* x, size_t child) {
  // handout: CTrieStore::MergeWithChild -> #split-and-merge
  const Node* c = LoadChild(x, child);
  scratch_.assign(stage4::Label(x));
  scratch_.push_back(static_cast<char>(stage4::BranchArray(x)[child]));
  scratch_.append(stage4::Label(c));
  const size_t n = stage4::NumChildren(c);
  Node* y = NewNode(n, scratch_, stage4::HasValue(c), stage4::Value(c));
  CopyChildren(y, 0, c, 0, n);
  return y;
  // handout: end
}

// Builds what replaces `x` (holding `x_count` keys, label L) when the key's
// remaining bytes `rest` share only `common` bytes with L, or (suffix mode)
// when x is a labelled leaf and the key runs past it. The branching node E
// holds the part of L both share (full mode) or nothing (suffix mode, where
// the shared bytes become a chain of one-byte nodes above E, as the report's
// first trie did); below E hang x with the rest of its label and a new leaf
// with the rest of the key, or E holds the value itself.
CTrieStore::Node* CTrieStore::BuildSplit(Node* x, uint32_t x_count,
                                         size_t common, std::string_view rest,
                                         std::string_view value) {
  // handout: CTrieStore::BuildSplit -> #split-and-merge
  const std::string_view label = stage4::Label(x);
  const bool suffix = options_.compress == CTrieOptions::Compress::kSuffix;
  struct Child {
    uint8_t branch;
    Node* node;
    uint32_t count;
  } children[2];
  size_t n = 0;
  bool e_has_value = false;
  std::string_view e_value;
  if (common < label.size()) {
    children[n++] = {static_cast<uint8_t>(label[common]),
                     CopyWithLabel(x, label.substr(common + 1)), x_count};
  } else {  // suffix mode only: x is a leaf whose label the key runs past
    e_has_value = stage4::HasValue(x);
    e_value = stage4::Value(x);
  }
  if (common < rest.size()) {
    children[n++] = {static_cast<uint8_t>(rest[common]),
                     NewNode(0, rest.substr(common + 1), true, value), 1};
  } else {
    e_has_value = true;
    e_value = value;
  }
  if (n == 2 && children[0].branch > children[1].branch) {
    std::swap(children[0], children[1]);
  }
  Node* e = NewNode(n, suffix ? std::string_view() : label.substr(0, common),
                    e_has_value, e_value);
  for (size_t i = 0; i < n; ++i) {
    SetChild(e, i, children[i].branch, children[i].node, children[i].count);
  }
  if (suffix) {
    for (size_t j = common; j-- > 0;) {
      Node* chain = NewNode(1, {}, false, {});
      SetChild(chain, 0, static_cast<uint8_t>(label[j]), e, x_count + 1);
      e = chain;
    }
  }
  return e;
  // handout: end
}

// The key count of the node at `depth` on path_ (0 = the root).
uint32_t CTrieStore::CountOf(size_t depth) const {
  if (depth == 0) return static_cast<uint32_t>(size_.load());
  const PathStep& step = path_[depth - 1];
  return LoadCount(step.node, step.child);
}

void CTrieStore::WriteLock(Node* x) {
  if (options_.lock != CTrieOptions::Lock::kNode) return;
  if (stage4::NumChildren(x) == 0) return;  // leaves are guarded by parents
  stage4::LockExclusive(stage4::LockWord(x));
  write_locked_.push_back(x);
}

// Publishes `replacement` in place of the node at depth path_.size() and adds
// `delta` to every count above it. Under lock=rcu the sequence counter is odd
// meanwhile, so an optimistic GetNth that overlaps retries.
void CTrieStore::Replace(Node* replacement, int64_t delta) {
  const uint64_t size = size_.load(std::memory_order_relaxed);
  if (delta > 0 && size >= UINT32_MAX) std::abort();  // counts are 32-bit
  const bool rcu = options_.lock == CTrieOptions::Lock::kRcu;
  // Only the writer changes the sequence, so plain stores do, not locked
  // read-modify-writes. The odd store may even be relaxed: every count store
  // below is a release sequenced after it, so a GetNth that acquire-loads a
  // new count also sees the odd sequence when it checks again.
  const uint64_t sequence = sequence_.load(std::memory_order_relaxed);
  if (rcu) sequence_.store(sequence + 1, std::memory_order_relaxed);
  for (const PathStep& step : path_) {
    StoreCount(step.node, step.child,
               static_cast<uint32_t>(LoadCount(step.node, step.child) + delta));
  }
  if (path_.empty()) {
    root_.store(replacement, std::memory_order_release);
  } else {
    StoreChild(path_.back().node, path_.back().child, replacement);
  }
  size_.store(size + delta, std::memory_order_release);
  if (rcu) sequence_.store(sequence + 2, std::memory_order_release);
}

// The commit point. Everything that can fail comes before Replace: under
// rcu, room in the reclaimer's list for the nodes this write replaces.
void CTrieStore::Publish(Node* replacement, int64_t delta) {
  if (epochs_ != nullptr) {
    try {
      epochs_->Reserve(retired_.size());
    } catch (const std::bad_alloc&) {
      CollectRetired();  // what it frees makes room in the list
      epochs_->Reserve(retired_.size());
    }
  }
  Replace(replacement, delta);
  fresh_.clear();  // reachable now
}

// Releases lock=node locks. Then, for a published write, frees (or, under
// rcu, retires) the nodes it replaced: no reader can reach them any more,
// and under rcu one that reached them earlier may still be reading, so the
// epochs decide when. For a write that ends unpublished, frees the nodes it
// built: nobody ever saw them. Allocates nothing.
void CTrieStore::EndWrite(bool published) {
  for (Node* x : write_locked_) stage4::UnlockExclusive(stage4::LockWord(x));
  write_locked_.clear();
  for (Node* x : fresh_) FreeNode(x, stage4::NodeBytes(x));
  fresh_.clear();
  if (!published) {
    retired_.clear();
    return;
  }
  for (Node* x : retired_) {
    if (epochs_ != nullptr) {
      epochs_->Retire(x, stage4::NodeBytes(x));
    } else {
      FreeNode(x, stage4::NodeBytes(x));
    }
  }
  retired_.clear();
  // An emptied store gives back all the memory it can at once; otherwise
  // retired nodes are freed in batches.
  const bool emptied = size_.load(std::memory_order_relaxed) == 0;
  if (epochs_ != nullptr &&
      (emptied || epochs_->pending() >= kRetiredPerCollect)) {
    CollectRetired();
  }
  if (emptied) pool_->ReleaseEmptySlabs();
}

void CTrieStore::CollectRetired() {
  epochs_->Collect([this](void* p, size_t bytes) { FreeNode(p, bytes); });
}

void CTrieStore::Discard(Node* x) {
  fresh_.erase(std::find(fresh_.begin(), fresh_.end(), x));
  FreeNode(x, stage4::NodeBytes(x));
}

void CTrieStore::FreeNode(void* x, size_t bytes) { pool_->Free(x, bytes); }

bool CTrieStore::PutLocked(std::string_view key, std::string_view value) {
  // handout: CTrieStore::PutLocked -> #split-and-merge
  const bool suffix = options_.compress == CTrieOptions::Compress::kSuffix;
  WriteScope write(this);
  Node* x = root_.load(std::memory_order_relaxed);
  WriteLock(x);
  size_t pos = 0;
  Node* replacement;
  bool replaced = false;
  for (;;) {
    const std::string_view label = stage4::Label(x);
    const std::string_view rest = key.substr(pos);
    const size_t common = CommonPrefix(label, rest);
    const bool split =
        suffix ? !label.empty() && rest != label : common < label.size();
    if (split) {
      replacement = BuildSplit(x, CountOf(path_.size()), common, rest, value);
      break;
    }
    pos += label.size();
    if (pos == key.size()) {
      replaced = stage4::HasValue(x);
      replacement = CopyWithValue(x, true, value);
      break;
    }
    const auto b = static_cast<uint8_t>(key[pos]);
    const int i = FindChild(x, b, MethodOf(options_));
    if (i < 0) {
      Node* leaf = NewNode(0, key.substr(pos + 1), true, value);
      replacement =
          CopyWithChildInserted(x, stage4::LowerBoundChild(x, b), b, leaf, 1);
      break;
    }
    path_.push_back({x, static_cast<size_t>(i)});
    x = LoadChild(x, i);
    ++pos;
    WriteLock(x);
  }
  retired_.push_back(x);
  write.Publish(replacement, replaced ? 0 : 1);
  return replaced;
  // handout: end
}

bool CTrieStore::DeleteLocked(std::string_view key) {
  // handout: CTrieStore::DeleteLocked -> #split-and-merge
  const bool full = options_.compress == CTrieOptions::Compress::kFull;
  WriteScope write(this);
  Node* x = root_.load(std::memory_order_relaxed);
  WriteLock(x);
  size_t pos = 0;
  for (;;) {
    const std::string_view label = stage4::Label(x);
    if (key.size() - pos < label.size() ||
        key.substr(pos, label.size()) != label) {
      return false;
    }
    pos += label.size();
    if (pos == key.size()) break;
    const int i =
        FindChild(x, static_cast<uint8_t>(key[pos]), MethodOf(options_));
    if (i < 0) break;
    path_.push_back({x, static_cast<size_t>(i)});
    x = LoadChild(x, i);
    ++pos;
    WriteLock(x);
  }
  if (pos != key.size() || !stage4::HasValue(x)) return false;

  Node* replacement;
  if (stage4::NumChildren(x) > 0 || path_.empty()) {
    // x keeps its children and loses its value. A non-root node left with
    // one child and no value folds into that child (full), or, in suffix
    // mode, once only one key is left below it.
    const bool is_root = path_.empty();
    const uint32_t new_count = is_root ? 0 : CountOf(path_.size()) - 1;
    const bool merge =
        !is_root && stage4::NumChildren(x) == 1 && (full || new_count == 1);
    if (merge) {
      Node* c = LoadChild(x, 0);
      WriteLock(c);
      replacement = MergeWithChild(x, 0);
      retired_.push_back(c);
    } else {
      replacement = CopyWithValue(x, false, {});
    }
    retired_.push_back(x);
  } else {
    // x is a leaf: its parent p loses the child, and folds into its other
    // child if that leaves it a valueless one-child node.
    const PathStep parent = path_.back();
    path_.pop_back();
    Node* p = parent.node;
    const bool p_is_root = path_.empty();
    const uint32_t p_new_count = p_is_root ? 0 : CountOf(path_.size()) - 1;
    const bool merge = !p_is_root && !stage4::HasValue(p) &&
                       stage4::NumChildren(p) == 2 &&
                       (full || p_new_count == 1);
    if (merge) {
      const size_t other = 1 - parent.child;
      Node* c = LoadChild(p, other);
      WriteLock(c);
      replacement = MergeWithChild(p, other);
      retired_.push_back(c);
    } else {
      replacement = CopyWithoutChild(p, parent.child);
    }
    retired_.push_back(x);
    retired_.push_back(p);
  }

  // Suffix mode: a chain of valueless one-child nodes above a subtree that
  // now holds one key folds into that key's leaf, level by level.
  while (!full && path_.size() >= 2) {
    Node* q = path_.back().node;
    const uint32_t q_new_count = CountOf(path_.size() - 1) - 1;
    if (stage4::HasValue(q) || stage4::NumChildren(q) != 1 ||
        q_new_count != 1) {
      break;
    }
    scratch_.assign(stage4::Label(q));
    scratch_.push_back(static_cast<char>(stage4::BranchArray(q)[0]));
    scratch_.append(stage4::Label(replacement));
    Node* merged = NewNode(0, scratch_, true, stage4::Value(replacement));
    Discard(replacement);
    replacement = merged;
    retired_.push_back(q);
    path_.pop_back();
  }

  write.Publish(replacement, -1);
  return true;
  // handout: end
}

}  // namespace kvlab
