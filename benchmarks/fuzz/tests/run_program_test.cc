#include "kvlab/fuzz/run_program.h"

#include <memory>
#include <string>
#include <string_view>

#include "gtest/gtest.h"
#include "kvlab/fuzz/program_writer.h"
#include "kvlab/kvlab.h"

namespace kvlab::fuzz {
namespace {

using namespace std::literals;
using K = KeyExpr;
using I = IndexExpr;

// std_map with one deliberate fault, to show that the runner catches it.
class FaultyStore final : public KVStore {
 public:
  enum class Fault {
    kNone,
    kScanSkipsItsStart,    // Scan starts after `start` when it is stored
    kGetNthOffByOne,       // GetNth(n) answers the (n+1)-th pair
    kDeleteKeepsLongKeys,  // Delete of a key over 255 bytes does nothing
    kLosesEmptyValues,     // Put of an empty value stores "x"
    kBrokenInvariants,     // CheckInvariants fails past 20 pairs
    kRefusesNulKeys,       // not a fault: ValidateKey refuses keys with a
                           // NUL byte, which Put then refuses
  };
  explicit FaultyStore(Fault fault)
      : fault_(fault), inner_(*MakeStore("std_map")) {}

  absl::Status ValidateKey(std::string_view key) const override {
    if (fault_ == Fault::kRefusesNulKeys &&
        key.find('\0') != std::string_view::npos) {
      return absl::InvalidArgumentError("NUL");
    }
    return absl::OkStatus();
  }
  bool GetNth(uint64_t n, std::string* key, std::string* value) const override {
    if (fault_ == Fault::kGetNthOffByOne && n + 1 < inner_->Size()) ++n;
    return inner_->GetNth(n, key, value);
  }
  bool DeleteNth(uint64_t n) override { return inner_->DeleteNth(n); }
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override {
    if (fault_ == Fault::kScanSkipsItsStart && inner_->Get(start, nullptr)) {
      return inner_->Scan(std::string(start) + '\0', visitor);
    }
    return inner_->Scan(start, visitor);
  }
  uint64_t Size() const override { return inner_->Size(); }
  std::string_view Name() const override { return "faulty"; }
  std::optional<size_t> MemoryUsage() const override { return std::nullopt; }
  absl::Status CheckInvariants() const override {
    if (fault_ == Fault::kBrokenInvariants && inner_->Size() > 20) {
      return absl::InternalError("broken");
    }
    return absl::OkStatus();
  }

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override {
    if (fault_ == Fault::kLosesEmptyValues && value.empty()) value = "x";
    return *inner_->Put(key, value);
  }
  bool GetImpl(std::string_view key, std::string* value) const override {
    return inner_->Get(key, value);
  }
  bool DeleteImpl(std::string_view key) override {
    if (fault_ == Fault::kDeleteKeepsLongKeys && key.size() > 255) {
      return inner_->Get(key, nullptr);
    }
    return inner_->Delete(key);
  }

 private:
  const Fault fault_;
  std::unique_ptr<KVStore> inner_;
};

// Puts under "a" and a 300-byte key, scans, ranks, deletes, and an empty
// value last: each fault above shows at a known operation.
Program Exercise() {
  ProgramWriter w;
  w.Repeat(20).Put(K::Concat({K::Literal("a"), K::Counter(256, 0)}), 8);
  w.Put(K::Repeat('z', 300), 8)     // #20
      .Scan(K::PutKey(0), 0)        // #21
      .GetNth(I::Scaled(0))         // #22
      .Delete(K::Repeat('z', 300))  // #23
      .Put(K::Literal("b"), 0)      // #24
      .Get(K::Literal("b"))         // #25
      .Put(K::Literal("\0"sv), 4);  // #26
  return Decode(w.bytes());
}

absl::Status RunWith(FaultyStore::Fault fault) {
  FaultyStore store(fault);
  return RunProgram(Exercise(), &store, {});
}

TEST(RunProgram, CorrectStorePasses) {
  EXPECT_TRUE(RunWith(FaultyStore::Fault::kNone).ok())
      << RunWith(FaultyStore::Fault::kNone);
  // Refusing the NUL key (#26) through ValidateKey is allowed.
  EXPECT_TRUE(RunWith(FaultyStore::Fault::kRefusesNulKeys).ok())
      << RunWith(FaultyStore::Fault::kRefusesNulKeys);
}

TEST(RunProgram, EachFaultIsFoundAtItsOperation) {
  const struct {
    FaultyStore::Fault fault;
    std::string_view message;
  } cases[] = {
      {FaultyStore::Fault::kScanSkipsItsStart, "op #21 Scan("},
      {FaultyStore::Fault::kGetNthOffByOne, "op #22 GetNth(0): gave"},
      {FaultyStore::Fault::kDeleteKeepsLongKeys, "op #23 Delete("},
      {FaultyStore::Fault::kLosesEmptyValues,
       "op #25 Get(\"b\"): Get(\"b\") value \"x\", expected \"\""},
      // Found by the full check at the end.
      {FaultyStore::Fault::kBrokenInvariants,
       "op #26 Put(\"\\x00\", \"v26:\"): CheckInvariants: INTERNAL: broken"},
  };
  for (const auto& c : cases) {
    const absl::Status status = RunWith(c.fault);
    EXPECT_TRUE(absl::IsInternal(status)) << status;
    EXPECT_NE(std::string(status.message()).find(c.message), std::string::npos)
        << status << "\nexpected: " << c.message;
  }
}

TEST(RunProgram, RefusedPutsLeaveTheStoreAsItWas) {
  ProgramWriter w;
  w.Put(K::Literal("k"), 8)
      .Put(K::Literal("k"), 4097)
      .Put(K::Repeat('k', 1025), 1)
      .Get(K::Literal("k"))
      .Scan(K::Repeat('k', 2000), 0)
      .Check();
  std::unique_ptr<KVStore> store = *MakeStore("avl");
  EXPECT_TRUE(RunProgram(Decode(w.bytes()), store.get(), {}).ok());
  EXPECT_EQ(store->Size(), 1u);
}

TEST(RunProgram, UnorderedStore) {
  ProgramWriter w;
  w.Repeat(50).Put(K::Counter(7, 0), 3);
  w.GetNth(I::Exact(0)).DeleteNth(I::Exact(0)).Scan(K::Empty(), 0).Check();
  std::unique_ptr<KVStore> store = *MakeStore("std_unordered_map");
  const Program program = Decode(w.bytes());
  EXPECT_TRUE(RunProgram(program, store.get(), {.ordered = false}).ok());
  // Run as if ordered, GetNth's false answer is a failure.
  std::unique_ptr<KVStore> again = *MakeStore("std_unordered_map");
  EXPECT_TRUE(absl::IsInternal(RunProgram(program, again.get(), {})));
}

TEST(RunProgram, StoreMustStartEmpty) {
  std::unique_ptr<KVStore> store = *MakeStore("avl");
  ASSERT_TRUE(store->Put("x", "y").ok());
  EXPECT_TRUE(absl::IsFailedPrecondition(RunProgram({}, store.get(), {})));
}

}  // namespace
}  // namespace kvlab::fuzz
