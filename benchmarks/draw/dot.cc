#include "dot.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

extern char** environ;

namespace kvdraw {
namespace {

using kvlab::StructureEdge;

// Text for an HTML-like Graphviz label.
std::string Html(const std::string& text) {
  return absl::StrReplaceAll(
      text, {{"&", "&amp;"}, {"<", "&lt;"}, {">", "&gt;"}, {"\"", "&quot;"}});
}

// Text for a quoted DOT string.
std::string Quoted(const std::string& text) {
  return absl::StrCat(
      "\"", absl::StrReplaceAll(text, {{"\\", "\\\\"}, {"\"", "\\\""}}), "\"");
}

}  // namespace

std::string ToDot(const kvlab::StructureGraph& graph, const Change& change,
                  std::string_view caption) {
  std::string out =
      "digraph structure {\n"
      "  graph [fontname=\"Helvetica\" fontsize=12 labelloc=t "
      "nodesep=0.25 ranksep=0.45];\n"
      "  node [shape=plaintext fontname=\"Helvetica\" fontsize=10];\n"
      "  edge [fontname=\"Helvetica\" fontsize=9 arrowsize=0.6];\n";
  absl::StrAppend(&out, "  label=", Quoted(std::string(caption)), ";\n");
  std::map<std::string, std::string> names;
  for (const kvlab::StructureNode& node : graph.nodes) {
    names.emplace(node.id, absl::StrCat("n", names.size()));
  }
  // Clusters hold their nodes; nested clusters are written inside their
  // parents, so each cluster's body is written recursively.
  std::map<std::string, std::string> node_text;  // by cluster id
  for (const kvlab::StructureNode& node : graph.nodes) {
    std::string color = "#e8eef7";
    std::string mark;
    if (change.added.contains(node.id)) {
      color = "#b7e4b0";
      mark = "new";
    } else if (change.relinked.contains(node.id)) {
      color = "#f4a6a6";
      mark = "re-linked";
    } else if (change.changed.contains(node.id)) {
      color = "#f7e39c";
      mark = "changed";
    }
    std::string label = absl::StrCat(
        "<<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" "
        "CELLPADDING=\"3\"><TR><TD COLSPAN=\"2\" BGCOLOR=\"",
        color, "\"><B>", Html(node.title), "</B></TD></TR>");
    for (const kvlab::StructureField& field : node.fields) {
      absl::StrAppend(&label, "<TR><TD ALIGN=\"LEFT\">", Html(field.name),
                      "</TD><TD ALIGN=\"LEFT\">", Html(field.value),
                      "</TD></TR>");
    }
    if (!mark.empty()) {
      absl::StrAppend(&label, "<TR><TD ALIGN=\"LEFT\">step</TD><TD BGCOLOR=\"",
                      color, "\" ALIGN=\"LEFT\">", mark, "</TD></TR>");
    }
    absl::StrAppend(&label, "</TABLE>>");
    absl::StrAppend(&node_text[node.cluster], "  ", names[node.id],
                    " [label=", label, "];\n");
  }
  std::map<std::string, std::vector<const kvlab::StructureCluster*>> nested;
  for (const kvlab::StructureCluster& cluster : graph.clusters) {
    nested[cluster.parent].push_back(&cluster);
  }
  int next_cluster = 0;
  auto write = [&](auto& self, const std::string& parent) -> void {
    out += node_text[parent];
    for (const kvlab::StructureCluster* cluster : nested[parent]) {
      absl::StrAppend(&out, "subgraph cluster_", next_cluster++, " {\n",
                      "  label=", Quoted(cluster->label),
                      "; style=rounded; color=\"#7a8aa0\";\n");
      self(self, cluster->id);
      out += "}\n";
    }
  };
  write(write, "");
  for (const StructureEdge& edge : graph.edges) {
    auto from = names.find(edge.from);
    auto to = names.find(edge.to);
    if (from == names.end() || to == names.end()) continue;
    std::string attrs = absl::StrCat("label=", Quoted(edge.label));
    if (edge.kind == StructureEdge::Kind::kSibling) {
      attrs += " style=dashed constraint=false";
    } else if (edge.kind == StructureEdge::Kind::kLayout) {
      attrs = "style=invis";
    }
    if (edge.kind != StructureEdge::Kind::kLayout &&
        change.new_links.contains({edge.from, edge.to})) {
      attrs += " color=\"#c0392b\" fontcolor=\"#c0392b\" penwidth=2.5";
    }
    absl::StrAppend(&out, "  ", from->second, " -> ", to->second, " [", attrs,
                    "];\n");
  }
  out += "}\n";
  return out;
}

absl::StatusOr<std::string> RenderSvg(std::string_view dot_text) {
  char in_path[] = "/tmp/kvlab-draw-XXXXXX";
  const int fd = mkstemp(in_path);
  if (fd < 0) return absl::InternalError("cannot create a temporary file");
  close(fd);
  const std::string out_path = absl::StrCat(in_path, ".svg");
  {
    std::ofstream in(in_path, std::ios::binary);
    in << dot_text;
    if (!in.good()) {
      std::remove(in_path);
      return absl::InternalError(absl::StrCat("cannot write ", in_path));
    }
  }
  std::string out_flag = absl::StrCat("-o", out_path);
  char* argv[] = {const_cast<char*>("dot"), const_cast<char*>("-Tsvg"),
                  out_flag.data(), in_path, nullptr};
  pid_t pid = 0;
  const int spawned =
      posix_spawnp(&pid, "dot", nullptr, nullptr, argv, environ);
  int status = 0;
  if (spawned == 0) waitpid(pid, &status, 0);
  std::remove(in_path);
  if (spawned != 0) {
    return absl::FailedPreconditionError(
        "Graphviz's dot is not installed: run cmake/deps.sh draw");
  }
  std::ifstream svg_file(out_path, std::ios::binary);
  std::stringstream svg;
  svg << svg_file.rdbuf();
  std::remove(out_path.c_str());
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || svg.str().empty()) {
    return absl::InternalError("dot failed on the drawing");
  }
  return svg.str();
}

}  // namespace kvdraw
