// The whole grading program of an outside store: the grader's main over the
// student's class. Build against an installed kvlab:
//   g++ -std=c++20 -O2 main.cc student_store.cc $(pkg-config --cflags --libs
//   --static kvgrade)

#include <kvlab/grade.h>

#include "student_store.h"

int main(int argc, char** argv) {
  return kvlab::grade::GradeCourseApi<StudentStore>(argc, argv, "student");
}
