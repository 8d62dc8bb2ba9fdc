// hyperion_dump: puts the keys given on the command line (each "key" or
// "key=value") into a hyperion store and prints every container, annotated
// node by node. The worked examples of docs/stage5_hyperion.md come from it:
//
//   hyperion_dump a and be that the to
//   hyperion_dump --embed=16 that the thio thou thus thy thz
//   hyperion_dump --embed=16 --jump_successor=256 ...   (any store option)
//   hyperion_dump --arenas=3 ...   (each arena's containers in turn)

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "kvlab/registry.h"
#include "kvlab/stage5/arena_store.h"
#include "kvlab/stage5/hyperion_store.h"
#include "kvlab/stage5/stores.h"

int main(int argc, char** argv) {
  // Leading --name=value flags are the store's options (kvbench --list).
  std::string spec = "hyperion";
  int first = 1;
  for (; first < argc && std::string_view(argv[first]).substr(0, 2) == "--";
       ++first) {
    spec += ':';
    spec += argv[first] + 2;
  }
  // The registry checks option names and ranges as kvbench does.
  kvlab::StoreRegistry registry;
  kvlab::RegisterStage5Stores(&registry);
  absl::StatusOr<std::unique_ptr<kvlab::KVStore>> made = registry.Make(spec);
  if (!made.ok()) {
    std::fprintf(stderr, "hyperion_dump: %s\n",
                 std::string(made.status().message()).c_str());
    return 2;
  }
  kvlab::KVStore& store = **made;
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
  const absl::Status broken = store.CheckInvariants();
  if (const auto* arenas =
          dynamic_cast<const kvlab::stage5::HyperionArenaStore*>(&store)) {
    for (size_t a = 0; a < arenas->arena_count(); ++a) {
      std::printf("arena %zu:\n", a);
      std::fputs(arenas->arena(a).DebugString().c_str(), stdout);
    }
  } else {
    std::fputs(static_cast<const kvlab::stage5::HyperionStore&>(store)
                   .DebugString()
                   .c_str(),
               stdout);
  }
  if (!broken.ok()) {
    std::fprintf(stderr, "invariant broken: %s\n",
                 std::string(broken.message()).c_str());
    return 1;
  }
  return 0;
}
