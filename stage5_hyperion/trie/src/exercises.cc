#include "exercises.h"

namespace kvlab::hyperion {

int DeltaEncodedSiblings(std::string_view siblings) {
  // handout: hyperion::DeltaEncodedSiblings -> #exercises
  int encoded = 0;
  int previous = 0;  // the first sibling's delta counts from 0
  for (const char c : siblings) {
    const int key = static_cast<unsigned char>(c);
    encoded += key - previous >= 1 && key - previous <= 7;
    previous = key;
  }
  return encoded;
  // handout: end
}

}  // namespace kvlab::hyperion
