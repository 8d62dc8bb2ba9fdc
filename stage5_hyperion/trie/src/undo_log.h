// The undo log of one write (a Put or a Delete): every change the write
// makes to the trie's memory, recorded before it is made, so that a write
// that runs out of memory part way can be taken back and leave the store
// exactly as it was (kv_store.h, "Out of memory").
//
// A write records
//   - bytes it is about to overwrite in place (SaveBytes);
//   - a splice about to move a container's tail in place (SaveSplice): the
//     bytes the splice replaces and the container's header, enough to
//     splice them back;
//   - a chunk about to be resized in place (Resized), with its old size;
//   - a chunk it allocates (Allocate);
//   - a chunk it gives up (FreeLater), which Commit frees once the write
//     is done, and nothing before.
//
// Undo takes the changes back newest first, and needs no memory: it copies
// bytes back, resizes chunks in place (back within their class, which
// MemoryManager::ResizesInPlace allows), and frees the chunks the write
// allocated. It can rely on every recorded address: nothing is freed
// before Commit, and a container that leaves its chunk is copied into a
// new one while the old chunk stays as it was; so once the later changes
// are undone, each address holds exactly what its change left there.
//
// Record first, then change: a record that finds no memory throws
// std::bad_alloc before its change is made.
//
// The records of a usual write fit in the log itself (the kInline*
// sizes); a larger write's go to the heap, which Clear gives back, so that
// between writes the log holds no memory but its own bytes. Not
// thread-safe; one per store.

#ifndef KVLAB_STAGE5_UNDO_LOG_H_
#define KVLAB_STAGE5_UNDO_LOG_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "absl/container/inlined_vector.h"
#include "absl/functional/function_ref.h"
#include "kvlab/stage5/hyperion_pointer.h"
#include "kvlab/stage5/memory_manager.h"

namespace kvlab::stage5::hyperion {

class UndoLog {
 public:
  // Forgets the records, and gives back heap memory they took.
  void Clear() {
    records_.clear();
    records_.shrink_to_fit();
    freed_.clear();
    freed_.shrink_to_fit();
    saved_.Clear();
  }

  // `n` bytes at `p` are about to be overwritten.
  void SaveBytes(uint8_t* p, size_t n) {
    Push(Record{.kind = Kind::kBytes,
                .address = p,
                .saved = Save(p, n),
                .length = uint32_t(n)});
  }
  // The `old_len` bytes at `pos` of container `c`, which has `used` bytes
  // in use, are about to be replaced by `new_len` bytes, its tail moved in
  // place.
  void SaveSplice(uint8_t* c, uint32_t pos, uint32_t old_len, uint32_t new_len,
                  uint32_t used);
  // `hp`, of `old_size` bytes, is about to be resized in place.
  void Resized(HyperionPointer hp, size_t old_size) {
    Push(
        Record{.kind = Kind::kResized, .hp = hp, .length = uint32_t(old_size)});
  }
  // Calls `allocate` (a MemoryManager allocation) and records the chunk
  // it returns.
  HyperionPointer Allocate(absl::FunctionRef<HyperionPointer()> allocate);
  // `hp` (null: nothing) is no longer used by the trie; Commit frees it.
  void FreeLater(HyperionPointer hp) {
    if (!hp.IsNull()) freed_.push_back(hp);
  }

  // The write is done: frees the chunks it gave up.
  void Commit(MemoryManager* mm);
  // Takes back every change recorded since Clear, newest first.
  void Undo(MemoryManager* mm);

 private:
  // Enough for a Put or Delete on a usual path of 2-6 containers: the
  // counts above it, a splice, jump successors and tables.
  static constexpr size_t kInlineRecords = 32;
  static constexpr size_t kInlineBytes = 1024;
  static constexpr size_t kInlineFreed = 8;

  enum class Kind : uint8_t { kBytes, kSplice, kResized, kAllocated };
  struct Record {
    Kind kind = Kind::kBytes;
    uint8_t* address = nullptr;  // kBytes: the bytes; kSplice: the container
    HyperionPointer hp{};        // kResized, kAllocated
    uint32_t saved = 0;          // kBytes, kSplice: offset in saved_
    // kBytes: the bytes saved; kSplice: old_len; kResized: the old size.
    uint32_t length = 0;
    uint32_t pos = 0, new_len = 0, used = 0;  // kSplice
  };

  // Bytes saved for the records: the first kInlineBytes in the log, the
  // rest in a heap block that Clear gives back. (absl::InlinedVector would
  // copy them byte by byte.)
  class SavedBytes {
   public:
    // Appends `n` bytes at `p`; returns their offset. Throws
    // std::bad_alloc, appending nothing, if it needs a block and gets none.
    uint32_t Append(const uint8_t* p, size_t n) {
      if (size_ + n > capacity_) Grow(size_ + n);
      std::memcpy(data() + size_, p, n);
      size_ += uint32_t(n);
      return size_ - uint32_t(n);
    }
    const uint8_t* data() const { return heap_ ? heap_.get() : inline_; }
    uint8_t* data() { return heap_ ? heap_.get() : inline_; }
    void Clear() {
      size_ = 0;
      heap_.reset();
      capacity_ = kInlineBytes;
    }

   private:
    void Grow(size_t needed);

    uint8_t inline_[kInlineBytes];
    std::unique_ptr<uint8_t[]> heap_;
    uint32_t size_ = 0;
    uint32_t capacity_ = kInlineBytes;
  };

  void Push(const Record& record) { records_.push_back(record); }
  uint32_t Save(const uint8_t* p, size_t n) { return saved_.Append(p, n); }

  absl::InlinedVector<Record, kInlineRecords> records_;
  SavedBytes saved_;
  absl::InlinedVector<HyperionPointer, kInlineFreed> freed_;
};

}  // namespace kvlab::stage5::hyperion

#endif  // KVLAB_STAGE5_UNDO_LOG_H_
