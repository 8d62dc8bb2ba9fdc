#include "kvbench/run_in_child.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "gtest/gtest.h"

namespace kvbench {
namespace {

TEST(RunInChildTest, ReturnsWhatTheChildWrote) {
  const pid_t parent = getpid();
  ChildOutcome outcome = RunInChild(
      [parent] { return getpid() != parent ? "in a child" : "in the parent"; },
      10);
  ASSERT_EQ(outcome.kind, ChildOutcome::Kind::kExited);
  EXPECT_EQ(outcome.exit_code, 0);
  EXPECT_EQ(outcome.payload, "in a child");
}

TEST(RunInChildTest, LargePayloadArrivesWhole) {
  std::string big(3 << 20, 'x');  // far beyond a pipe's buffer
  big[12345] = '\0';
  ChildOutcome outcome = RunInChild([&big] { return big; }, 10);
  ASSERT_EQ(outcome.kind, ChildOutcome::Kind::kExited);
  EXPECT_EQ(outcome.payload, big);
}

TEST(RunInChildTest, ReportsACrashBySignal) {
  ChildOutcome outcome = RunInChild(
      []() -> std::string {
        // Sanitizers catch SIGSEGV and exit instead; restore the default
        // action so the child really dies by the signal.
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
        return "unreachable";
      },
      10);
  ASSERT_EQ(outcome.kind, ChildOutcome::Kind::kSignaled);
  EXPECT_EQ(outcome.signal, SIGSEGV);
  EXPECT_EQ(DescribeOutcome(outcome).rfind("crashed: signal 11", 0), 0u)
      << DescribeOutcome(outcome);

  ChildOutcome aborted = RunInChild([]() -> std::string { std::abort(); }, 10);
  ASSERT_EQ(aborted.kind, ChildOutcome::Kind::kSignaled);
  EXPECT_EQ(aborted.signal, SIGABRT);
}

TEST(RunInChildTest, UncaughtExceptionExitsOne) {
  ChildOutcome outcome =
      RunInChild([]() -> std::string { throw std::runtime_error("boom"); }, 10);
  ASSERT_EQ(outcome.kind, ChildOutcome::Kind::kExited);
  EXPECT_EQ(outcome.exit_code, 1);
  EXPECT_TRUE(outcome.payload.empty());
}

TEST(RunInChildTest, KillsAChildThatOverrunsItsTimeout) {
  const auto start = std::chrono::steady_clock::now();
  ChildOutcome outcome = RunInChild(
      [] {
        std::this_thread::sleep_for(std::chrono::seconds(30));
        return std::string("late");
      },
      0.3);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_EQ(outcome.kind, ChildOutcome::Kind::kTimedOut);
  EXPECT_LT(seconds, 10);
}

}  // namespace
}  // namespace kvbench
