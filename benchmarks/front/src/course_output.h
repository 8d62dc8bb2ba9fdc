// How the course API fills the Slices it hands back (course.h's contract):
// a malloc'd copy the caller owns on success, the shared empty Slice on any
// failure.

#ifndef KVLAB_COMMON_SRC_COURSE_OUTPUT_H_
#define KVLAB_COMMON_SRC_COURSE_OUTPUT_H_

#include <cstddef>
#include <string_view>

#include "kvlab/course.h"

namespace kvlab::course_output {

// Allocates like std::malloc (std::free releases what it returns): null
// when memory runs out.
using Allocator = void* (*)(size_t);

// Sets `out` to the empty Slice: size 0, data at a static one-byte buffer
// that is readable, not owned by the caller and never freed.
void SetEmpty(Slice& out);

// True if `out` is the empty Slice SetEmpty makes.
bool IsEmpty(const Slice& out);

// Sets `out` to a copy of `bytes` in memory from `allocate` (never null, even
// for no bytes). False, with `out` empty, if `bytes` is over 255 bytes or
// `allocate` fails.
bool CopyOut(std::string_view bytes, Slice& out, Allocator allocate);

// Both copies or neither: false, with both Slices empty and nothing
// allocated, if either copy fails.
bool CopyOutPair(std::string_view key, std::string_view value, Slice& key_out,
                 Slice& value_out, Allocator allocate);

}  // namespace kvlab::course_output

#endif  // KVLAB_COMMON_SRC_COURSE_OUTPUT_H_
