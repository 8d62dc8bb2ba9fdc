// An outside program, as a course harness is: it uses <kvlab/course.h> (and
// <kvlab/kvlab.h> only to list the stores) and is built against an installed
// kvlab with
//
//   g++ -std=c++20 course_harness.cc $(pkg-config --cflags --libs --static
//   kvlab)
//
// Usage: course_harness --list            the registered stores, one a line
//        course_harness [spec] [pairs] [ops]
// The second form runs two phases of the course benchmark on the store:
// - checked: load pairs, then operations each compared with a std::map;
// - threaded: four threads of the course mix, as the course's programs run
//   it: output Slices holding garbage before each call, N drawn from a size
//   counter the threads update without synchronisation (so it runs past the
//   store's size), the key of every get(N) passed to del whatever get
//   answered, and returned buffers not freed until the end.
// It prints one "... phase: OK" line per phase and exits 0, or the first
// failure and 1.

#include <kvlab/course.h>
#include <kvlab/kvlab.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

std::mt19937_64 rng(42);

std::string RandomText(int min_len, int max_len, bool letters_only) {
  static const char kLetters[] =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  std::string s(min_len + rng() % (max_len - min_len + 1), ' ');
  for (char& c : s) {
    c = letters_only ? kLetters[rng() % 52]
                     : static_cast<char>(32 + rng() % 95);
  }
  return s;
}

Slice In(std::string& s) {
  return Slice{static_cast<uint8_t>(s.size()), s.data()};
}

std::string Out(Slice& s) {
  std::string copy(s.data, s.size);
  std::free(s.data);
  return copy;
}

int Fail(const char* op, const std::string& key, const std::string& got,
         const std::string& want) {
  std::printf("MISMATCH in %s, key '%s': store said '%s', std::map says '%s'\n",
              op, key.c_str(), got.c_str(), want.c_str());
  return 1;
}

// The state course.h promises for the outputs of a call that answered false.
bool Empty(const Slice& s) { return s.size == 0 && s.data != nullptr; }

// Load, then each operation compared with a std::map. An unordered store
// (a hash map peer) must answer false to every get(N) and del(N).
int CheckedPhase(kvStore& store, bool ordered, int pairs, int ops) {
  std::map<std::string, std::string> model;
  for (int i = 0; i < pairs; ++i) {
    std::string key = RandomText(1, 64, true),
                value = RandomText(1, 255, false);
    Slice k = In(key), v = In(value);
    if (store.put(k, v) != (model.count(key) > 0)) {
      return Fail("put", key, "?", "?");
    }
    model[key] = value;
  }
  for (int i = 0; i < ops && !model.empty(); ++i) {
    Slice key_out, value_out;
    std::string key = std::next(model.begin(), rng() % model.size())->first;
    Slice k = In(key);
    switch (i % 5) {
      case 0:
        if (!store.get(k, value_out))
          return Fail("get", key, "absent", model[key]);
        if (std::string got = Out(value_out); got != model[key]) {
          return Fail("get", key, got, model[key]);
        }
        break;
      case 1: {
        std::string fresh = RandomText(1, 64, true),
                    value = RandomText(1, 255, false);
        Slice f = In(fresh), v = In(value);
        store.put(f, v);
        model[fresh] = value;
        if (!store.get(f, value_out) || Out(value_out) != value) {
          return Fail("put+get", fresh, "?", value);
        }
        break;
      }
      case 2:
        if (!store.del(k) || store.get(k, value_out)) {
          return Fail("del+get", key, "present", "deleted");
        }
        model.erase(key);
        break;
      case 3: {
        int n = static_cast<int>(rng() % model.size());
        auto it = std::next(model.begin(), n);
        if (!ordered) {
          if (store.get(n, key_out, value_out)) {
            return Fail("get(N) of an unordered store", it->first, "true",
                        "false");
          }
          if (!Empty(key_out) || !Empty(value_out)) {
            return Fail("get(N) of an unordered store", it->first,
                        "outputs set", "outputs empty");
          }
          break;
        }
        if (!store.get(n, key_out, value_out))
          return Fail("get(N)", it->first, "false", "true");
        std::string got_key = Out(key_out), got_value = Out(value_out);
        if (got_key != it->first || got_value != it->second) {
          return Fail("get(N)", it->first, got_key, it->first);
        }
        break;
      }
      case 4: {
        int n = static_cast<int>(rng() % model.size());
        auto it = std::next(model.begin(), n);
        if (!ordered) {
          if (store.del(n)) {
            return Fail("del(N) of an unordered store", it->first, "true",
                        "false");
          }
          break;
        }
        std::string nth = it->first;
        model.erase(it);
        Slice gone = In(nth);
        if (!store.del(n) || store.get(gone, value_out)) {
          return Fail("del(N)+get", nth, "present", "deleted");
        }
        break;
      }
    }
  }
  if (store.store().Size() != model.size()) {
    return Fail("size", "", std::to_string(store.store().Size()),
                std::to_string(model.size()));
  }
  return 0;
}

// What an uninitialised Slice may hold: size 255 and a pointer to one
// readable byte before an unreadable page, so reading it faults every time.
class Garbage {
 public:
  Garbage() : page_(static_cast<size_t>(sysconf(_SC_PAGESIZE))) {
    void* pages = mmap(nullptr, 2 * page_, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) std::abort();
    base_ = static_cast<char*>(pages);
    if (mprotect(base_ + page_, page_, PROT_NONE) != 0) std::abort();
  }
  ~Garbage() { munmap(base_, 2 * page_); }
  Garbage(const Garbage&) = delete;
  Garbage& operator=(const Garbage&) = delete;
  Slice Slice255() const { return Slice{255, base_ + page_ - 1}; }

 private:
  size_t page_;
  char* base_;
};

// What one thread of the threaded phase saw.
struct ThreadLog {
  std::vector<char*> owned;  // returned buffers, freed after the threads
  int past_the_end = 0;      // get(N) that answered false
  int not_emptied = 0;       // false answers that left an output set
};

// One thread of the threaded phase. `size` is the harness's shared counter:
// a relaxed load and a separate store lose updates as an unsynchronised int
// would, without the undefined behaviour.
void HarnessThread(kvStore& store, std::atomic<int>& size,
                   const std::vector<std::string>& keys, const Garbage& garbage,
                   int ops, unsigned seed, ThreadLog& log) {
  auto add = [&size](int delta) {
    size.store(size.load(std::memory_order_relaxed) + delta,
               std::memory_order_relaxed);
  };
  std::mt19937 local(seed);
  for (int i = 0; i < ops; ++i) {
    std::string key = keys[local() % keys.size()];
    Slice k = In(key);
    const int n = static_cast<int>(
        local() % (std::max(size.load(std::memory_order_relaxed), 0) + 1));
    switch (local() % 5) {
      case 0: {
        std::string value(local() % 256, static_cast<char>('a' + i % 26));
        Slice v = In(value);
        store.put(k, v);
        add(1);  // counts puts, replacements included, as harnesses do
        break;
      }
      case 1: {
        Slice v = garbage.Slice255();
        if (store.get(k, v)) {
          log.owned.push_back(v.data);
        } else if (!Empty(v)) {
          ++log.not_emptied;
        }
        break;
      }
      case 2:
        if (store.del(k)) add(-1);
        break;
      case 3: {
        Slice nth_key = garbage.Slice255(), nth_value = garbage.Slice255();
        if (store.get(n, nth_key, nth_value)) {
          log.owned.push_back(nth_key.data);
          log.owned.push_back(nth_value.data);
        } else {
          ++log.past_the_end;
          if (!Empty(nth_key) || !Empty(nth_value)) ++log.not_emptied;
        }
        // Whatever get answered, as the course's programs do.
        if (store.del(nth_key)) add(-1);
        break;
      }
      case 4:
        if (store.del(n)) add(-1);
        break;
    }
  }
}

int ThreadedPhase(kvStore& store, bool ordered, const char* name, int ops) {
  constexpr int kThreads = 4;
  std::set<std::string> distinct;
  while (distinct.size() < 500) distinct.insert(RandomText(1, 32, true));
  const std::vector<std::string> keys(distinct.begin(), distinct.end());
  for (std::string key : keys) {
    std::string value = "loaded";
    Slice k = In(key), v = In(value);
    store.put(k, v);
  }
  std::atomic<int> size(static_cast<int>(store.store().Size()));
  Garbage garbage;
  std::vector<ThreadLog> logs(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      HarnessThread(store, size, keys, garbage, ops, 7 + t, logs[t]);
    });
  }
  for (std::thread& thread : threads) thread.join();
  int failed_nth = 0, not_emptied = 0;
  for (ThreadLog& log : logs) {
    for (char* data : log.owned) std::free(data);
    failed_nth += log.past_the_end;
    not_emptied += log.not_emptied;
  }
  if (not_emptied > 0) {
    std::printf("threaded phase: %d false answers left their outputs set\n",
                not_emptied);
    return 1;
  }
  if (failed_nth == 0) {
    std::printf("threaded phase: no get(N) ran past the end\n");
    return 1;
  }
  // The store is still whole: it counts the keys it finds, and an ordered
  // store hands them out in key order.
  const uint64_t stored = store.store().Size();
  uint64_t found = 0;
  for (std::string key : keys) {
    Slice k = In(key), v;
    if (store.get(k, v)) {
      ++found;
      Out(v);
    }
  }
  if (found != stored) {
    return Fail("size after the threads", "", std::to_string(stored),
                std::to_string(found) + " keys found");
  }
  std::string previous;
  for (uint64_t n = 0; ordered && n < stored; ++n) {
    Slice k, v;
    if (!store.get(static_cast<int>(n), k, v)) {
      return Fail("get(N) after the threads", std::to_string(n), "false",
                  "true");
    }
    std::string key = Out(k);
    Out(v);
    if (n > 0 && !(previous < key)) {
      return Fail("order after the threads", key, key, "after " + previous);
    }
    previous = key;
  }
  std::printf(
      "threaded phase: OK (%s, %d threads x %d operations, %d get(N) that "
      "answered false, %llu pairs left)\n",
      name, kThreads, ops, failed_nth, static_cast<unsigned long long>(stored));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--list") == 0) {
    for (const kvlab::StoreInfo& info : kvlab::BuiltinStores().stores()) {
      std::printf("%s\n", info.name.c_str());
    }
    return 0;
  }
  const char* spec = argc > 1 ? argv[1] : nullptr;
  const int pairs = argc > 2 ? std::atoi(argv[2]) : 20000;
  const int ops = argc > 3 ? std::atoi(argv[3]) : 10000;
  kvStore checked = spec ? kvStore(pairs, spec) : kvStore(pairs);
  const std::string name(checked.store().Name());
  const bool ordered = kvlab::BuiltinStores().Find(name)->ordered;
  if (int status = CheckedPhase(checked, ordered, pairs, ops); status != 0) {
    return status;
  }
  std::printf(
      "checked phase: OK (%s, %d pairs loaded, %d operations checked)\n",
      name.c_str(), pairs, ops);
  kvStore threaded = spec ? kvStore(pairs, spec) : kvStore(pairs);
  return ThreadedPhase(threaded, ordered, name.c_str(), ops);
}
