#!/usr/bin/env bash
# Redraws the structure drawings the docs show (make docs-images): a few
# steps of each stage's store, copied to DIR/draw-<store>-<step>.svg.
#
# Usage: docs/tools/draw_images.sh KVLAB_DRAW DIR
set -euo pipefail
draw=$1
dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# draw NAME SPEC STEPS -- OPERATIONS...: runs kvlab-draw on SPEC and keeps
# the listed steps as DIR/draw-NAME-<step>.svg.
draw() {
  local name=$1 spec=$2 steps=$3
  shift 4
  local ops=()
  for op in "$@"; do ops+=("--op=$op"); done
  "$draw" --store="$spec" --out="$work/$name" "${ops[@]}" >/dev/null
  for step in $steps; do
    cp "$work/$name/step-$(printf %04d "$step").svg" \
       "$dir/draw-$name-$step.svg"
  done
  echo "docs-images: $spec steps $steps -> $dir/draw-$name-*.svg"
}

letters=("put d 1" "put b 2" "put a 3" "put c 4" "put e 5" "delete b")
# Stage 1: the rotation of step 3, and a delete.
draw bst bst "3 6" -- "${letters[@]}"
draw avl avl "3 6" -- "${letters[@]}"
# Stage 2: a full root leaf splits (step 4); deletes merge (step 8).
draw btree btree:order=4 "4 8" -- "put a 1" "put b 2" "put c 3" "put d 4" \
  "put e 5" "delete e" "delete a" "delete b"
# Stage 3: the same five keys in each layout.
trie_ops=("put tea 1" "put ten 2" "put to 3" "put a 4" "put inn 5")
draw trie_array trie_array 5 -- "${trie_ops[@]}"
draw trie_list trie_list 5 -- "${trie_ops[@]}"
draw trie_bst trie_bst 5 -- "${trie_ops[@]}"
# Stage 4: compressed edges, and a delete that puts blocks on free lists.
draw ctrie ctrie:lock=global "5 6" -- "${trie_ops[@]}" "delete ten"
# Stage 5: containers at the byte level, one embedded; then the chapter's
# ejection example (the paper's Figure 8): the embedded container under
# "th" ejected to a child container.
draw hyperion hyperion 5 -- "${trie_ops[@]}"
draw hyperion_child hyperion:embed=16 7 -- "put that v" "put the v" \
  "put thio v" "put thou v" "put thus v" "put thy v" "put thz v"
