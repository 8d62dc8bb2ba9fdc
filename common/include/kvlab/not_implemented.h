// NotImplemented: the body of a function a course handout leaves to the
// student (docs/teaching.md).
//
// `make handout` replaces the statements of each such function with one
// call naming the function, the section of the docs that explains it, and
// the function's parameters:
//
//   bool BstStore::PutImpl(std::string_view key, std::string_view value) {
//     kvlab::NotImplemented("BstStore::PutImpl",
//                           "docs/stage1_bst.md#2-search-and-insert", key,
//                           value);
//   }
//
// The call throws NotImplementedError, so the test that reached it fails
// with a message naming both, and GoogleTest goes on with the next test. The
// parameters are taken and ignored so that the stub compiles under -Werror
// (no unused parameter), and the call never returns, so the stub needs no
// return statement whatever the function returns.

#ifndef KVLAB_NOT_IMPLEMENTED_H_
#define KVLAB_NOT_IMPLEMENTED_H_

#include <stdexcept>
#include <string>
#include <string_view>

namespace kvlab {

// What a stub throws. what() is "<function> is not written yet: read
// <docs>".
class NotImplementedError : public std::logic_error {
 public:
  NotImplementedError(std::string_view function, std::string_view docs);

  const std::string& function() const { return function_; }
  const std::string& docs() const { return docs_; }

 private:
  std::string function_;
  std::string docs_;
};

// Throws NotImplementedError(function, docs).
[[noreturn]] void ThrowNotImplemented(std::string_view function,
                                      std::string_view docs);

// The stub itself: throws NotImplementedError(function, docs); `parameters`
// are the stubbed function's parameters, ignored.
template <typename... Parameters>
[[noreturn]] void NotImplemented(std::string_view function,
                                 std::string_view docs,
                                 const Parameters&... /*parameters*/) {
  ThrowNotImplemented(function, docs);
}

}  // namespace kvlab

#endif  // KVLAB_NOT_IMPLEMENTED_H_
