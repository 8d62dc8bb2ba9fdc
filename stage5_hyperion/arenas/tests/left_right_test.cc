// LeftRight (src/left_right.h) on its own, and an arena under
// lock=leftright (src/arena.h): readers go where the writer sends them and
// are not held up by it, a writer waits for the readers of the side it
// leaves, a write is applied to both copies, and a second copy that failed
// catches up before it is used again.

#include "left_right.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arena.h"
#include "gtest/gtest.h"
#include "kvlab/testing/test_scale.h"
#include "kvlab/testing/thread_errors.h"

namespace kvlab::stage5 {
namespace {

using namespace std::chrono_literals;

TEST(LeftRight, PublishSendsReadersToTheHiddenSide) {
  LeftRight lr;
  EXPECT_EQ(lr.visible(), 0);
  EXPECT_EQ(lr.hidden(), 1);
  { EXPECT_EQ(LeftRight::Reader(&lr).side(), 0); }
  lr.Publish();  // no reader: returns at once
  EXPECT_EQ(lr.visible(), 1);
  EXPECT_EQ(lr.hidden(), 0);
  { EXPECT_EQ(LeftRight::Reader(&lr).side(), 1); }
  lr.Publish();
  EXPECT_EQ(LeftRight::Reader(&lr).side(), 0);
}

TEST(LeftRight, PublishWaitsForTheReadersOfTheSideItLeaves) {
  LeftRight lr;
  std::atomic<bool> published{false};
  std::optional<LeftRight::Reader> old_reader(&lr);
  ASSERT_EQ(old_reader->side(), 0);
  std::thread writer([&] {
    lr.Publish();
    published = true;
  });
  // Readers arriving now, while the writer waits, enter the new side at
  // once.
  while (lr.visible() != 1) std::this_thread::yield();
  for (int i = 0; i < 1000; ++i) {
    const LeftRight::Reader reader(&lr);
    EXPECT_EQ(reader.side(), 1);
    std::this_thread::yield();
  }
  EXPECT_FALSE(published.load()) << "Publish returned with a reader on side 0";
  old_reader.reset();
  writer.join();
  EXPECT_TRUE(published.load());
}

// Two copies of a pair of plain integers: a reader must always find the
// two equal and never going back; ThreadSanitizer reports any access the
// technique fails to order.
TEST(LeftRight, ReadersNeverSeeACopyBeingWritten) {
  struct Pair {
    uint64_t a = 0;
    uint64_t b = 0;
  };
  Pair copies[2];
  LeftRight lr;
  std::atomic<bool> done{false};
  std::atomic<int> failures{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 3; ++r) {
    readers.emplace_back([&] {
      uint64_t last = 0;
      while (!done.load()) {
        const LeftRight::Reader reader(&lr);
        const Pair& p = copies[reader.side()];
        if (p.a != p.b || p.a < last) ++failures;
        last = p.a;
      }
    });
  }
  const uint64_t writes = testing::Scaled(20'000, 2'000);
  for (uint64_t i = 1; i <= writes; ++i) {
    Pair& hidden = copies[lr.hidden()];
    hidden.a = i;
    hidden.b = i;
    lr.Publish();
    Pair& old = copies[lr.hidden()];
    old.a = i;
    old.b = i;
  }
  done = true;
  for (std::thread& t : readers) t.join();
  EXPECT_EQ(failures.load(), 0);
}

// Slot of keys starting with 'k' (byte_arena_store.cc: 1 + first byte).
constexpr size_t kSlotK = 1 + 'k';

// A write of "k" = `value` for Arena::Write.
auto PutK(const std::string& value) {
  return [value](Arena::Change& change) {
    change.key = "k";
    const absl::StatusOr<bool> replaced = change.trie.Put("k", value);
    if (!replaced.ok()) throw std::bad_alloc();
    if (!*replaced) change.counts.Add(kSlotK, 1);
    return *replaced;
  };
}

std::string ReadK(const Arena& arena) {
  return arena.Read([](const HyperionStore& trie, const SlotCounts&) {
    std::string value;
    return trie.Get("k", &value) ? value : "absent";
  });
}

// The value of "k" in each copy of `arena`, the copy readers use first,
// and whether the other is current.
std::vector<std::string> CopiesOfK(const Arena& arena) {
  std::vector<std::string> values;
  EXPECT_EQ(arena.CheckCopies([&](const HyperionStore& trie,
                                  const SlotCounts& counts, bool current) {
    std::string value;
    values.push_back(trie.Get("k", &value) ? value : "absent");
    values.back() += current ? "" : " (behind)";
    EXPECT_EQ(counts[kSlotK] + counts[1 + 'j'], trie.Size());
    return absl::OkStatus();
  }),
            absl::OkStatus());
  return values;
}

TEST(LeftRightArena, WriteRunsOnEachCopyAndOtherLocksRunItOnce) {
  for (const auto lock :
       {ArenaOptions::Lock::kSpin, ArenaOptions::Lock::kRw,
        ArenaOptions::Lock::kMutex, ArenaOptions::Lock::kLeftRight}) {
    SCOPED_TRACE(int(lock));
    Arena arena(lock, {});
    int calls = 0;
    EXPECT_FALSE(arena.Write([&](Arena::Change& change) {
      ++calls;
      return PutK("v")(change);
    }));
    EXPECT_EQ(calls, lock == ArenaOptions::Lock::kLeftRight ? 2 : 1);
    EXPECT_EQ(ReadK(arena), "v");
    EXPECT_EQ(arena.VisibleCount(kSlotK), 1u);
    // A write that names no key changed nothing: not repeated.
    calls = 0;
    arena.Write([&](Arena::Change&) { return ++calls; });
    EXPECT_EQ(calls, 1);
  }
}

TEST(LeftRightArena, AReaderIsNotHeldUpByAWriterInItsSecondCopy) {
  Arena arena(ArenaOptions::Lock::kLeftRight, {});
  arena.Write(PutK("old"));
  std::mutex mutex;
  std::condition_variable changed;
  bool in_second_copy = false;
  bool reader_done = false;
  bool writer_gave_up = false;
  testing::ThreadErrors errors;
  std::thread writer([&] {
    errors.Run([&] {
      int calls = 0;
      arena.Write([&](Arena::Change& change) {
        const bool replaced = PutK("new")(change);
        if (++calls == 2) {
          // Stalled holding the arena's lock, the change applied to both
          // copies, until the reader is done (or, if reads are blocked,
          // long enough to tell).
          std::unique_lock<std::mutex> lock(mutex);
          in_second_copy = true;
          changed.notify_all();
          writer_gave_up =
              !changed.wait_for(lock, 20s, [&] { return reader_done; });
        }
        return replaced;
      });
    });
  });
  {
    std::unique_lock<std::mutex> lock(mutex);
    EXPECT_TRUE(changed.wait_for(lock, 20s, [&] { return in_second_copy; }))
        << "the writer never reached its second copy";
  }
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(ReadK(arena), "new");  // readers were sent to the first copy
  }
  EXPECT_EQ(arena.VisibleCount(kSlotK), 1u);
  {
    std::lock_guard<std::mutex> lock(mutex);
    reader_done = true;
  }
  changed.notify_all();
  writer.join();
  EXPECT_EQ(errors.first(), "");
  EXPECT_FALSE(writer_gave_up) << "the reads waited for the writer";
}

TEST(LeftRightArena, AFailedSecondCopyCatchesUpBeforeItIsUsedAgain) {
  Arena arena(ArenaOptions::Lock::kLeftRight, {});
  arena.Write(PutK("old"));
  int calls = 0;
  // The second copy finds no memory: the write still succeeds.
  EXPECT_TRUE(arena.Write([&](Arena::Change& change) {
    if (++calls == 2) {
      change.key = "k";
      throw std::bad_alloc();
    }
    return PutK("new")(change);
  }));
  EXPECT_EQ(ReadK(arena), "new");
  EXPECT_EQ(CopiesOfK(arena),
            (std::vector<std::string>{"new", "old (behind)"}));
  // The next write goes to the copy left behind: it is replayed first.
  arena.Write([](Arena::Change& change) {
    change.key = "j";
    const bool replaced = *change.trie.Put("j", "1");
    change.counts.Add(1 + 'j', 1);
    return replaced;
  });
  EXPECT_EQ(ReadK(arena), "new");
  EXPECT_EQ(CopiesOfK(arena), (std::vector<std::string>{"new", "new"}));
  EXPECT_EQ(arena.VisibleCount(kSlotK), 1u);
  EXPECT_EQ(arena.VisibleCount(1 + 'j'), 1u);
}

}  // namespace
}  // namespace kvlab::stage5
