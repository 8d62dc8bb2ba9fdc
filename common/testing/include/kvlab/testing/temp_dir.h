// A fresh directory for one test, removed with everything in it when the
// object goes away.

#ifndef KVLAB_TESTING_TEMP_DIR_H_
#define KVLAB_TESTING_TEMP_DIR_H_

#include <stdlib.h>

#include <filesystem>
#include <string>

namespace kvlab::testing {

// A new directory under the system's temporary directory.
class TempDir {
 public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "kvlab-durable-XXXXXX")
            .string();
    path_ = ::mkdtemp(pattern.data());
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace kvlab::testing

#endif  // KVLAB_TESTING_TEMP_DIR_H_
