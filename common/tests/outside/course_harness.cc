// An outside program, as a course harness is: it knows only <kvlab/course.h>
// and is built against an installed kvlab with
//
//   g++ -std=c++20 course_harness.cc $(pkg-config --cflags --libs --static
//   kvlab)
//
// It runs the course benchmark's checked phase: load pairs, then operations
// each compared with a std::map. Usage: course_harness [spec] [pairs] [ops].
// Prints "checked phase: OK ..." and exits 0, or the first mismatch and 1.

#include <kvlab/course.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <random>
#include <string>

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

}  // namespace

int main(int argc, char** argv) {
  const char* spec = argc > 1 ? argv[1] : nullptr;
  const int pairs = argc > 2 ? std::atoi(argv[2]) : 20000;
  const int ops = argc > 3 ? std::atoi(argv[3]) : 10000;
  kvStore store = spec ? kvStore(pairs, spec) : kvStore(pairs);
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
  std::printf(
      "checked phase: OK (%s, %d pairs loaded, %d operations checked)\n",
      spec ? spec : "default store", pairs, ops);
  return 0;
}
