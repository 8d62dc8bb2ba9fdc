"""Reads the text of a kvlab-draw SVG: the caption and each node's fields."""

import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def _texts(element):
    return [t.text or "" for t in element.iter(SVG + "text")]


def read(path):
    """Returns (caption lines, nodes, edge labels) of the drawing at `path`.

    A node is a dict: "title" and "fields", the name -> value rows in the
    order drawn (the row "step" holds the change mark, if any).
    """
    root = ET.parse(path).getroot()
    graph = root.find(SVG + "g")
    caption = [t.text or "" for t in graph.findall(SVG + "text")]
    nodes, edges = [], []
    for group in graph.iter(SVG + "g"):
        kind = group.get("class")
        if kind == "node":
            texts = _texts(group)
            fields = {}
            for name, value in zip(texts[1::2], texts[2::2]):
                fields[name] = value
            nodes.append({"title": texts[0], "fields": fields})
        elif kind == "edge":
            edges.extend(_texts(group))
    return caption, nodes, edges


def clusters(path):
    """The labels of the boxes drawn around groups of nodes."""
    root = ET.parse(path).getroot()
    return ["".join(_texts(g)) for g in root.iter(SVG + "g")
            if g.get("class") == "cluster"]


def node(nodes, title):
    """The one node drawn with `title`; fails if there is not exactly one."""
    found = [n for n in nodes if n["title"] == title]
    assert len(found) == 1, f"{len(found)} nodes titled {title}: {nodes}"
    return found[0]
