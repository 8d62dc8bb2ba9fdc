#include "kvlab/durable/directory_lock.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kvlab/testing/temp_dir.h"

namespace kvlab::durable {
namespace {

using ::kvlab::testing::TempDir;
using ::testing::HasSubstr;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A run of directory_lock_child: its pid, standard input (closing it ends a
// "hold") and standard output.
struct Child {
  pid_t pid = -1;
  int in = -1;
  int out = -1;

  // The child's output up to end of file or the first newline.
  std::string ReadLine() const {
    std::string line;
    char c;
    while (::read(out, &c, 1) == 1 && c != '\n') line += c;
    return line;
  }
  // Waits for the child; its exit code, or 128 + the signal that killed it.
  int Wait() {
    int status = 0;
    ::waitpid(pid, &status, 0);
    ::close(in);
    ::close(out);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
};

Child Spawn(const char* mode, const std::string& dir) {
  int to_child[2], from_child[2];
  EXPECT_EQ(::pipe(to_child), 0);
  EXPECT_EQ(::pipe(from_child), 0);
  Child child;
  child.pid = ::fork();
  if (child.pid == 0) {
    ::dup2(to_child[0], STDIN_FILENO);
    ::dup2(from_child[1], STDOUT_FILENO);
    ::close(to_child[0]);
    ::close(to_child[1]);
    ::close(from_child[0]);
    ::close(from_child[1]);
    ::execl(KVLAB_DIRECTORY_LOCK_CHILD, KVLAB_DIRECTORY_LOCK_CHILD, mode,
            dir.c_str(), nullptr);
    ::_exit(127);
  }
  ::close(to_child[0]);
  ::close(from_child[1]);
  child.in = to_child[1];
  child.out = from_child[0];
  return child;
}

TEST(DirectoryLockTest, HolderWritesItsPidAndClearsItOnRelease) {
  TempDir dir;
  {
    auto lock = DirectoryLock::Acquire(dir.path());
    ASSERT_TRUE(lock.ok()) << lock.status();
    EXPECT_EQ((*lock)->dir(), dir.path());
    EXPECT_EQ(ReadFile(dir.path() + "/LOCK"), absl::StrCat(::getpid(), "\n"));
  }
  EXPECT_TRUE(std::filesystem::exists(dir.path() + "/LOCK"));
  EXPECT_EQ(ReadFile(dir.path() + "/LOCK"), "");
}

TEST(DirectoryLockTest, SameProcessTwiceIsRefusedUntilReleased) {
  TempDir dir;
  auto first = DirectoryLock::Acquire(dir.path());
  ASSERT_TRUE(first.ok()) << first.status();
  auto second = DirectoryLock::Acquire(dir.path());
  ASSERT_FALSE(second.ok());
  EXPECT_TRUE(absl::IsFailedPrecondition(second.status())) << second.status();
  EXPECT_THAT(std::string(second.status().message()), HasSubstr(dir.path()));
  EXPECT_THAT(std::string(second.status().message()),
              HasSubstr(absl::StrCat("pid ", ::getpid())));
  // A refused attempt leaves the holder's lock and pid alone.
  EXPECT_EQ(ReadFile(dir.path() + "/LOCK"), absl::StrCat(::getpid(), "\n"));
  first->reset();
  auto third = DirectoryLock::Acquire(dir.path());
  EXPECT_TRUE(third.ok()) << third.status();
}

TEST(DirectoryLockTest, AnotherPathToTheSameDirectoryIsRefused) {
  TempDir dir;
  const std::string link = dir.path() + "/link";
  std::filesystem::create_directory(dir.path() + "/db");
  std::filesystem::create_directory_symlink(dir.path() + "/db", link);
  auto first = DirectoryLock::Acquire(dir.path() + "/db");
  ASSERT_TRUE(first.ok()) << first.status();
  auto second = DirectoryLock::Acquire(link);
  EXPECT_TRUE(absl::IsFailedPrecondition(second.status())) << second.status();
  auto third = DirectoryLock::Acquire(dir.path() + "/db/.");
  EXPECT_TRUE(absl::IsFailedPrecondition(third.status())) << third.status();
}

TEST(DirectoryLockTest, DifferentDirectoriesAreIndependent) {
  TempDir a, b;
  auto lock_a = DirectoryLock::Acquire(a.path());
  auto lock_b = DirectoryLock::Acquire(b.path());
  EXPECT_TRUE(lock_a.ok()) << lock_a.status();
  EXPECT_TRUE(lock_b.ok()) << lock_b.status();
}

TEST(DirectoryLockTest, MissingDirectoryIsNotFound) {
  TempDir dir;
  auto lock = DirectoryLock::Acquire(dir.path() + "/absent");
  EXPECT_TRUE(absl::IsNotFound(lock.status())) << lock.status();
  EXPECT_THAT(std::string(lock.status().message()),
              HasSubstr(dir.path() + "/absent/LOCK"));
}

TEST(DirectoryLockTest, ExactlyOneOfManyThreadsGetsIt) {
  TempDir dir;
  constexpr int kThreads = 8;
  for (int round = 0; round < 20; ++round) {
    std::vector<std::unique_ptr<DirectoryLock>> held(kThreads);
    std::atomic<int> refused{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        auto lock = DirectoryLock::Acquire(dir.path());
        if (lock.ok()) {
          held[t] = *std::move(lock);
        } else if (absl::IsFailedPrecondition(lock.status())) {
          refused.fetch_add(1);
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    int owners = 0;
    for (const auto& lock : held) owners += lock != nullptr;
    ASSERT_EQ(owners, 1) << "round " << round;
    ASSERT_EQ(refused.load(), kThreads - 1) << "round " << round;
  }
}

TEST(DirectoryLockTest, AnotherProcessHoldingItIsNamedAndKillReleasesIt) {
  TempDir dir;
  Child holder = Spawn("hold", dir.path());
  ASSERT_EQ(holder.ReadLine(), "locked");
  auto lock = DirectoryLock::Acquire(dir.path());
  ASSERT_FALSE(lock.ok());
  EXPECT_TRUE(absl::IsFailedPrecondition(lock.status())) << lock.status();
  EXPECT_THAT(std::string(lock.status().message()), HasSubstr(dir.path()));
  EXPECT_THAT(std::string(lock.status().message()),
              HasSubstr(absl::StrCat("process ", holder.pid)));
  // The kernel lets go of a killed holder's lock: no stale lock to clean up.
  ::kill(holder.pid, SIGKILL);
  EXPECT_EQ(holder.Wait(), 128 + SIGKILL);
  lock = DirectoryLock::Acquire(dir.path());
  EXPECT_TRUE(lock.ok()) << lock.status();
}

TEST(DirectoryLockTest, AnotherProcessIsRefusedWhileThisOneHoldsIt) {
  TempDir dir;
  {
    auto lock = DirectoryLock::Acquire(dir.path());
    ASSERT_TRUE(lock.ok()) << lock.status();
    Child child = Spawn("try", dir.path());
    const std::string message = child.ReadLine();
    EXPECT_EQ(child.Wait(), 3) << message;
    EXPECT_THAT(message, HasSubstr(dir.path()));
    EXPECT_THAT(message, HasSubstr(absl::StrCat("process ", ::getpid())));
  }
  Child child = Spawn("try", dir.path());
  EXPECT_EQ(child.Wait(), 0);
}

TEST(DirectoryLockTest, HolderThatExitsReleasesIt) {
  TempDir dir;
  Child holder = Spawn("hold", dir.path());
  ASSERT_EQ(holder.ReadLine(), "locked");
  ::close(holder.in);
  holder.in = -1;
  EXPECT_EQ(holder.Wait(), 0);
  auto lock = DirectoryLock::Acquire(dir.path());
  EXPECT_TRUE(lock.ok()) << lock.status();
}

}  // namespace
}  // namespace kvlab::durable
