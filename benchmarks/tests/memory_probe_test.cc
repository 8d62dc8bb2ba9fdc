#include "kvbench/memory_probe.h"

#include <cstring>
#include <memory>

#include "gtest/gtest.h"

namespace kvbench {
namespace {

constexpr char kSample[] =
    "Name:\tkvbench\n"
    "Umask:\t0022\n"
    "State:\tR (running)\n"
    "VmPeak:\t   12000 kB\n"
    "VmHWM:\t    5120 kB\n"
    "VmRSS:\t    4096 kB\n"
    "RssAnon:\t     1000 kB\n"
    "RssFile:\t    3096 kB\n"
    "RssShmem:\t       0 kB\n"
    "Threads:\t1\n";

TEST(MemoryProbeTest, ParsesSampleStatus) {
  absl::StatusOr<ProcStatus> status = ParseProcStatus(kSample);
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_EQ(status->rss_anon, 1000u * 1024);
  EXPECT_EQ(status->vm_rss, 4096u * 1024);
  EXPECT_EQ(status->vm_hwm, 5120u * 1024);
}

TEST(MemoryProbeTest, MissingFieldIsAnError) {
  EXPECT_FALSE(ParseProcStatus("VmHWM:\t1 kB\nVmRSS:\t1 kB\n").ok());
  EXPECT_FALSE(ParseProcStatus("").ok());
}

TEST(MemoryProbeTest, MalformedValueIsAnError) {
  EXPECT_FALSE(
      ParseProcStatus("VmHWM:\t1 kB\nVmRSS:\t1 kB\nRssAnon:\tlots kB\n").ok());
  EXPECT_FALSE(
      ParseProcStatus("VmHWM:\t1 kB\nVmRSS:\t1 kB\nRssAnon:\t12\n").ok());
}

TEST(MemoryProbeTest, SeesMemoryTouchedByThisProcess) {
  TrimHeap();
  absl::StatusOr<ProcStatus> before = ReadProcStatus();
  ASSERT_TRUE(before.ok()) << before.status();
  constexpr size_t kBytes = 64 << 20;
  std::unique_ptr<char[]> block(new char[kBytes]);
  std::memset(block.get(), 1, kBytes);  // resident only once touched
  absl::StatusOr<ProcStatus> after = ReadProcStatus();
  ASSERT_TRUE(after.ok());
  EXPECT_GE(after->rss_anon, before->rss_anon + kBytes * 9 / 10);
  EXPECT_GE(after->vm_hwm, after->vm_rss);
  volatile char sink = block[kBytes / 2];
  (void)sink;
}

TEST(MemoryProbeTest, ResetPeakLowersTheHighWaterMark) {
  {
    constexpr size_t kBytes = 64 << 20;
    std::unique_ptr<char[]> block(new char[kBytes]);
    std::memset(block.get(), 1, kBytes);
  }
  TrimHeap();
  if (!ResetPeakRss().ok()) GTEST_SKIP() << "clear_refs unavailable here";
  absl::StatusOr<ProcStatus> status = ReadProcStatus();
  ASSERT_TRUE(status.ok());
  // Right after a reset the peak is the current RSS (plus what reading the
  // file allocated).
  EXPECT_LT(status->vm_hwm, status->vm_rss + (8 << 20));
}

}  // namespace
}  // namespace kvbench
