// kvlab-draw: applies operations to a store and draws its structure after
// each one: DIR/step-0001.svg, ... and DIR/index.html, a page that steps
// through them (docs/kvlab-draw.md).
//
//   kvlab-draw --store=SPEC (--dataset=NAME --n=N [--seed=S] | --ops=FILE |
//              --op=OPERATION ...) --out=DIR [--max-nodes=N]
//              [--max-depth=D] [--from-key=KEY]

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "change.h"
#include "dot.h"
#include "kvbench/datasets.h"
#include "kvlab/kvlab.h"
#include "operations.h"
#include "page.h"

namespace kvdraw {
namespace {

constexpr char kUsage[] =
    "usage: kvlab-draw --store=SPEC --out=DIR and one of\n"
    "         --dataset=NAME --n=N [--seed=S]   puts of a kvbench data set\n"
    "         --ops=FILE                       one operation a line\n"
    "         --op=OPERATION (repeated)        e.g. --op='put b 2'\n"
    "       operations: put KEY VALUE, delete KEY, delete_nth N, get KEY\n"
    "       (C escapes in KEY and VALUE: a\\x00b)\n"
    "       --max-nodes=N   nodes drawn at most per step (default 60)\n"
    "       --max-depth=D   levels drawn below the start node\n"
    "       --from-key=KEY  draw the subtree under the node of KEY (a tree)\n"
    "                       or of the prefix KEY (a trie)\n";

// Steps drawn at most: each is one run of dot.
constexpr uint64_t kMaxSteps = 2000;

struct Flags {
  std::string store;
  std::string out;
  std::string dataset;
  uint64_t n = 0;
  uint64_t seed = 42;
  std::string ops_file;
  std::vector<std::string> ops;
  kvlab::StructureOptions options;
};

absl::Status Usage(const std::string& message) {
  return absl::InvalidArgumentError(absl::StrCat(message, "\n", kUsage));
}

absl::StatusOr<Flags> ParseFlags(int argc, char** argv) {
  Flags flags;
  flags.options.max_nodes = 60;
  bool has_n = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") return Usage("");
    const size_t eq = arg.find('=');
    if (arg.substr(0, 2) != "--" || eq == std::string_view::npos) {
      return Usage(
          absl::StrCat("expected --name=value, got '", std::string(arg), "'"));
    }
    const std::string name(arg.substr(2, eq - 2));
    const std::string value(arg.substr(eq + 1));
    auto number = [&](uint64_t* out) -> absl::Status {
      if (!absl::SimpleAtoi(value, out)) {
        return Usage(
            absl::StrCat("--", name, " needs a number, got '", value, "'"));
      }
      return absl::OkStatus();
    };
    absl::Status status;
    uint64_t parsed = 0;
    if (name == "store") {
      flags.store = value;
    } else if (name == "out") {
      flags.out = value;
    } else if (name == "dataset") {
      flags.dataset = value;
    } else if (name == "n") {
      status = number(&flags.n);
      has_n = true;
    } else if (name == "seed") {
      status = number(&flags.seed);
    } else if (name == "ops") {
      flags.ops_file = value;
    } else if (name == "op") {
      flags.ops.push_back(value);
    } else if (name == "max-nodes") {
      status = number(&parsed);
      flags.options.max_nodes = parsed;
    } else if (name == "max-depth") {
      status = number(&parsed);
      flags.options.max_depth = static_cast<int>(parsed);
    } else if (name == "from-key") {
      std::string error;
      if (!absl::CUnescape(value, &flags.options.from_key, &error)) {
        return Usage(absl::StrCat("--from-key: ", error));
      }
      flags.options.has_from_key = true;
    } else {
      return Usage(absl::StrCat("unknown flag --", name));
    }
    if (!status.ok()) return status;
  }
  if (flags.store.empty()) return Usage("--store is required");
  if (flags.out.empty()) return Usage("--out is required");
  const int sources =
      !flags.dataset.empty() + !flags.ops_file.empty() + !flags.ops.empty();
  if (sources != 1) {
    return Usage("give exactly one of --dataset, --ops and --op");
  }
  if (!flags.dataset.empty() && (!has_n || flags.n == 0)) {
    return Usage("--dataset needs --n=N (N >= 1)");
  }
  return flags;
}

absl::StatusOr<std::vector<Operation>> LoadOperations(const Flags& flags) {
  if (!flags.dataset.empty()) {
    if (flags.n > kMaxSteps) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--n=", flags.n, " draws too many steps (at most ", kMaxSteps, ")"));
    }
    absl::StatusOr<kvbench::DataSet> data =
        kvbench::GenerateDataSet(flags.dataset, flags.n, flags.seed);
    if (!data.ok()) return data.status();
    std::vector<Operation> ops;
    for (uint64_t i = 0; i < data->size(); ++i) {
      Operation op;
      op.key = std::string(data->key(i));
      op.value = std::string(data->value(i));
      ops.push_back(std::move(op));
    }
    return ops;
  }
  if (!flags.ops_file.empty()) {
    std::ifstream file(flags.ops_file, std::ios::binary);
    if (!file) {
      return absl::NotFoundError(
          absl::StrCat("cannot read --ops file ", flags.ops_file));
    }
    std::stringstream text;
    text << file.rdbuf();
    absl::StatusOr<std::vector<Operation>> ops = ParseOperations(text.str());
    if (!ops.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(flags.ops_file, ": ", ops.status().message()));
    }
    return ops;
  }
  std::vector<Operation> ops;
  for (const std::string& text : flags.ops) {
    absl::StatusOr<Operation> op = ParseOperation(text);
    if (!op.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--op='", text, "': ", op.status().message()));
    }
    ops.push_back(*std::move(op));
  }
  return ops;
}

std::string SummaryLine(const kvlab::StructureGraph& graph) {
  std::vector<std::string> parts;
  for (const kvlab::StructureField& field : graph.summary) {
    parts.push_back(absl::StrCat(field.name, " ", field.value));
  }
  if (graph.nodes_omitted > 0) {
    parts.push_back(absl::StrCat(graph.nodes_omitted, " node(s) not drawn"));
  }
  return absl::StrJoin(parts, ", ");
}

absl::Status WriteFile(const std::filesystem::path& path,
                       std::string_view text) {
  std::ofstream file(path, std::ios::binary);
  file << text;
  file.close();
  if (!file)
    return absl::InternalError(absl::StrCat("cannot write ", path.string()));
  return absl::OkStatus();
}

absl::Status Run(const Flags& flags) {
  absl::StatusOr<std::vector<Operation>> ops = LoadOperations(flags);
  if (!ops.ok()) return ops.status();
  if (ops->size() > kMaxSteps) {
    return absl::InvalidArgumentError(absl::StrCat(
        ops->size(), " operations: kvlab-draw draws at most ", kMaxSteps));
  }
  absl::StatusOr<std::unique_ptr<kvlab::KVStore>> store =
      kvlab::MakeStore(flags.store);
  if (!store.ok()) return store.status();
  const std::filesystem::path dir(flags.out);
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    return absl::InternalError(
        absl::StrCat("cannot create ", flags.out, ": ", error.message()));
  }
  kvlab::StructureGraph before;
  std::vector<PageStep> steps;
  for (size_t i = 0; i < ops->size(); ++i) {
    const Operation& op = (*ops)[i];
    absl::StatusOr<std::string> result = Apply(op, store->get());
    kvlab::StructureGraph after;
    absl::Status exported = (*store)->ExportStructure(flags.options, &after);
    if (exported.code() == absl::StatusCode::kNotFound &&
        flags.options.has_from_key) {
      // The key may come later: this step draws nothing and says why.
      after = kvlab::StructureGraph();
      after.summary.push_back({"--from-key", std::string(exported.message())});
    } else if (!exported.ok()) {
      return exported;
    }
    const Change change = Compare(before, after, op);
    PageStep step;
    step.operation = op.ToString();
    step.result = result.ok()
                      ? *result
                      : absl::StrCat("error: ", result.status().message());
    step.change = change.summary;
    if (!change.removed.empty()) {
      absl::StrAppend(&step.change, step.change.empty() ? "" : "; ",
                      "gone: ", absl::StrJoin(change.removed, " "));
    }
    step.summary = SummaryLine(after);
    const std::string caption = absl::StrCat(
        "step ", i + 1, ": ", step.operation, " -> ", step.result,
        step.change.empty() ? "" : "\n", step.change, "\n", step.summary);
    absl::StatusOr<std::string> svg = RenderSvg(ToDot(after, change, caption));
    if (!svg.ok()) return svg.status();
    step.svg = *std::move(svg);
    absl::Status written =
        WriteFile(dir / absl::StrFormat("step-%04d.svg", i + 1), step.svg);
    if (!written.ok()) return written;
    steps.push_back(std::move(step));
    before = std::move(after);
  }
  absl::Status written =
      WriteFile(dir / "index.html", PageHtml(flags.store, steps));
  if (!written.ok()) return written;
  std::cout << "kvlab-draw: " << steps.size() << " step(s) of " << flags.store
            << " in " << (dir / "index.html").string() << "\n";
  return absl::OkStatus();
}

}  // namespace
}  // namespace kvdraw

int main(int argc, char** argv) {
  absl::StatusOr<kvdraw::Flags> flags = kvdraw::ParseFlags(argc, argv);
  if (!flags.ok()) {
    std::cerr << "kvlab-draw: " << flags.status().message();
    return 2;
  }
  absl::Status status = kvdraw::Run(*flags);
  if (!status.ok()) {
    std::cerr << "kvlab-draw: " << status.message() << "\n";
    return 1;
  }
  return 0;
}
