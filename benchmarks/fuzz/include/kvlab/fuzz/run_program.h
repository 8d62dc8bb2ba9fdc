// Runs a fuzz program on a store beside a std::map model and compares every
// answer, the way the fuzz target and kvlab_fuzz_replay do.

#ifndef KVLAB_FUZZ_RUN_PROGRAM_H_
#define KVLAB_FUZZ_RUN_PROGRAM_H_

#include <cstddef>

#include "absl/status/status.h"
#include "kvlab/fuzz/program.h"
#include "kvlab/kv_store.h"

namespace kvlab::fuzz {

struct RunOptions {
  // False for an unordered store (StoreInfo::ordered): GetNth and DeleteNth
  // must then answer false and Scan visit nothing.
  bool ordered = true;
  // A full check (below) after every this many operations and at the end.
  size_t check_every = 64;
};

// Applies `program` to `store`, which must be empty, and to a model. Put is
// expected to refuse a key or value over its limit, or a key the store's
// ValidateKey refuses, with InvalidArgument and the store unchanged; every
// other answer must equal the model's. After every operation Size() must
// equal the model's size; a full check (a Check operation, every
// `check_every` operations and at the end) also asks the store's
// CheckInvariants() and compares the whole content (a Scan from "", or a Get
// of every key for an unordered store).
//
// Returns OK, or Internal naming the first operation (its position and
// ToString) whose answer or check failed, with what was expected and got.
absl::Status RunProgram(const Program& program, KVStore* store,
                        const RunOptions& options);

}  // namespace kvlab::fuzz

#endif  // KVLAB_FUZZ_RUN_PROGRAM_H_
