// The course API: the Slice and kvStore of the course assignment, unchanged,
// so that an unmodified course harness compiles and runs against kvlab.
//
// Contract (it is the course benchmark's, made precise):
// - Keys are ordered by unsigned bytes (memcmp, then shorter first). Slices
//   are not NUL-terminated; `size` is the length, so at most 255 bytes. Any
//   byte value may appear in keys and values.
// - Output Slices may arrive uninitialised; every call sets them, whatever
//   it answers:
//   * On success, `data` points to a fresh malloc'd copy that the CALLER
//     owns and should release with free(); the store never reads or frees
//     it again. (Course harnesses never free it; that leaks, but is safe.)
//     It is never NULL, even for size 0.
//   * When a call returns false or throws, each output Slice is EMPTY: size
//     0 and `data` pointing to a static, readable buffer that the caller
//     does not own and must not free. An empty output is a valid input, the
//     empty key, so a harness that passes the key of a failed get(N) to del
//     deletes only the empty key, if present.
// - Out of memory: get and get(N) return false with their outputs empty;
//   put, del and del(N) throw std::bad_alloc. The store is left as it was.
// - Input buffers are only read during the call: never retained or freed.
// - N is 0-based; N < 0 or N >= size returns false.
// - All methods are safe to call from several threads at once.
// - A key or value longer than 255 bytes cannot be returned through a
//   Slice; get and get(N) then return false. Only pairs put by other means
//   than this API can be that long.
// - A store built with a restricted alphabet (trie_array:alphabet=letters)
//   makes put throw std::invalid_argument for a key outside it (store
//   unchanged); every other store accepts any byte.
//
// Which store serves the API: kvStore(max_entries) uses the store named by
// the environment variable KVLAB_STORE (any spec, e.g. "avl"), defaulting to
// kvlab::DefaultStoreSpec() (kvlab.h); kvStore(max_entries, spec) names it
// directly. An unknown spec throws std::invalid_argument listing the stores
// that exist.

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

  // Copies the value of `key` into `value` (malloc'd, caller owns). False,
  // `value` empty, if the key is absent, the value is over 255 bytes or
  // memory ran out. `key` and `value` may be the same Slice.
  bool get(Slice& key, Slice& value);
  // Inserts or replaces. True if an existing value was overwritten. Throws
  // std::bad_alloc when memory runs out and std::invalid_argument for a key
  // the store refuses, the store unchanged either way.
  bool put(Slice& key, Slice& value);
  // False if the key is absent.
  bool del(Slice& key);
  // The N-th pair in key order (both malloc'd, caller owns). False, both
  // outputs empty, if N is out of range, the store is unordered (a hash map
  // peer), the key or value is over 255 bytes or memory ran out.
  bool get(int N, Slice& key, Slice& value);
  // Deletes the N-th pair in key order. False if N is out of range or the
  // store is unordered.
  bool del(int N);

  // The kvlab store behind this object (its name, size, memory usage).
  const kvlab::KVStore& store() const { return *store_; }

 private:
  std::unique_ptr<kvlab::KVStore> store_;
};

#endif  // KVLAB_COURSE_H_
