// The descent from a region to a key: the one walk Get, Put, Delete and a
// scan's start share (paper, section 3.1).
//
// A key is read two bytes at a time: its byte `depth` picks a T-node of the
// region, byte `depth + 1` one of that T-node's S-children. If the key
// goes on, the S-node's child continues it: a pointer child's container or
// an embedded container is the next region (depth + 2), and a suffix or a
// missing child ends the descent. Descend reports where it stopped and
// what it found there; what each operation does on the way (recording the
// levels a write will change, the scan's stack) is the `Path` it passes.

#ifndef KVLAB_STAGE5_DESCENT_H_
#define KVLAB_STAGE5_DESCENT_H_

#include <cstddef>
#include <cstdint>
#include <new>
#include <string_view>
#include <type_traits>

#include "absl/base/attributes.h"
#include "container_scan.h"
#include "node.h"

namespace kvlab::stage5::hyperion {

// Where a descent stopped, with `t` and `s` below:
enum class Stop : uint8_t {
  kNoT,      // no T-node has key[depth]: `t` is the insertion point
  kEndsAtT,  // the key ends at T-node `t.node`
  kNoS,      // `t.node` has no S-child key[depth + 1]: `s` the insertion point
  kEndsAtS,  // the key ends at S-node `s.node`
  kNoChild,  // the key goes on below `s.node`, which has no child
  kSuffix,   // ... whose child is a suffix (the caller compares the rest)
};

struct Descent {
  Stop stop = Stop::kNoT;
  // The region the descent stopped in, and the key byte its T-nodes hold.
  Region region;
  size_t depth = 0;
  SiblingSearch t;  // the search for key[depth]
  SiblingSearch s;  // for key[depth + 1]: only from kNoS on
};

// What a Path gives Descend: it is told of every T-node search and of every
// S-node the key passes below, and resolves a pointer child. Derive from
// PathBase to take the no-op defaults.
//
//   void SawT(const Descent& d);   // d.t was just searched in d.region
//   void PassS(const Descent& d);  // the key goes on below d.s.node
//   // The container of pointer child `s` of `buf`, whose T-nodes hold key
//   // byte `depth`.
//   const uint8_t* EnterPointer(const uint8_t* buf, const Node& s,
//                               size_t depth);
//   void EnterEmbedded(const uint8_t* buf, const Node& s, size_t depth);
struct PathBase {
  void SawT(const Descent&) {}
  void PassS(const Descent&) {}
  void EnterEmbedded(const uint8_t*, const Node&, size_t) {}
};

static_assert(std::is_trivially_destructible_v<SiblingSearch>);

// Descends from `region` (whose T-nodes hold key[0]) to non-empty `key`.
// Inlined: with the Path's calls it is the hot loop of every lookup.
template <typename Path>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline Descent Descend(Region region,
                                                    std::string_view key,
                                                    Path& path) {
  Descent d;
  while (true) {
    d.region = region;
    // The searches' results are constructed in place: assigned, each would
    // be copied from a temporary, 56 bytes on every step of every lookup.
    ::new (&d.t) SiblingSearch(FindT(region, uint8_t(key[d.depth])));
    path.SawT(d);
    if (!d.t.found) {
      d.stop = Stop::kNoT;
      return d;
    }
    if (key.size() == d.depth + 1) {
      d.stop = Stop::kEndsAtT;
      return d;
    }
    ::new (&d.s)
        SiblingSearch(FindS(region, d.t.node, uint8_t(key[d.depth + 1])));
    if (!d.s.found) {
      d.stop = Stop::kNoS;
      return d;
    }
    if (key.size() == d.depth + 2) {
      d.stop = Stop::kEndsAtS;
      return d;
    }
    path.PassS(d);
    const Node& s = d.s.node;
    switch (s.child) {
      case ChildKind::kNone:
        d.stop = Stop::kNoChild;
        return d;
      case ChildKind::kSuffix:
        d.stop = Stop::kSuffix;
        return d;
      case ChildKind::kPointer:
        region = WholeContainer(path.EnterPointer(region.buf, s, d.depth + 2));
        break;
      case ChildKind::kEmbedded:
        path.EnterEmbedded(region.buf, s, d.depth + 2);
        region = EmbeddedRegion(region.buf, s.child_pos);
        break;
    }
    d.depth += 2;
  }
}

}  // namespace kvlab::stage5::hyperion

#endif  // KVLAB_STAGE5_DESCENT_H_
