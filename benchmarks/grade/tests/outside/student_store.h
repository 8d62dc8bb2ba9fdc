// A student's course store, as an outside program writes it: the course API
// over a std::map behind one mutex, built against an installed kvlab (only
// <kvlab/course.h>, for the course's Slice) and graded by linking the
// grader (main.cc).

#ifndef STUDENT_STORE_H_
#define STUDENT_STORE_H_

#include <kvlab/course.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

class StudentStore {
 public:
  explicit StudentStore(uint64_t max_entries);
  bool get(Slice& key, Slice& value);
  bool put(Slice& key, Slice& value);
  bool del(Slice& key);
  bool get(int N, Slice& key, Slice& value);
  bool del(int N);

 private:
  std::mutex mu_;
  std::map<std::string, std::string> map_;
};

#endif  // STUDENT_STORE_H_
