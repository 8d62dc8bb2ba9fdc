// The one interface every kvlab store implements.
//
// A KVStore maps byte-string keys to byte-string values. Keys are compared in
// unsigned byte order (memcmp, then the shorter key first), so "" < "A" < "Z"
// < "a" < "ab" < "abc" < "\xff". Keys and values may hold any byte, NUL
// included; nothing here is NUL-terminated.
//
// Limits: a key is 0 to kMaxKeySize bytes (the empty key is a valid key), a
// value 0 to kMaxValueSize bytes. Put refuses anything larger with
// InvalidArgument and leaves the store unchanged; Get and Delete of an
// oversized key simply report "absent", since such a key cannot be stored.
//
// Out of memory: when an allocation inside a store fails,
// - Put returns ResourceExhausted and the store is exactly as it was. (A
//   store's PutImpl may throw std::bad_alloc only while it has changed
//   nothing; Put turns the exception into the status.)
// - Delete and DeleteNth either succeed, or throw std::bad_alloc and leave
//   the store exactly as it was.
// - Get, GetNth and Scan never change the store; copying a result into the
//   caller's string may throw std::bad_alloc.
// After a failure, every later call works as usual once memory is free. A
// store kind that cannot keep this (a peer whose library exits when malloc
// fails) says so in its StoreInfo (registry.h).
//
// Thread safety: a store is safe for concurrent use only if
// IsThreadSafe() returns true. Any store can be made safe by wrapping it in a
// LockedStore (locked_store.h).

#ifndef KVLAB_KV_STORE_H_
#define KVLAB_KV_STORE_H_

#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "kvlab/structure.h"

namespace kvlab {

inline constexpr size_t kMaxKeySize = 1024;
inline constexpr size_t kMaxValueSize = 4096;

// Returns OK if `key` and `value` are within the limits above, otherwise an
// InvalidArgument status naming the limit that was exceeded.
absl::Status ValidateKeyValue(std::string_view key, std::string_view value);

// Thrown by a store's PutImpl when the write failed for a reason other than
// a failed allocation (a durable store could not write its log), with the
// store unchanged; Put returns status().
class WriteError : public std::exception {
 public:
  explicit WriteError(absl::Status status) : status_(std::move(status)) {}
  const absl::Status& status() const { return status_; }
  const char* what() const noexcept override { return "kvlab::WriteError"; }

 private:
  absl::Status status_;
};

class KVStore {
 public:
  // Called by Scan for each pair in ascending key order. The views are valid
  // only during the call. Return false to stop the scan.
  using ScanVisitor =
      absl::FunctionRef<bool(std::string_view key, std::string_view value)>;

  KVStore() = default;
  KVStore(const KVStore&) = delete;
  KVStore& operator=(const KVStore&) = delete;
  virtual ~KVStore() = default;

  // Inserts `key` or replaces its value. Returns true if an existing value was
  // replaced, false if the key was new, InvalidArgument (store unchanged) if
  // the key or value exceeds its limit or ValidateKey refuses the key,
  // ResourceExhausted (store unchanged) if memory ran out, or the status of
  // a WriteError the store threw (store unchanged).
  absl::StatusOr<bool> Put(std::string_view key, std::string_view value);

  // OK if this store can hold `key` (already within kMaxKeySize), otherwise
  // InvalidArgument saying why; Put calls it before PutImpl. The default
  // accepts every key. A store that refuses some keys (a trie over a
  // restricted alphabet) overrides it; Get and Delete of a refused key must
  // then simply report "absent". The answer may depend only on the key and
  // the store's construction options, never on its contents, so a wrapper
  // can forward it without locking.
  virtual absl::Status ValidateKey(std::string_view key) const;

  // Returns true and copies the value into `*value` (if non-null) when `key`
  // is present; returns false otherwise, leaving `*value` untouched.
  bool Get(std::string_view key, std::string* value) const;

  // Removes `key`. Returns false if it was absent.
  bool Delete(std::string_view key);

  // The n-th pair (0-based) in key order. Returns false when n >= Size().
  // `key` and `value` may each be null. Ordered stores do this in better than
  // O(n) time.
  virtual bool GetNth(uint64_t n, std::string* key,
                      std::string* value) const = 0;

  // Removes the n-th pair (0-based) in key order. Returns false when
  // n >= Size().
  virtual bool DeleteNth(uint64_t n) = 0;

  // Visits the pairs whose key is >= `start`, in ascending order, until
  // `visitor` returns false. Returns the number of pairs visited (including
  // the one whose visit returned false). The visitor must not modify or call
  // back into this store.
  virtual uint64_t Scan(std::string_view start, ScanVisitor visitor) const = 0;

  // The number of pairs stored.
  virtual uint64_t Size() const = 0;

  // The registered name of this store kind, e.g. "avl".
  virtual std::string_view Name() const = 0;

  // The bytes the store holds by its own accounting: every allocation it
  // made, keys and values included. Stores that cannot account for their
  // memory (some peers) return nullopt.
  virtual std::optional<size_t> MemoryUsage() const = 0;

  // True if every method may be called from several threads at once.
  virtual bool IsThreadSafe() const { return false; }

  // OK if the store's structural invariants hold (each store's header lists
  // them), else Internal naming the first violation. For tests, fuzzers and
  // debugging: it may take O(size) time. A store with nothing to check beyond
  // its answers keeps this default, which returns OK.
  virtual absl::Status CheckInvariants() const;

  // Fills `*graph` (empty on entry) with the store's nodes and links as
  // `options` limits them (structure.h), for kvlab-draw. Never changes the
  // store. The default returns Unimplemented: a store without a drawing.
  // NotFound if options.from_key names no node.
  virtual absl::Status ExportStructure(const StructureOptions& options,
                                       StructureGraph* graph) const;

 protected:
  // The checked operations above forward here after validating their
  // arguments: `key` and `value` are always within the limits. PutImpl and
  // DeleteImpl give the strong guarantee: if they throw std::bad_alloc, the
  // store is as it was before the call.
  virtual bool PutImpl(std::string_view key, std::string_view value) = 0;
  virtual bool GetImpl(std::string_view key, std::string* value) const = 0;
  virtual bool DeleteImpl(std::string_view key) = 0;

  // DeleteNth for a store with no faster way: finds the n-th key with
  // GetNth, then deletes it. False when n >= Size().
  bool DeleteNthByKey(uint64_t n);
};

}  // namespace kvlab

#endif  // KVLAB_KV_STORE_H_
