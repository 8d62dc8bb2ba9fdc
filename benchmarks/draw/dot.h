// A structure graph drawn with Graphviz: the DOT text, and dot run on it.

#ifndef KVLAB_DRAW_DOT_H_
#define KVLAB_DRAW_DOT_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "change.h"
#include "kvlab/structure.h"

namespace kvdraw {

// The DOT text of `graph`, top to bottom: each node a table (its title,
// then one row per field), clusters as boxes, and what `change` found
// marked: new nodes green with a row "step: new", changed ones yellow
// ("step: changed"), re-linked ones red ("step: re-linked") and new links
// red and bold. `caption` is drawn above the graph. Node names in the DOT
// text are n0, n1, ... in export order, so the text does not depend on
// the store's ids (addresses).
std::string ToDot(const kvlab::StructureGraph& graph, const Change& change,
                  std::string_view caption);

// Runs Graphviz's `dot -Tsvg` on `dot_text` and returns the SVG. Fails
// with a message naming cmake/deps.sh draw if dot is not installed.
absl::StatusOr<std::string> RenderSvg(std::string_view dot_text);

}  // namespace kvdraw

#endif  // KVLAB_DRAW_DOT_H_
