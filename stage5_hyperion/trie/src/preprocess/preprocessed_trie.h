// PreprocessedTrie: the store NewHyperionStore returns for
// options.preprocess (kvlab/stage5/hyperion_store.h states the contract). A
// HyperionTrie that holds every key as its pre-processed image
// (key_preprocessing.h): calls take the caller's keys and transform them on
// the way in, keys on the way out (Scan, GetNth) are restored. The
// transform keeps the key order, so a scan from start s visits the images
// at or after the image of s, GetNth's n-th image is the n-th key, and
// DeleteNth needs no transform at all.
//
// Invariants: those of the trie, and every stored key is the image of a key
// of at most kMaxKeySize bytes (CheckInvariants checks both).
//
// The debugging views (DebugString, DumpContainer, ExportStructure) show the
// trie as it is, with the images' bytes, and say so.
//
// Not thread-safe, like the trie.

#ifndef KVLAB_STAGE5_TRIE_SRC_PREPROCESS_PREPROCESSED_TRIE_H_
#define KVLAB_STAGE5_TRIE_SRC_PREPROCESS_PREPROCESSED_TRIE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "hyperion_trie.h"
#include "kvlab/stage5/hyperion_store.h"
#include "preprocess/key_preprocessing.h"

namespace kvlab::stage5 {

static_assert(PreprocessedSize(kMaxKeySize) <= kMaxStoredKeySize,
              "the trie must hold every transformed key");

class PreprocessedTrie final : public HyperionStore {
 public:
  explicit PreprocessedTrie(const HyperionOptions& options) : trie_(options) {}

  bool GetNth(uint64_t n, std::string* key, std::string* value) const override;
  bool DeleteNth(uint64_t n) override { return trie_.DeleteNth(n); }
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override;
  uint64_t Size() const override { return trie_.Size(); }
  std::string_view Name() const override { return "hyperion"; }
  std::optional<size_t> MemoryUsage() const override;

  CompactionStats Compact(const CompactionPolicy& policy = {}) override {
    return trie_.Compact(policy);
  }
  uint64_t compactions() const override { return trie_.compactions(); }
  uint64_t splits() const override { return trie_.splits(); }
  // The trie's dump after a header naming the transform, and the stored
  // image of each of the first keys.
  std::string DebugString() const override;
  std::string DumpContainer(HyperionPointer hp) const override {
    return trie_.DumpContainer(hp);
  }
  HyperionPointer root() const override { return trie_.root(); }
  const MemoryManager& memory() const override { return trie_.memory(); }

  absl::Status CheckInvariants() const override;
  // The trie's export, its summary stating that the bytes are images.
  absl::Status ExportStructure(const StructureOptions& options,
                               StructureGraph* graph) const override;

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override;
  bool GetImpl(std::string_view key, std::string* value) const override;
  bool DeleteImpl(std::string_view key) override;

 private:
  HyperionTrie trie_;
};

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_TRIE_SRC_PREPROCESS_PREPROCESSED_TRIE_H_
