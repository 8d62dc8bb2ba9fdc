#include "kvlab/not_implemented.h"

namespace kvlab {

NotImplementedError::NotImplementedError(std::string_view function,
                                         std::string_view docs)
    : std::logic_error(std::string(function) + " is not written yet: read " +
                       std::string(docs)),
      function_(function),
      docs_(docs) {}

void ThrowNotImplemented(std::string_view function, std::string_view docs) {
  throw NotImplementedError(function, docs);
}

}  // namespace kvlab
