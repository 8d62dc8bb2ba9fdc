#include "grade_flags.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace kvgrade {
namespace {

absl::Status Bad(const std::string& flag, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("--", flag, ": ", what));
}

}  // namespace

std::string GradeUsage(const std::string& program) {
  const GradeOptions d;
  return absl::StrCat(
      "Usage: ", program,
      " [flags]\n"
      "Grades a store the way the course did: load, checked phase, timed "
      "phase.\n"
      "  --store=SPEC          (kvgrade) the registered store, e.g. avl\n"
      "  --stage=stageN        rubric section (default: the store's stage), "
      "or\n"
      "                        an assignment's (stage4_wormhole: its own "
      "lines,\n"
      "                        its stage's where it has none)\n"
      "  --n=N                 pairs to load (default ",
      d.n, ")\n",
      "  --threads=T           threads of the timed phase (default ", d.threads,
      ")\n", "  --seconds=S           length of the timed phase (default ",
      d.seconds, ")\n",
      "  --seed=S              data and operations seed (default ", d.seed,
      ")\n", "  --checked_operations=K  checked operations (default ",
      d.checked_operations, ")\n",
      "  --load_timeout=S      the load time limit (default ", d.load_timeout,
      ")\n", "  --check_timeout=S     the checked phase time limit (default ",
      d.check_timeout, ")\n",
      "  --rubric=FILE         thresholds per stage (default ",
      DefaultRubricPath(), ")\n",
      "  --json=FILE           also write the result as one JSON object\n"
      "  --allow_debug         grade a debug build (numbers marked "
      "UNRELIABLE)\n"
      "  --free_slices=false   (outside programs) keep returned Slice data\n"
      "  --allow_memory_overcommit  (kvgrade) skip the memory guard\n"
      "Exit status: 0 pass, 1 fail, 2 usage error or refused build.\n");
}

absl::Status ParseGradeFlags(const std::vector<std::string>& args,
                             const std::vector<std::string>& passthrough,
                             GradeOptions* options, bool* help) {
  *help = false;
  for (const std::string& arg : args) {
    if (arg == "--help" || arg == "-h") {
      *help = true;
      continue;
    }
    if (arg.rfind("--", 0) != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "unexpected argument '", arg, "' (flags are --name=value)"));
    }
    const size_t eq = arg.find('=');
    const std::string name =
        arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    const bool has_value = eq != std::string::npos;
    const std::string value = has_value ? arg.substr(eq + 1) : "";
    bool known = false;
    for (const std::string& p : passthrough) known |= p == name;
    if (known) continue;
    auto need_value = [&]() -> absl::Status {
      if (!has_value || value.empty()) return Bad(name, "needs a value");
      return absl::OkStatus();
    };
    auto positive_int = [&](uint64_t* out, uint64_t max) -> absl::Status {
      if (absl::Status s = need_value(); !s.ok()) return s;
      uint64_t v = 0;
      if (!absl::SimpleAtoi(value, &v) || v == 0 || v > max) {
        return Bad(name, absl::StrCat("'", value, "' is not an integer in [1, ",
                                      max, "]"));
      }
      *out = v;
      return absl::OkStatus();
    };
    auto positive_double = [&](double* out) -> absl::Status {
      if (absl::Status s = need_value(); !s.ok()) return s;
      double v = 0;
      if (!absl::SimpleAtod(value, &v) || !std::isfinite(v) || v <= 0) {
        return Bad(name,
                   absl::StrCat("'", value, "' is not a positive number"));
      }
      *out = v;
      return absl::OkStatus();
    };
    absl::Status status;
    if (name == "n") {
      status = positive_int(&options->n, 200'000'000);
    } else if (name == "threads") {
      uint64_t t = 0;
      status = positive_int(&t, 256);
      options->threads = static_cast<int>(t);
    } else if (name == "seconds") {
      status = positive_double(&options->seconds);
    } else if (name == "seed") {
      status = need_value();
      if (status.ok() && !absl::SimpleAtoi(value, &options->seed)) {
        status = Bad(name, absl::StrCat("'", value, "' is not an integer"));
      }
    } else if (name == "checked_operations") {
      status = positive_int(&options->checked_operations, 100'000'000);
    } else if (name == "load_timeout") {
      status = positive_double(&options->load_timeout);
    } else if (name == "check_timeout") {
      status = positive_double(&options->check_timeout);
    } else if (name == "stage") {
      status = need_value();
      options->stage = value;
    } else if (name == "rubric") {
      status = need_value();
      options->rubric = value;
    } else if (name == "json") {
      status = need_value();
      options->json = value;
    } else if (name == "allow_debug") {
      if (has_value && value != "true" && value != "false") {
        status = Bad(name, "is true or false");
      }
      options->allow_debug = !has_value || value == "true";
    } else if (name == "free_slices") {
      // Read by GradeCourseApi (kvlab/grade.h); accepted everywhere.
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag '--", name, "' (see --help)"));
    }
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

std::string DefaultRubricPath() {
  if (const char* env = std::getenv("KVLAB_RUBRIC"); env != nullptr && *env) {
    return env;
  }
  // The copy `make install` puts under its default prefix, then the source
  // tree's (an install elsewhere passes --rubric or sets KVLAB_RUBRIC).
  for (const char* path : {KVGRADE_INSTALLED_RUBRIC, KVGRADE_SOURCE_RUBRIC}) {
    std::error_code error;
    if (std::filesystem::exists(path, error)) return path;
  }
  return KVGRADE_SOURCE_RUBRIC;
}

}  // namespace kvgrade
