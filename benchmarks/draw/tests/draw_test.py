"""kvlab-draw on every store with a drawing: each step's SVG shows what the
store holds, read back as text (keys, counts, fields, change marks).

Usage: draw_test.py KVLAB_DRAW_BINARY (run by ctest, label draw).
"""

import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import svg_text  # noqa: E402

BINARY = None


def draw(store, ops, *flags):
    """Runs kvlab-draw; returns a function reading step i's drawing."""
    out = tempfile.mkdtemp(prefix="kvlab-draw-test-")
    args = [BINARY, f"--store={store}", f"--out={out}", *flags]
    args += [f"--op={op}" for op in ops]
    run = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert os.path.exists(os.path.join(out, "index.html"))
    step = lambda i: svg_text.read(os.path.join(out, f"step-{i:04d}.svg"))
    step.dir = out
    return step


LETTERS = ["put d 1", "put b 2", "put a 3", "put c 4", "put e 5"]


class BinaryTreeTest(unittest.TestCase):
    def test_avl_shows_sizes_heights_and_the_rotation(self):
        step = draw("avl", LETTERS[:3])
        caption, nodes, edges = step(3)  # put a: d-b-a rotates right at d
        self.assertIn("rotation", "\n".join(caption))
        b = svg_text.node(nodes, '"b"')
        self.assertEqual(b["fields"]["size"], "3")
        self.assertEqual(b["fields"]["height"], "2")
        self.assertEqual(b["fields"]["balance"], "0")
        self.assertEqual(svg_text.node(nodes, '"d"')["fields"]["step"],
                         "re-linked")
        self.assertEqual(svg_text.node(nodes, '"a"')["fields"]["step"], "new")
        self.assertEqual(sorted(edges), ["L", "R"])
        caption, nodes, _ = step(2)  # put b under d: no rotation yet
        self.assertNotIn("rotation", "\n".join(caption))
        self.assertEqual(svg_text.node(nodes, '"d"')["fields"]["balance"], "-1")

    def test_bst_keeps_the_list_shape(self):
        step = draw("bst", ["put a 1", "put b 2", "put c 3"])
        caption, nodes, edges = step(3)
        self.assertNotIn("rotation", "\n".join(caption))
        self.assertEqual(svg_text.node(nodes, '"a"')["fields"]["size"], "3")
        self.assertEqual(svg_text.node(nodes, '"c"')["fields"]["value"], "3")
        self.assertNotIn("height", svg_text.node(nodes, '"a"')["fields"])
        self.assertEqual(edges, ["R", "R"])

    def test_max_nodes_and_from_key_draw_part(self):
        ops = [f"put {k} v" for k in "dbfaceg"]
        caption, nodes, _ = draw("avl", ops, "--max-nodes=3")(7)
        self.assertEqual(len(nodes), 3)
        self.assertIn("4 node(s) not drawn", "\n".join(caption))
        step = draw("avl", ops, "--from-key=b")
        caption, nodes, _ = step(1)  # no "b" yet
        self.assertEqual(nodes, [])
        self.assertIn('no node holds the key "b"', "\n".join(caption))
        _, nodes, _ = step(7)
        self.assertEqual(sorted(n["title"] for n in nodes),
                         ['"a"', '"b"', '"c"'])


class BTreeTest(unittest.TestCase):
    def test_split_and_merge_are_named(self):
        ops = ["put a 1", "put b 2", "put c 3", "put d 4",
               "delete a", "delete b"]
        step = draw("btree:order=4", ops)
        caption, nodes, edges = step(3)
        self.assertEqual(svg_text.node(nodes, "leaf, 3 of 3 keys")
                         ["fields"]["keys"], '"a" "b" "c"')
        caption, nodes, edges = step(4)  # a full root leaf splits
        self.assertIn("split: 2 node(s) more", "\n".join(caption))
        root = svg_text.node(nodes, "internal, 1 of 3 keys")
        self.assertEqual(root["fields"]["keys"], '"b"')
        self.assertEqual(root["fields"]["child counts"], "1 2")
        self.assertEqual(sorted(edges), ["1", "2"])
        caption, nodes, _ = step(6)
        self.assertIn("merge", "\n".join(caption))
        self.assertEqual(len(nodes), 1)
        self.assertEqual(nodes[0]["fields"]["keys"], '"c" "d"')


class TrieTest(unittest.TestCase):
    OPS = ["put ab 1", "put ac 2", "put b 3"]

    def check_common(self, nodes):
        root = svg_text.node(nodes, "root")
        self.assertEqual(root["fields"]["count"], "3")
        a = svg_text.node(nodes, '"a"')
        self.assertEqual(a["fields"]["count"], "2")
        self.assertNotIn("value", a["fields"])
        self.assertEqual(svg_text.node(nodes, '"ac"')["fields"]["value"], "2")
        return root

    def test_array_summarises_its_slots(self):
        caption, nodes, edges = draw("trie_array", self.OPS)(3)
        root = self.check_common(nodes)
        self.assertEqual(root["fields"]["slots"],
                         "256 x 8 B: 2 used, 254 null")
        self.assertIn("slot 97", edges)  # 'a'
        self.assertIn("nodes 5", "\n".join(caption))
        self.assertIn("5 x 2064", "\n".join(caption))

    def test_list_links_siblings(self):
        caption, nodes, edges = draw("trie_list", self.OPS)(3)
        root = self.check_common(nodes)
        self.assertEqual(root["fields"]["links"], "first_child, next: 2 x 8 B")
        self.assertEqual(sorted(edges),
                         ["first_child", "first_child", "next", "next"])
        self.assertIn("5 x 32", "\n".join(caption))

    def test_bst_links_a_child_tree(self):
        caption, nodes, edges = draw("trie_bst", self.OPS)(3)
        self.check_common(nodes)
        self.assertEqual(sorted(edges),
                         ["children", "children", "right", "right"])
        self.assertIn("5 x 40", "\n".join(caption))


class CTrieTest(unittest.TestCase):
    def test_compressed_edges_and_free_lists(self):
        ops = ["put abc 1", "put abd 2", "delete abd"]
        step = draw("ctrie:lock=global", ops)
        _, nodes, edges = step(1)
        self.assertEqual(svg_text.node(nodes, '"a" + "bc"')["fields"]["edge label"],
                         '"bc"')
        caption, nodes, edges = step(2)
        ab = svg_text.node(nodes, '"a" + "b"')
        self.assertEqual(ab["fields"]["edge label"], '"b"')
        self.assertEqual(svg_text.node(nodes, '"abd"')["fields"]["value"], "2")
        self.assertIn('"d" count 1', edges)
        pool = svg_text.clusters(os.path.join(step.dir, "step-0002.svg"))
        self.assertEqual(len(pool), 1)
        self.assertTrue(pool[0].startswith("node pool: slabs, 1 slab(s)"))
        caption, nodes, _ = step(3)
        free = [n for n in nodes if n["title"].startswith("free list")]
        self.assertTrue(free, nodes)
        self.assertTrue(all(n["fields"]["head"].startswith("slab 0 +0x")
                            for n in free))
        classes = svg_text.node(nodes, "size classes")["fields"]
        freed = sum(int(v.split("free ")[1]) for k, v in classes.items()
                    if k != "step")
        self.assertEqual(freed, sum(int(n["fields"]["blocks"]) for n in free))


class HyperionTest(unittest.TestCase):
    def test_containers_at_the_byte_level(self):
        ops = ["put tea 1", "put ten 2", "put to 3", "put a 4", "put inn 5"]
        step = draw("hyperion", ops)
        caption, nodes, edges = step(5)
        root = [n for n in nodes if n["title"].startswith("container 0x")]
        self.assertEqual(len(root), 1, nodes)
        rows = root[0]["fields"]
        self.assertRegex(rows["0000 header"], r"^([0-9a-f]{2} ){3}[0-9a-f]{2}$")
        # The header word: the size in 32-byte units, then the free tail;
        # the box's label says the same.
        word = int.from_bytes(bytes.fromhex(rows["0000 header"]), "little")
        size, free = (word & 0x7FFFF) * 32, (word >> 19) & 0xFF
        self.assertEqual((size, free), (64, 31))
        boxes = svg_text.clusters(os.path.join(step.dir, "step-0005.svg"))
        self.assertIn(f"{root[0]['title']}: 64 bytes, 33 used, 31 free", boxes)
        texts = [t.strip() for t in rows.values()]
        self.assertIn("T 'a' leaf+value, key explicit, value[1] '4'", texts)
        self.assertIn("S 'n' inner, key explicit, suffix 'n' value[1] '5'",
                      texts)
        self.assertIn("S 'e' inner, key explicit, embedded container of 9 "
                      "bytes:", texts)
        embedded = svg_text.node(nodes, "embedded at 0012")["fields"]
        self.assertIn("T 'n' leaf+value, key explicit, value[1] '2'",
                      [t.strip() for t in embedded.values()])
        self.assertIn("embedded", edges)
        self.assertTrue(any(b.startswith('embedded under "e" at 0012: 9 bytes')
                            for b in boxes), boxes)
        self.assertTrue(any(b.startswith("memory manager") for b in boxes))
        superbins = svg_text.node(nodes, "superbins in use")["fields"]
        self.assertEqual(superbins.get("SB 2 (64 B chunks)"),
                         "1 bin(s), 1 chunk(s) used, 4095 free", superbins)
        self.assertIn("keys 5, containers 1", "\n".join(caption))

    def test_a_child_container_by_pointer(self):
        # The chapter's ejection example (the paper's Figure 8): with a
        # 16-byte embedding budget the container under "th" is ejected by
        # the seventh key.
        ops = [f"put {k} v" for k in
               ("that", "the", "thio", "thou", "thus", "thy", "thz")]
        step = draw("hyperion:embed=16", ops)
        caption, nodes, edges = step(7)
        self.assertIn("keys 7, containers 2", "\n".join(caption))
        self.assertIn('"h" 7 keys', edges)
        containers = [n for n in nodes if n["title"].startswith("container")]
        self.assertEqual(len(containers), 2)
        rows = [t.strip() for n in containers for t in n["fields"].values()]
        self.assertTrue(any(r.startswith("S 'h' inner, key explicit, -> "
                                         "container 0x") and
                            r.endswith("(7 keys)") for r in rows), rows)
        self.assertIn("T 'z' leaf+value, delta 1, value[1] 'v'", rows)
        caption, nodes, _ = draw("hyperion:embed=16", ops, "--max-nodes=1")(7)
        self.assertIn("1 node(s) not drawn", "\n".join(caption))
        self.assertEqual(
            len([n for n in nodes if n["title"].startswith("container")]), 1)


class CommandLineTest(unittest.TestCase):
    def test_bad_input_is_refused(self):
        for args in (["--store=avl", "--out=/tmp/x"],
                     ["--store=avl", "--out=/tmp/x", "--op=jump a"],
                     ["--store=nosuch", "--out=/tmp/x", "--op=put a 1"]):
            run = subprocess.run([BINARY, *args], capture_output=True,
                                 text=True, timeout=60)
            self.assertNotEqual(run.returncode, 0, args)
            self.assertIn("kvlab-draw:", run.stderr)

    def test_dataset_and_ops_file(self):
        out = tempfile.mkdtemp(prefix="kvlab-draw-test-")
        ops = os.path.join(out, "ops.txt")
        with open(ops, "w") as f:
            f.write("# a comment\nput k1 v\n\ndelete_nth 0\nget k1\n")
        run = subprocess.run([BINARY, "--store=avl", f"--ops={ops}",
                              f"--out={out}"], capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stderr)
        caption, nodes, _ = svg_text.read(os.path.join(out, "step-0002.svg"))
        self.assertIn('deleted "k1"', "\n".join(caption))
        self.assertEqual(nodes, [])
        run = subprocess.run([BINARY, "--store=btree:order=4",
                              "--dataset=seq_int", "--n=6", f"--out={out}"],
                             capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stderr)
        _, nodes, _ = svg_text.read(os.path.join(out, "step-0006.svg"))
        self.assertTrue(any(n["title"].startswith("internal") for n in nodes))


if __name__ == "__main__":
    BINARY = os.path.abspath(sys.argv.pop(1))
    unittest.main()
