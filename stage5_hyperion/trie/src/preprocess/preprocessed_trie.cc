#include "preprocess/preprocessed_trie.h"

#include <cassert>
#include <cstddef>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "kvlab/structure.h"

namespace kvlab::stage5 {
namespace {

// A key's image, built on the stack: no call allocates for its key. One
// byte more than an image holds, for Scan's bound past the longest image.
class Image {
 public:
  explicit Image(std::string_view key) {
    assert(key.size() <= kMaxKeySize);
    PreprocessKey(key, bytes_);
    size_ = PreprocessedSize(key.size());
  }
  std::string_view view() const {
    return std::string_view(reinterpret_cast<const char*>(bytes_), size_);
  }
  // Appends a zero byte: the least string after the image.
  void AppendZero() { bytes_[size_++] = 0; }

 private:
  uint8_t bytes_[kMaxStoredKeySize + 1];
  size_t size_ = 0;
};

// How the debugging views name what they show.
constexpr char kImagesNote[] =
    "pre-processed images: key bytes 1-3 spread over bytes 1-4, six key bits "
    "and two zero bits each";

}  // namespace

bool PreprocessedTrie::PutImpl(std::string_view key, std::string_view value) {
  return trie_.PutImpl(Image(key).view(), value);
}

bool PreprocessedTrie::GetImpl(std::string_view key, std::string* value) const {
  return trie_.GetImpl(Image(key).view(), value);
}

bool PreprocessedTrie::DeleteImpl(std::string_view key) {
  return trie_.DeleteImpl(Image(key).view());
}

bool PreprocessedTrie::GetNth(uint64_t n, std::string* key,
                              std::string* value) const {
  if (!trie_.GetNth(n, key, value)) return false;
  if (key != nullptr) {
    // A key is never longer than its image: restored in place.
    size_t size = 0;
    const bool restored =
        RestoreKey(*key, reinterpret_cast<uint8_t*>(key->data()), &size);
    assert(restored);
    (void)restored;
    key->resize(size);
  }
  return true;
}

uint64_t PreprocessedTrie::Scan(std::string_view start,
                                ScanVisitor visitor) const {
  // A start longer than any key: no image is longer than the image of its
  // first kMaxKeySize bytes, and the transform leaves the bytes after them
  // as they are, so the images at or after the start's are those after
  // that shorter image.
  const bool beyond = start.size() > kMaxKeySize;
  Image bound(beyond ? start.substr(0, kMaxKeySize) : start);
  if (beyond) bound.AppendZero();
  char key[kMaxKeySize];
  return trie_.Scan(
      bound.view(), [&](std::string_view image, std::string_view value) {
        size_t size = 0;
        const bool restored =
            RestoreKey(image, reinterpret_cast<uint8_t*>(key), &size);
        assert(restored);
        (void)restored;
        return visitor(std::string_view(key, size), value);
      });
}

std::optional<size_t> PreprocessedTrie::MemoryUsage() const {
  const std::optional<size_t> trie = trie_.MemoryUsage();
  if (!trie.has_value()) return std::nullopt;
  return *trie - sizeof(trie_) + sizeof(*this);
}

std::string PreprocessedTrie::DebugString() const {
  std::string out = absl::StrCat("keys stored as ", kImagesNote, "\n");
  constexpr uint64_t kKeysShown = 16;
  uint64_t shown = 0;
  trie_.Scan("", [&](std::string_view image, std::string_view) {
    std::string key;
    RestoreKey(image, &key);
    out += "  key " + QuotedKey(key) + " stored as";
    for (char c : image) absl::StrAppendFormat(&out, " %02x", uint8_t(c));
    out += '\n';
    return ++shown < kKeysShown;
  });
  if (shown < trie_.Size()) {
    absl::StrAppend(&out, "  ... ", trie_.Size() - shown, " more\n");
  }
  out += trie_.DebugString();
  return out;
}

absl::Status PreprocessedTrie::CheckInvariants() const {
  if (absl::Status trie = trie_.CheckInvariants(); !trie.ok()) return trie;
  std::string bad;
  trie_.Scan("", [&](std::string_view image, std::string_view) {
    std::string key;
    if (RestoreKey(image, &key) && key.size() <= kMaxKeySize) return true;
    bad = std::string(image);
    return false;
  });
  if (!bad.empty()) {
    return absl::InternalError("stored key " + QuotedKey(bad) +
                               " is not the image of a key of at most "
                               "kMaxKeySize bytes");
  }
  return absl::OkStatus();
}

absl::Status PreprocessedTrie::ExportStructure(const StructureOptions& options,
                                               StructureGraph* graph) const {
  absl::Status status = trie_.ExportStructure(options, graph);
  if (status.ok()) {
    graph->summary.push_back({"keys stored as", kImagesNote});
  }
  return status;
}

}  // namespace kvlab::stage5
