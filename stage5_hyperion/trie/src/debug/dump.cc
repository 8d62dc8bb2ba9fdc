// The dump tool: a container's bytes, annotated node by node. Used by tests
// and by the worked examples in docs/stage5_hyperion.md.
//
//   container 0x100001001: 32 bytes, 9 used, 23 free
//     0004  21 61            T 'a' inner, key explicit
//     0006  16 74            S 't' leaf, key explicit
//     0008  22               T 'e' leaf, delta 4

#include "debug/dump.h"

#include <cctype>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "hyperion_trie.h"
#include "jump_table.h"
#include "tnode_table.h"

namespace kvlab::stage5 {

using hyperion::ChildKind;
using hyperion::DumpRegion;
using hyperion::Node;
using hyperion::NodeType;
using hyperion::Region;

namespace {

std::string Hex(const uint8_t* p, uint32_t n) {
  std::string out;
  const uint32_t shown = n > 12 ? 12 : n;
  for (uint32_t i = 0; i < shown; ++i) {
    absl::StrAppendFormat(&out, "%s%02x", i ? " " : "", p[i]);
  }
  if (shown < n) out += " ..";
  return out;
}

std::string Printable(std::string_view bytes) {
  std::string out;
  for (char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isprint(c) && c != '\'' && c != '\\') {
      out.push_back(ch);
    } else {
      absl::StrAppendFormat(&out, "\\x%02x", c);
    }
  }
  return out;
}

std::string ValueText(const uint8_t* enc) {
  if (hyperion::IsExternal(enc)) {
    return absl::StrFormat("value -> chunk %#x",
                           hyperion::ExternalValue(enc).raw());
  }
  return absl::StrCat("value[", enc[0], "] '",
                      Printable(hyperion::InlineValue(enc)), "'");
}

const char* TypeText(NodeType type) {
  switch (type) {
    case NodeType::kInvalid:
      return "invalid";
    case NodeType::kInner:
      return "inner";
    case NodeType::kLeaf:
      return "leaf";
    case NodeType::kLeafValue:
      return "leaf+value";
  }
  return "?";
}

}  // namespace

namespace {

std::string JumpTableRowText(const hyperion::JumpTableEntry& e) {
  if (e.offset == 0) return "jump table: unused";
  return absl::StrFormat(
      "jump table: T '%s' at %04x, %d keys before",
      Printable(std::string_view(reinterpret_cast<const char*>(&e.key), 1)),
      e.offset, e.keys_before);
}

// Used entries only, by index: [i] 'key' +offset from the first child, and
// the keys before it.
std::string TNodeTableText(const uint8_t* table) {
  std::string text = ", table";
  const char* sep = " ";
  for (uint32_t e = 0; e < hyperion::kTNodeTableEntries; ++e) {
    const hyperion::TNodeTableEntry entry =
        hyperion::LoadTNodeTableEntry(table, e);
    if (!entry.used()) continue;
    absl::StrAppend(&text, sep, "[", e, "] '",
                    Printable(std::string_view(
                        reinterpret_cast<const char*>(&entry.key), 1)),
                    "' +", entry.offset, " after ", entry.keys_before);
    sep = ", ";
  }
  return text;
}

std::string ChildText(const uint8_t* buf, const Node& n) {
  switch (n.child) {
    case ChildKind::kNone:
      return "";
    case ChildKind::kPointer:
      return absl::StrFormat(
          ", -> container %#x (%d keys)",
          HyperionPointer::Load(buf + n.child_pos).raw(),
          hyperion::LoadCount(buf + n.child_pos + HyperionPointer::kBytes));
    case ChildKind::kEmbedded:
      return absl::StrCat(", embedded container of ", buf[n.child_pos],
                          " bytes:");
    case ChildKind::kSuffix: {
      const hyperion::Suffix sx = hyperion::DecodeSuffix(buf, n.child_pos);
      std::string text = absl::StrCat(", suffix '", Printable(sx.bytes), "'");
      if (sx.has_value) {
        absl::StrAppend(&text, " ", ValueText(buf + sx.value_pos));
      }
      return text;
    }
  }
  return "";
}

std::string NodeText(const uint8_t* buf, const Node& n) {
  std::string text = absl::StrCat(
      n.s ? "  S '" : "T '",
      Printable(std::string_view(reinterpret_cast<const char*>(&n.key), 1)),
      "' ", TypeText(n.type), ", ",
      hyperion::DeltaOf(n.header)
          ? absl::StrCat("delta ", hyperion::DeltaOf(n.header))
          : std::string("key explicit"));
  if (hyperion::HasJumpSuccessor(n.header)) {
    absl::StrAppend(&text, ", jump +", hyperion::LoadJump(buf + n.jump_pos),
                    " over ", hyperion::LoadJumpKeys(buf + n.jump_pos),
                    " keys");
  }
  if (hyperion::HasTNodeTable(n.header)) {
    text += TNodeTableText(buf + n.table_pos);
  }
  if (hyperion::IsBareLeaf(n.header)) {
    absl::StrAppend(&text, ", bare value '",
                    Printable(hyperion::BareValue(buf + n.value_pos)), "'");
  } else if (n.type == NodeType::kLeafValue) {
    absl::StrAppend(&text, ", ", ValueText(buf + n.value_pos));
  }
  return text + ChildText(buf, n);
}

}  // namespace

std::vector<hyperion::DumpRow> hyperion::RegionRows(const Region& region) {
  const uint8_t* buf = region.buf;
  std::vector<DumpRow> rows;
  for (uint32_t i = 0; i < region.table_entries; ++i) {
    const uint32_t at = kHeaderBytes + i * kJumpTableEntryBytes;
    rows.push_back({at, Hex(buf + at, kJumpTableEntryBytes),
                    JumpTableRowText(LoadJumpTableEntry(buf, i)),
                    std::nullopt});
  }
  for (RegionCursor it(region); !it.done(); it.Next()) {
    const Node& n = it.node();
    // An embedded container's own bytes are its rows, not its S-node's.
    const uint32_t shown = n.child == ChildKind::kEmbedded
                               ? n.child_pos + 1 - n.pos
                               : n.end - n.pos;
    rows.push_back({n.pos, Hex(buf + n.pos, shown), NodeText(buf, n), n});
  }
  return rows;
}

void hyperion::DumpRegion(const Region& region, int indent, std::string* out,
                          std::vector<HyperionPointer>* children) {
  for (const DumpRow& row : RegionRows(region)) {
    absl::StrAppendFormat(out, "%*s%04x  %-38s %s\n", indent, "", row.pos,
                          row.bytes, row.text);
    if (!row.node.has_value()) continue;
    const Node& n = *row.node;
    if (n.child == ChildKind::kPointer) {
      children->push_back(HyperionPointer::Load(region.buf + n.child_pos));
    } else if (n.child == ChildKind::kEmbedded) {
      DumpRegion(EmbeddedRegion(region.buf, n.child_pos), indent + 4, out,
                 children);
    }
  }
}

namespace {

// A split directory's pieces, a line each; appends their pointers to
// `pieces`.
std::string DumpSplit(HyperionPointer hp, const uint8_t* d,
                      std::vector<HyperionPointer>* pieces) {
  std::string out = absl::StrFormat("split container %#x: %d pieces\n",
                                    hp.raw(), hyperion::PieceCount(d));
  for (uint32_t j = 0; j < hyperion::PieceCount(d); ++j) {
    const HyperionPointer piece = hyperion::PiecePointer(d, j);
    const char key = char(hyperion::PieceKey(d, j));
    absl::StrAppendFormat(&out,
                          "  T-nodes from '%s': container %#x (%d keys)\n",
                          Printable(std::string_view(&key, 1)), piece.raw(),
                          hyperion::PieceKeys(d, j));
    pieces->push_back(piece);
  }
  return out;
}

}  // namespace

std::string HyperionTrie::DumpContainer(HyperionPointer hp) const {
  const auto* c = static_cast<const uint8_t*>(mm_.Resolve(hp));
  if (hyperion::IsSplit(c)) {
    std::vector<HyperionPointer> pieces;
    std::string out = DumpSplit(hp, c, &pieces);
    for (const HyperionPointer piece : pieces) out += DumpContainer(piece);
    return out;
  }
  std::string out = absl::StrFormat(
      "container %#x: %d bytes, %d used, %d free (header %s)\n", hp.raw(),
      hyperion::ContainerSize(c), hyperion::ContainerUsed(c),
      hyperion::ContainerFree(c), Hex(c, hyperion::kHeaderBytes));
  std::vector<HyperionPointer> children;
  DumpRegion(hyperion::WholeContainer(c), 2, &out, &children);
  return out;
}

std::string HyperionTrie::DebugString() const {
  std::string out =
      absl::StrCat("hyperion: ", size_, " keys",
                   has_empty_key_ ? " (empty key present)" : "", "\n");
  if (root_.IsNull()) return out + "(no root container)\n";
  // Breadth first: containers are dumped in the order they are found.
  std::vector<HyperionPointer> todo{root_};
  for (size_t next = 0; next < todo.size(); ++next) {
    const HyperionPointer hp = todo[next];
    const auto* c = static_cast<const uint8_t*>(mm_.Resolve(hp));
    if (hyperion::IsSplit(c)) {
      out += DumpSplit(hp, c, &todo);
      continue;
    }
    absl::StrAppendFormat(&out, "container %#x: %d bytes, %d used, %d free\n",
                          hp.raw(), hyperion::ContainerSize(c),
                          hyperion::ContainerUsed(c),
                          hyperion::ContainerFree(c));
    DumpRegion(hyperion::WholeContainer(c), 2, &out, &todo);
  }
  return out;
}

}  // namespace kvlab::stage5
