// CTrieStore: options, lifetime, and which lock each operation takes.

#include "kvlab/stage4/ctrie_store.h"

#include <utility>

#include "kvlab/stage4/epoch.h"
#include "kvlab/stage4/rw_spin_lock.h"
#include "node.h"
#include "node_pool.h"
#include "with_write_lock.h"

namespace kvlab {

using Lock = CTrieOptions::Lock;

absl::StatusOr<CTrieOptions> CTrieOptions::FromStoreOptions(
    const StoreOptions& options) {
  CTrieOptions o;
  absl::StatusOr<std::string> compress =
      options.GetChoice("compress", "full", {"full", "suffix"});
  if (!compress.ok()) return compress.status();
  o.compress = *compress == "full" ? Compress::kFull : Compress::kSuffix;
  absl::StatusOr<std::string> alloc =
      options.GetChoice("alloc", "pool", {"pool", "malloc"});
  if (!alloc.ok()) return alloc.status();
  o.alloc = *alloc == "pool" ? Alloc::kPool : Alloc::kMalloc;
  absl::StatusOr<std::string> lock =
      options.GetChoice("lock", "rcu", {"rcu", "global", "node", "none"});
  if (!lock.ok()) return lock.status();
  o.lock = *lock == "rcu"      ? Lock::kRcu
           : *lock == "global" ? Lock::kGlobal
           : *lock == "node"   ? Lock::kNode
                               : Lock::kNone;
  absl::StatusOr<std::string> find =
      options.GetChoice("find", "simd", {"simd", "binary"});
  if (!find.ok()) return find.status();
  o.find = *find == "simd" ? Find::kSimd : Find::kBinary;
  return o;
}

CTrieStore::CTrieStore(const CTrieOptions& options)
    : options_(options),
      pool_(std::make_unique<stage4::NodePool>(
          stage4::kMaxNodeBytes, options.alloc == CTrieOptions::Alloc::kPool)) {
  if (options_.lock == Lock::kRcu) {
    epochs_ = std::make_unique<stage4::EpochReclaimer>();
    // Room for a full batch and one more write: while readers let batches
    // go, the list never grows.
    epochs_->Reserve(kRetiredPerCollect + kMaxNodesPerWrite);
  }
  path_.reserve(kMaxNodesPerWrite);
  write_locked_.reserve(kMaxNodesPerWrite);
  fresh_.reserve(kMaxNodesPerWrite);
  retired_.reserve(kMaxNodesPerWrite);
  scratch_.reserve(kMaxKeySize);
  nth_key_.reserve(kMaxKeySize);
  root_.store(NewNode(0, {}, false, {}));
  fresh_.clear();  // the root is published
}

CTrieStore::~CTrieStore() {
  auto free_fn = [this](void* p, size_t bytes) { FreeNode(p, bytes); };
  if (epochs_ != nullptr) epochs_->FreeAll(free_fn);
  if (pool_->uses_slabs()) return;  // the slabs go with the pool
  // malloc mode: free node by node, with an explicit stack.
  std::vector<Node*> stack = {root_.load()};
  while (!stack.empty()) {
    Node* x = stack.back();
    stack.pop_back();
    for (size_t i = 0; i < stage4::NumChildren(x); ++i) {
      stack.push_back(stage4::LoadChild(x, i));
    }
    FreeNode(x, stage4::NodeBytes(x));
  }
}

bool CTrieStore::PutImpl(std::string_view key, std::string_view value) {
  return WithWriteLock([&] { return PutLocked(key, value); });
}

bool CTrieStore::DeleteImpl(std::string_view key) {
  return WithWriteLock([&] { return DeleteLocked(key); });
}

bool CTrieStore::DeleteNth(uint64_t n) {
  return WithWriteLock([&] {
    // Writers are excluded, so the counts are exact and nobody changes
    // them; lock=node readers hold only shared locks. The key goes into a
    // buffer reserved for the longest key: no allocation.
    if (NthWalk(n, &nth_key_, nullptr, false) != NthResult::kFound) {
      return false;
    }
    return DeleteLocked(nth_key_);
  });
}

bool CTrieStore::GetImpl(std::string_view key, std::string* value) const {
  switch (options_.lock) {
    case Lock::kGlobal: {
      std::shared_lock<std::shared_mutex> lock(global_mutex_);
      return FindWalk(key, value, false);
    }
    case Lock::kNode:
      return FindWalk(key, value, true);
    case Lock::kRcu: {
      stage4::EpochReclaimer::Guard guard(epochs_.get());
      return FindWalk(key, value, false);
    }
    case Lock::kNone:
      break;
  }
  return FindWalk(key, value, false);
}

bool CTrieStore::GetNth(uint64_t n, std::string* key,
                        std::string* value) const {
  switch (options_.lock) {
    case Lock::kGlobal: {
      std::shared_lock<std::shared_mutex> lock(global_mutex_);
      return NthWalk(n, key, value, false) == NthResult::kFound;
    }
    case Lock::kNode:
      return NthWalk(n, key, value, true) == NthResult::kFound;
    case Lock::kRcu: {
      // Optimistic: walk without locks, keep the answer only if no write
      // changed any count meanwhile (the sequence is even and unchanged).
      // Writes are short, so a retry or two usually suffices; after that
      // the writers' mutex guarantees progress.
      for (int attempt = 0; attempt < 4; ++attempt) {
        stage4::EpochReclaimer::Guard guard(epochs_.get());
        uint64_t before = sequence_.load(std::memory_order_acquire);
        // Odd: the writer is inside Replace, a few dozen stores long. Spin
        // it out here (yielding only if it was descheduled) instead of
        // spending an attempt, or a system call, on it.
        for (int spins = 0; (before & 1) != 0;
             before = sequence_.load(std::memory_order_acquire)) {
          stage4::LockBackoff(&spins);
        }
        const NthResult result = NthWalk(n, key, value, false);
        if (sequence_.load(std::memory_order_acquire) == before) {
          return result == NthResult::kFound;
        }
      }
      std::lock_guard<std::mutex> lock(writer_mutex_);
      return NthWalk(n, key, value, false) == NthResult::kFound;
    }
    case Lock::kNone:
      break;
  }
  return NthWalk(n, key, value, false) == NthResult::kFound;
}

uint64_t CTrieStore::Scan(std::string_view start, ScanVisitor visitor) const {
  uint64_t visited = 0;
  std::string prefix;
  auto scan = [&] {
    ScanNode(root_.load(std::memory_order_acquire), &prefix, start, true,
             visitor, &visited);
  };
  switch (options_.lock) {
    case Lock::kGlobal: {
      std::shared_lock<std::shared_mutex> lock(global_mutex_);
      scan();
      break;
    }
    case Lock::kNode: {
      // Holding the root's lock shared keeps every writer out (each needs
      // it exclusively), so the whole walk sees one state.
      stage4::SharedLock lock(&root_lock_);
      scan();
      break;
    }
    case Lock::kRcu: {
      std::lock_guard<std::mutex> lock(writer_mutex_);
      scan();
      break;
    }
    case Lock::kNone:
      scan();
      break;
  }
  return visited;
}

uint64_t CTrieStore::Size() const {
  return size_.load(std::memory_order_acquire);
}

bool CTrieStore::IsThreadSafe() const { return options_.lock != Lock::kNone; }

CTrieStore::PoolStats CTrieStore::GetPoolStats() const {
  auto read = [this] {
    PoolStats s;
    s.slabs = pool_->Slabs();
    s.bytes_reserved = pool_->BytesReserved();
    s.bytes_live = pool_->BytesLive();
    s.live_objects = pool_->LiveObjects();
    s.free_objects = pool_->FreeObjects();
    s.pending_reclaim = epochs_ != nullptr ? epochs_->pending() : 0;
    return s;
  };
  // The pool is the writer's: read it under the write side of the lock.
  return const_cast<CTrieStore*>(this)->WithWriteLock(read);
}

std::optional<size_t> CTrieStore::MemoryUsage() const {
  return const_cast<CTrieStore*>(this)->WithWriteLock([this] {
    return sizeof(*this) + pool_->BytesReserved() +
           (epochs_ != nullptr ? epochs_->BytesReserved() : 0) +
           path_.capacity() * sizeof(PathStep) +
           (write_locked_.capacity() + fresh_.capacity() +
            retired_.capacity()) *
               sizeof(Node*) +
           scratch_.capacity() + nth_key_.capacity();
  });
}

std::string CTrieStore::PoolDebugString() const {
  return const_cast<CTrieStore*>(this)->WithWriteLock(
      [this] { return pool_->DebugString(); });
}

std::string CTrieStore::DebugString(size_t max_nodes) const {
  return const_cast<CTrieStore*>(this)->WithWriteLock(
      [&] { return TreeString(max_nodes) + pool_->DebugString(); });
}

}  // namespace kvlab
