// hyperion_dump: puts the keys given on the command line (each "key" or
// "key=value") into a hyperion store and prints every container, annotated
// node by node. The worked examples of docs/stage5_hyperion.md come from it:
//
//   hyperion_dump a and be that the to
//   hyperion_dump --embed=16 that the thio thou thus thy thz

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "hyperion_store.h"

int main(int argc, char** argv) {
  kvlab::stage5::HyperionOptions options;
  int first = 1;
  for (; first < argc; ++first) {
    const std::string_view arg = argv[first];
    if (arg.substr(0, 8) == "--embed=") {
      options.embed_limit = uint32_t(std::atoi(argv[first] + 8));
    } else if (arg.substr(0, 15) == "--inline_value=") {
      options.inline_value = uint32_t(std::atoi(argv[first] + 15));
    } else {
      break;
    }
  }
  kvlab::stage5::HyperionStore store(options);
  for (int i = first; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const size_t eq = arg.find('=');
    const std::string_view key = arg.substr(0, eq);
    const std::string_view value =
        eq == std::string_view::npos ? std::string_view() : arg.substr(eq + 1);
    if (!store.Put(key, value).ok()) {
      std::fprintf(stderr, "cannot put %s\n", argv[i]);
      return 1;
    }
  }
  const std::string broken = store.CheckInvariants();
  std::fputs(store.DebugString().c_str(), stdout);
  if (!broken.empty()) {
    std::fprintf(stderr, "invariant broken: %s\n", broken.c_str());
    return 1;
  }
  return 0;
}
