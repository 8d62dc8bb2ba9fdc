#include "kvlab/fuzz/seeds.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "kvlab/fuzz/fuzz_stores.h"
#include "kvlab/fuzz/program_writer.h"

namespace kvlab::fuzz {
namespace {

using K = KeyExpr;
using I = IndexExpr;
using namespace std::string_view_literals;

// 400 keys "\0\0" + char(i / 4) + char(1 + i % 4) + "wxyz" (with `prefix`
// in place of "\0\0"), 200-byte values.
ProgramWriter& PutWxyzKeys(ProgramWriter& w, std::string_view prefix) {
  return w.Repeat(400).Put(
      K::Concat({K::Literal(prefix), K::Counter(4, 1), K::Literal("wxyz")}),
      200);
}

std::string ScanAmongNulKeys(uint8_t store) {
  ProgramWriter w(store);
  w.Put(K::Repeat('\0', 1024), 16).Put(K::Repeat('\0', 1023), 16);
  PutWxyzKeys(w, "\0\0"sv);
  w.Scan(K::Repeat('\0', 1024), 0);
  return w.bytes();
}

std::string ScanAmongNulKeysDeeper(uint8_t store) {
  ProgramWriter w(store);
  w.Put(K::Repeat('\0', 1024), 16).Put(K::Repeat('\0', 1023), 16);
  PutWxyzKeys(w, "\0\0"sv);
  PutWxyzKeys(w, "\0\0\0\0"sv);
  w.Scan(K::Repeat('\0', 5), 0).Scan(K::Repeat('\0', 1024), 0);
  return w.bytes();
}

// Found by the fuzzer on Hyperion with small split thresholds.
std::string ScanAmongLongKeysAfterSplits(uint8_t store) {
  ProgramWriter w(store);
  w.Put(K::SetByte(128, '\xff', K::Repeat('k', 257)), 255)
      .Put(K::Repeat('k', 1023), 255)
      .Put(K::Repeat('k', 1024), 0)
      .Scan(K::Repeat('k', 1024), 0);
  return w.bytes();
}

std::string ScanFromOversizedStart(uint8_t store) {
  ProgramWriter w(store);
  w.Put(K::Literal("a"), 8)
      .Put(K::Repeat('\0', 1024), 8)
      .Put(K::Repeat('\x01', 1024), 300)
      .Scan(K::Repeat('\0', 1025), 0)
      .Scan(K::Repeat('\x01', 1100), 0)
      .Scan(K::Repeat('a', 4096), 0)
      .Get(K::Repeat('\0', 2000))
      .Delete(K::Repeat('\0', 2000));
  return w.bytes();
}

std::string DeleteThenGrow(uint8_t store) {
  ProgramWriter w(store);
  w.Put(K::Literal("aa"), 8).Put(K::Literal("ab"), 8).Delete(K::Literal("ab"));
  w.Repeat(600).Put(K::Concat({K::Literal("a"), K::Counter(256, 0)}), 8);
  w.Get(K::Literal("aa"));
  return w.bytes();
}

std::string PrefixChains(uint8_t store) {
  ProgramWriter w(store);
  // "p", "px", "pxx", ... and "\0", "\0\0", ...: each key the one before
  // with one more byte.
  w.Put(K::Literal("p"), 8)
      .Repeat(300)
      .Put(K::Concat({K::Recent(0), K::Literal("x")}), 8);
  w.Put(K::Empty(), 0)
      .Repeat(300)
      .Put(K::Concat({K::Recent(0), K::Literal("\0"sv)}), 20);
  w.Scan(K::Literal("px"), 20)
      .Scan(K::Repeat('\0', 150), 0)
      .Scan(K::Increment(K::Repeat('\0', 150)), 3)
      .GetNth(I::Scaled(96))
      .Get(K::Prefix(200, K::PutKey(128)))
      .Repeat(100)
      .DeleteNth(I::Scaled(96))
      .Check()
      .Repeat(100)
      .Delete(K::DropTail(1, K::Recent(0)))
      .Check();
  return w.bytes();
}

std::string EdgeLengths(uint8_t store) {
  ProgramWriter w(store);
  for (size_t n : {0, 1, 127, 128, 129, 255, 256, 257, 1023, 1024}) {
    w.Put(K::Repeat('k', n), n % 300);
    w.Put(K::Concat({K::Repeat('\0', n), K::Literal("z")}), 8);
    w.Put(K::SetByte(n / 2, '\xff', K::Repeat('k', n)), 255);
  }
  for (size_t v : {0, 8, 255, 256, 300, 4095, 4096}) {
    w.Put(K::Literal("value"), v).Get(K::Literal("value"));
  }
  // Over the limits: refused, the store unchanged.
  w.Put(K::Repeat('k', 1025), 8)
      .Put(K::Literal("value"), 4097)
      .Put(K::Repeat('\0', 1025), 4097)
      .Get(K::Repeat('k', 1025))
      .Delete(K::Repeat('k', 1025))
      .Scan(K::Repeat('k', 1025), 0)
      .Scan(K::Repeat('k', 1024), 0)
      .Scan(K::Increment(K::Repeat('k', 1024)), 0)
      .GetNth(I::FromEnd(7))
      .GetNth(I::FromEnd(8))
      .DeleteNth(I::Huge(0))
      .Check();
  return w.bytes();
}

std::string CounterKeys(uint8_t store) {
  ProgramWriter w(store);
  // 1000 two-byte big-endian keys, then deletes by rank and by key.
  w.Repeat(1000).Put(K::Counter(256, 0), 8);
  w.Repeat(50).DeleteNth(I::Scaled(50));
  w.Repeat(20).GetNth(I::FromEnd(7));
  w.Scan(K::Literal("\x01"), 100).Check();
  w.Repeat(500).Delete(K::Counter(256, 0));
  w.Repeat(300).Put(K::Concat({K::Counter(256, 0), K::Counter(7, 3)}), 0);
  w.Scan(K::Empty(), 0).GetNth(I::Exact(700)).DeleteNth(I::Exact(1));
  return w.bytes();
}

std::string EmptyKey(uint8_t store) {
  ProgramWriter w(store);
  w.Put(K::Empty(), 0)
      .Get(K::Empty())
      .Scan(K::Empty(), 0)
      .GetNth(I::Exact(0))
      .Put(K::Empty(), 300)
      .Put(K::Literal("\0"sv), 1)
      .Scan(K::Empty(), 1)
      .Delete(K::Empty())
      .GetNth(I::Exact(0))
      .DeleteNth(I::Exact(0))
      .GetNth(I::Huge(0))
      .Size()
      .Check();
  return w.bytes();
}

}  // namespace

std::vector<Seed> Seeds() {
  struct Entry {
    const char* name;
    const char* store;  // the spec of stores.txt it was written for
    const char* description;
    std::string (*write)(uint8_t store_byte);
  };
  const Entry entries[] = {
      {"scan_among_nul_keys", "hyperion",
       "Scan from 1024 NULs among NUL-prefixed keys of 1023 and 1024 bytes "
       "and 400 keys under \"\\0\\0\"",
       ScanAmongNulKeys},
      {"scan_among_nul_keys_deeper", "hyperion",
       "the same with 400 more keys under \"\\0\\0\\0\\0\" and a 5-byte start",
       ScanAmongNulKeysDeeper},
      {"scan_among_long_keys_after_splits",
       "hyperion:inline_value=0:embed=16:eject_above=0:split_above=256:"
       "split_large_above=128:large_node=1:compact=1",
       "Scan from 1024 'k' among keys of 257, 1023 and 1024 bytes (with "
       "split_above=256:split_large_above=128)",
       ScanAmongLongKeysAfterSplits},
      {"scan_from_oversized_start", "judy",
       "Scan, Get and Delete with keys longer than kMaxKeySize, NUL and 0x01 "
       "bytes included",
       ScanFromOversizedStart},
      {"delete_then_grow", "ctrie",
       "Put aa and ab, Delete ab, 600 Puts under \"a\", Get aa",
       DeleteThenGrow},
      {"prefix_chains", "trie_list",
       "chains of keys each one byte longer than the one before, scans, "
       "deletes by rank",
       PrefixChains},
      {"edge_lengths", "btree:order=4",
       "keys and values at and around 127/128, 255/256, 1023/1024 and 4096, "
       "and over the limits",
       EdgeLengths},
      {"counter_keys", "judyl",
       "1000 two-byte keys, deletes by rank and key, GetNth near the end",
       CounterKeys},
      {"empty_key", "trie_array",
       "the empty key and a NUL key, every operation", EmptyKey},
  };
  const std::vector<std::string> specs = ParseStoreList(KVLAB_FUZZ_STORES);
  std::vector<Seed> seeds;
  for (const Entry& e : entries) {
    auto it = std::find(specs.begin(), specs.end(), e.store);
    if (it == specs.end()) {
      std::fprintf(stderr, "seed %s: store %s is not in stores.txt\n", e.name,
                   e.store);
      std::abort();
    }
    seeds.push_back({e.name, e.store, e.description,
                     e.write(static_cast<uint8_t>(it - specs.begin()))});
  }
  return seeds;
}

}  // namespace kvlab::fuzz
