#include "kvlab/ect/stores.h"

#include <cstdlib>
#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "kvlab/ect/ect_store.h"
#include "kvlab/std_map_store.h"

namespace kvlab {
namespace {

constexpr char kDefaultBuffer[] = "hyperion";

absl::StatusOr<std::string> MakeTempDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      absl::StrCat(tmp != nullptr && *tmp ? tmp : "/tmp", "/kvlab-ect-XXXXXX");
  if (::mkdtemp(pattern.data()) == nullptr) {
    return absl::InternalError(
        absl::StrCat("ect: cannot make a temporary directory ", pattern));
  }
  return pattern;
}

absl::StatusOr<std::unique_ptr<KVStore>> MakeEct(const StoreRegistry* registry,
                                                 const StoreOptions& options) {
  ect::EctOptions o;
  absl::StatusOr<int64_t> bucket_size =
      options.GetInt("bucket_size", 256, 1, 1 << 16);
  if (!bucket_size.ok()) return bucket_size.status();
  absl::StatusOr<int64_t> hmax =
      options.GetInt("hmax", 64, 1, ect::kMaxHuffmanTrieSize);
  if (!hmax.ok()) return hmax.status();
  absl::StatusOr<int64_t> merge_pairs =
      options.GetInt("merge_pairs", int64_t{1} << 20, 1, int64_t{1} << 40);
  if (!merge_pairs.ok()) return merge_pairs.status();
  absl::StatusOr<int64_t> sort_memory =
      options.GetInt("sort_memory", int64_t{256} << 20, 1, int64_t{1} << 40);
  if (!sort_memory.ok()) return sort_memory.status();
  absl::StatusOr<std::string> sync =
      options.GetChoice("sync", "group", {"none", "every", "group"});
  if (!sync.ok()) return sync.status();
  o.bucket_size = static_cast<uint64_t>(*bucket_size);
  o.hmax = static_cast<int>(*hmax);
  o.merge_pairs = static_cast<uint64_t>(*merge_pairs);
  o.sort_memory_bytes = static_cast<uint64_t>(*sort_memory);
  o.sync = *sync == "none"    ? SyncPolicy::kNone
           : *sync == "every" ? SyncPolicy::kEvery
                              : SyncPolicy::kGroup;

  const std::string buffer = options.GetString("buffer", kDefaultBuffer);
  ect::BufferFactory make_buffer;
  if (const StoreInfo* info = registry->Find(buffer); info != nullptr) {
    if (buffer == "ect" || !info->ordered) {
      return absl::InvalidArgumentError(absl::StrCat(
          "ect: the buffer must be an ordered store other than ect, not ",
          buffer));
    }
    make_buffer = [registry, buffer] { return registry->Make(buffer); };
  } else if (buffer == kDefaultBuffer) {
    make_buffer = []() -> absl::StatusOr<std::unique_ptr<KVStore>> {
      return std::make_unique<StdMapStore>();
    };
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("ect: no store kind ", buffer,
                     " for the buffer; there are ", registry->NameList()));
  }

  o.dir = options.GetString("dir", "");
  if (o.dir.empty()) {
    absl::StatusOr<std::string> tmp = MakeTempDir();
    if (!tmp.ok()) return tmp.status();
    o.dir = *tmp;
    o.remove_dir_on_close = true;
  }
  absl::StatusOr<std::unique_ptr<ect::EctStore>> store =
      ect::EctStore::Open(o, std::move(make_buffer));
  if (!store.ok()) {
    if (o.remove_dir_on_close) std::filesystem::remove_all(o.dir);
    return store.status();
  }
  return std::unique_ptr<KVStore>(*std::move(store));
}

}  // namespace

void RegisterEctStores(StoreRegistry* registry) {
  registry->Add(StoreInfo{
      .name = "ect",
      .description =
          "entropy-coded tries: pairs on disk in hash order, ~2.5 bits of "
          "RAM a key, one read a Get; unordered: no GetNth/Scan",
      .origin = "stage3",
      .options = {{"dir", "directory (default: temporary, removed on close)"},
                  {"bucket_size", "keys per virtual bucket, 1..65536 (256)"},
                  {"hmax", "largest Huffman-coded subtree, 1..64 (64)"},
                  {"merge_pairs",
                   "buffer entries that start a merge "
                   "(1048576)"},
                  {"sort_memory",
                   "bytes the merge's external sort holds in memory "
                   "(268435456)"},
                  {"sync", "none, every or group (group)"},
                  {"buffer", "the write buffer's store kind (hyperion)"}},
      .ordered = false,
      .linear_nth = false,
      .sorted_input_cost = SortedInputCost::kLogarithmic,
      .keeps_files = true,
      .factory =
          [registry](const StoreOptions& options) {
            return MakeEct(registry, options);
          },
  });
}

}  // namespace kvlab
