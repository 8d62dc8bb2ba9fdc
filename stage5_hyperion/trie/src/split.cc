// Split containers (split.h): finding the piece for a key byte, cutting a
// container that grew too large, and dropping a piece a Delete emptied.
//
// A cut happens after a Put, once the operation's splices and upkeep in
// the container are done: its nodes are copied into two new containers,
// the first T-node of the second re-encoded from 0 (every other byte,
// jump successors included, keeps its meaning: a jump successor counts
// bytes up to the next sibling, which stays in the same piece). The jump
// table is not copied; the next lookup that walks too far rebuilds one.

#include <algorithm>
#include <string>

#include "hyperion_trie.h"
#include "write.h"

namespace kvlab::stage5 {

using hyperion::Node;
using hyperion::Region;

namespace {

// A directory's bytes: the header (size field 0) and the entries.
struct DirectoryEntry {
  uint8_t key;
  HyperionPointer hp;
  uint64_t keys;
};

std::string DirectoryBytes(const std::vector<DirectoryEntry>& entries) {
  std::string out(hyperion::SplitDirectoryBytes(uint32_t(entries.size())),
                  '\0');
  auto* d = reinterpret_cast<uint8_t*>(out.data());
  d[4] = uint8_t(entries.size());
  for (uint32_t j = 0; j < entries.size(); ++j) {
    uint8_t* e = d + hyperion::PieceEntryPos(j);
    e[0] = j == 0 ? 0 : entries[j].key;
    entries[j].hp.Store(e + 1);
    hyperion::StoreCount(hyperion::PieceCountAt(d, j), entries[j].keys);
  }
  return out;
}

std::vector<DirectoryEntry> DirectoryEntries(const uint8_t* d) {
  std::vector<DirectoryEntry> entries;
  for (uint32_t j = 0; j < hyperion::PieceCount(d); ++j) {
    entries.push_back({hyperion::PieceKey(d, j), hyperion::PiecePointer(d, j),
                       hyperion::PieceKeys(d, j)});
  }
  return entries;
}

uint32_t Distance(uint32_t a, uint32_t b) { return a > b ? a - b : b - a; }

}  // namespace

TrieWrite::Level TrieWrite::ChildLevel(const uint8_t* buf, uint32_t ref,
                                       std::string_view key,
                                       size_t depth) const {
  Level level{
      .hp = HyperionPointer::Load(buf + ref), .ref = ref, .depth = depth};
  const uint8_t* c = trie_.ResolveAhead(level.hp);
  if (hyperion::IsSplit(c)) {
    level.split = level.hp;
    level.piece = hyperion::PieceFor(c, uint8_t(key[depth]));
    level.hp = hyperion::PiecePointer(c, level.piece);
    trie_.ResolveAhead(level.hp);
  }
  return level;
}

const uint8_t* HyperionTrie::ContainerFor(HyperionPointer hp, uint8_t t) const {
  const uint8_t* c = ResolveAhead(hp);
  if (!hyperion::IsSplit(c)) return c;
  return ResolveAhead(hyperion::PiecePointer(c, hyperion::PieceFor(c, t)));
}

const uint8_t* HyperionTrie::ResolveAhead(HyperionPointer hp) const {
  const MemoryManager::Span span = mm_.ResolveSpan(hp);
  const auto* c = static_cast<const uint8_t*>(span.address);
  if (span.bytes <= options_.read_ahead) {
    hyperion::PrefetchBytes(c, span.bytes);
  }
  return c;
}

uint64_t TrieWrite::SplitThreshold(uint32_t size, uint64_t keys) const {
  const bool large_nodes = uint64_t{size} >= keys * options_.large_node;
  return large_nodes ? LowestSplitThreshold() : options_.split_above;
}

uint64_t TrieWrite::LowestSplitThreshold() const {
  return options_.split_large_above != 0
             ? std::min(options_.split_above, options_.split_large_above)
             : options_.split_above;
}

void TrieWrite::SplitIfLarge(size_t i) {
  if (options_.split_above == 0 || i == 0) return;
  const Level level = levels_[i];
  uint8_t* c = Base(i);
  const uint32_t size = hyperion::ContainerSize(c);
  const uint32_t delay = hyperion::ContainerSplitDelay(c);
  // Most Puts leave a container below either threshold: decided without
  // reading its key count.
  if (size <= LowestSplitThreshold() * (1 + 4 * delay)) return;
  const auto* dir = level.split.IsNull()
                        ? nullptr
                        : static_cast<const uint8_t*>(mm_.Resolve(level.split));
  const uint64_t keys = dir != nullptr
                            ? hyperion::PieceKeys(dir, level.piece)
                            : hyperion::LoadCount(Base(i - 1) + level.ref +
                                                  HyperionPointer::kBytes);
  if (size <= SplitThreshold(size, keys) * (1 + 4 * delay)) return;

  // The cut: the T-node nearest the middle of the nodes, never the first.
  const Region r = hyperion::WholeContainer(c);
  const uint32_t middle = r.begin + (r.end - r.begin) / 2;
  Node cut;
  bool found = false;
  for (hyperion::RegionCursor it(r); !it.done(); it.NextT()) {
    const Node& t = it.node();
    if (t.pos != r.begin) {
      if (!found || Distance(t.pos, middle) < Distance(cut.pos, middle)) {
        cut = t;
        found = true;
      }
      if (t.pos >= middle) break;  // the ones after are farther
    }
  }
  if (!found ||
      (dir != nullptr && hyperion::PieceCount(dir) >= hyperion::kMaxPieces)) {
    // Cannot cut: wait until the container has grown further.
    if (delay < 3) {
      undo_.SaveBytes(c, hyperion::kHeaderBytes);
      hyperion::StoreHeader(c, size, hyperion::ContainerFree(c),
                            hyperion::ContainerJumpBits(c), delay + 1);
    }
    return;
  }

  // Everything is read before the first chunk is allocated; the old ones
  // are freed only once the write is done (undo_log.h).
  const auto* bytes = reinterpret_cast<const char*>(c);
  const std::string first(bytes + r.begin, cut.pos - r.begin);
  std::string second = hyperion::Reencoded(cut, 0);
  second.append(bytes + cut.jump_pos, r.end - cut.jump_pos);
  std::vector<DirectoryEntry> entries;
  if (dir != nullptr) {
    entries = DirectoryEntries(dir);
  } else {
    entries.push_back({0, level.hp, keys});
  }
  DirectoryEntry& piece_a = entries[level.piece];
  DirectoryEntry piece_b{cut.key, HyperionPointer(), 0};

  undo_.FreeLater(level.hp);
  if (dir != nullptr) undo_.FreeLater(level.split);
  // Keys put in ascending order never come back to the first piece, so it
  // gets no room to grow; a later Put there moves it to a block that has.
  piece_a.hp = NewContainer(first, Fit::kExact);
  piece_b.hp = NewContainer(second);
  const uint64_t keys_a = hyperion::CountKeys(hyperion::WholeContainer(
      static_cast<const uint8_t*>(mm_.Resolve(piece_a.hp))));
  piece_b.keys = piece_a.keys - keys_a;
  piece_a.keys = keys_a;
  entries.insert(entries.begin() + level.piece + 1, piece_b);
  const HyperionPointer directory = NewChunkWith(DirectoryBytes(entries));
  uint8_t* ref = Base(i - 1) + level.ref;
  undo_.SaveBytes(ref, HyperionPointer::kBytes);
  directory.Store(ref);
  ++trie_.splits_;
}

void TrieWrite::RemovePiece(size_t i) {
  Level& level = levels_[i];
  level.finished = true;
  undo_.FreeLater(level.hp);
  const auto* dir = static_cast<const uint8_t*>(mm_.Resolve(level.split));
  std::vector<DirectoryEntry> entries = DirectoryEntries(dir);
  entries.erase(entries.begin() + level.piece);
  undo_.FreeLater(level.split);
  // The one piece left is a whole container again.
  const HyperionPointer replacement =
      entries.size() == 1 ? entries[0].hp
                          : NewChunkWith(DirectoryBytes(entries));
  uint8_t* ref = Base(i - 1) + level.ref;
  undo_.SaveBytes(ref, HyperionPointer::kBytes);
  replacement.Store(ref);
}

}  // namespace kvlab::stage5
