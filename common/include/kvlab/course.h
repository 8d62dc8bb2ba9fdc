// The course API: the Slice and kvStore of the course assignment, unchanged,
// so that an unmodified course harness compiles and runs against kvlab.
//
// Contract (it is the course benchmark's, made precise):
// - Keys are ordered by unsigned bytes (memcmp, then shorter first). Slices
//   are not NUL-terminated; `size` is the length, so at most 255 bytes. Any
//   byte value may appear in keys and values.
// - Output Slices may arrive uninitialised. On success their `data` points to
//   a fresh malloc'd copy that the CALLER owns and should release with
//   free(); the store never reads or frees it again. (Course harnesses never
//   free it; that leaks, but is safe.) It is never NULL, even for size 0.
// - Input buffers are only read during the call: never retained or freed.
// - N is 0-based; N < 0 or N >= size returns false.
// - All methods are safe to call from several threads at once.
// - A value longer than 255 bytes cannot be returned through a Slice; get
//   then returns false. Only values stored through another API can be that
//   long.
// - A store built with a restricted alphabet (trie_array:alphabet=letters)
//   makes put throw std::invalid_argument for a key outside it; every other
//   store accepts any byte.
//
// Which store serves the API: kvStore(max_entries) uses the store named by
// the environment variable KVLAB_STORE (any spec, e.g. "avl"), defaulting to
// the most advanced stage; kvStore(max_entries, spec) names it directly. An
// unknown spec throws std::invalid_argument listing the stores that exist.

#ifndef KVLAB_COURSE_H_
#define KVLAB_COURSE_H_

#include <cstdint>
#include <memory>

struct Slice {
  uint8_t size;
  char* data;
};

namespace kvlab {
class KVStore;
}  // namespace kvlab

class kvStore {
 public:
  // `max_entries` is a capacity hint from the harness; kvlab stores grow as
  // needed and do not enforce it.
  explicit kvStore(uint64_t max_entries);
  kvStore(uint64_t max_entries, const char* spec);
  ~kvStore();
  kvStore(const kvStore&) = delete;
  kvStore& operator=(const kvStore&) = delete;

  // Copies the value of `key` into `value` (malloc'd, caller owns). False if
  // the key is absent.
  bool get(Slice& key, Slice& value);
  // Inserts or replaces. True if an existing value was overwritten.
  bool put(Slice& key, Slice& value);
  // False if the key is absent.
  bool del(Slice& key);
  // The N-th pair in key order (both malloc'd, caller owns).
  bool get(int N, Slice& key, Slice& value);
  // Deletes the N-th pair in key order.
  bool del(int N);

  // The kvlab store behind this object (its name, size, memory usage).
  const kvlab::KVStore& store() const { return *store_; }

 private:
  std::unique_ptr<kvlab::KVStore> store_;
};

#endif  // KVLAB_COURSE_H_
