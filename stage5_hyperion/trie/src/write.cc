// The write path's entry points: PutImpl and DeleteImpl make a write object
// (write.h), which runs Insert (insert.cc) or Erase (erase.cc) inside its
// undo log (undo_log.h), and then check for automatic compaction
// (options.compact). The check runs
// after every write, so it lives in this file, where it is inlined into
// both: every 1,024 writes, and only after at least size/8 writes since
// the last compaction, so that Compact's O(size) walk (compact.cc) costs
// O(1) per write amortised.

#include "write.h"

#include <new>

#include "hyperion_trie.h"

namespace kvlab::stage5 {

namespace {

constexpr uint64_t kCompactCheckEvery = 1024;

// Bytes of free chunks inside mapped bins (superbin 0 has none), less one
// bin's worth per superbin: the bin being filled, whose untouched chunks
// cost no memory and which no compaction could empty.
uint64_t FreeChunkBytes(const MemoryStats& stats) {
  uint64_t bytes = 0;
  for (uint32_t i = 1; i < kSuperbins; ++i) {
    const uint64_t free = stats.superbins[i].chunks_free;
    if (free > kChunksPerBin) bytes += (free - kChunksPerBin) * ChunkSize(i);
  }
  return bytes;
}

}  // namespace

bool HyperionTrie::PutImpl(std::string_view key, std::string_view value) {
  const bool replaced = TrieWrite(this).Put(key, value);
  CompactIfFragmented();
  return replaced;
}

bool HyperionTrie::DeleteImpl(std::string_view key) {
  if (!TrieWrite(this).Delete(key)) return false;
  CompactIfFragmented();
  return true;
}

bool TrieWrite::Put(std::string_view key, std::string_view value) {
  return Guarded([&] { return Insert(key, value); });
}

bool TrieWrite::Delete(std::string_view key) {
  return Guarded([&] { return Erase(key); });
}

bool TrieWrite::Guarded(absl::FunctionRef<bool()> write) {
  HyperionTrie& t = trie_;
  const HyperionPointer root = t.root_, empty_value = t.empty_value_;
  const bool has_empty_key = t.has_empty_key_;
  const uint64_t size = t.size_, splits = t.splits_;
  try {
    const bool result = write();
    undo_.Commit(&mm_);
    return result;
  } catch (const std::bad_alloc&) {
    undo_.Undo(&mm_);
    t.root_ = root;
    t.empty_value_ = empty_value;
    t.has_empty_key_ = has_empty_key;
    t.size_ = size;
    t.splits_ = splits;
    throw;
  }
}

void HyperionTrie::CompactIfFragmented() {
  ++writes_since_compaction_;
  if (options_.compact == 0 ||
      writes_since_compaction_ % kCompactCheckEvery != 0 ||
      writes_since_compaction_ < size_ / 8) {
    return;
  }
  const MemoryStats stats = mm_.Stats();
  if (FreeChunkBytes(stats) * 100 >
      stats.Total().held_bytes * uint64_t{options_.compact}) {
    // The write is done; a compaction that finds no memory changed nothing
    // (BeginCompaction) and runs at a later check instead.
    try {
      Compact();
    } catch (const std::bad_alloc&) {
    }
  }
}

}  // namespace kvlab::stage5
