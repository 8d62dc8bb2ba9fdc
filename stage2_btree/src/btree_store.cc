#include "kvlab/stage2/btree_store.h"

#include "tree.h"

namespace kvlab {

BTreeStore::BTreeStore(int order, KeyLayout layout, bool share_on_insert)
    : tree_(
          std::make_unique<stage2::Tree>(order, layout == KeyLayout::kPrefix)) {
  tree_->share_on_insert = share_on_insert;
}

BTreeStore::~BTreeStore() = default;

bool BTreeStore::PutImpl(std::string_view key, std::string_view value) {
  return stage2::Put(tree_.get(), key, value);
}

bool BTreeStore::GetImpl(std::string_view key, std::string* value) const {
  const stage2::Pair* pair = stage2::Find(*tree_, key);
  if (pair == nullptr) return false;
  if (value != nullptr) value->assign(stage2::ValueOf(pair));
  return true;
}

bool BTreeStore::DeleteImpl(std::string_view key) {
  return stage2::Delete(tree_.get(), key);
}

bool BTreeStore::GetNth(uint64_t n, std::string* key,
                        std::string* value) const {
  const stage2::Pair* pair = stage2::FindNth(*tree_, n);
  if (pair == nullptr) return false;
  if (key != nullptr) key->assign(stage2::KeyOf(pair));
  if (value != nullptr) value->assign(stage2::ValueOf(pair));
  return true;
}

bool BTreeStore::DeleteNth(uint64_t n) {
  return stage2::DeleteNth(tree_.get(), n);
}

uint64_t BTreeStore::Scan(std::string_view start, ScanVisitor visitor) const {
  return stage2::Scan(*tree_, start, visitor);
}

uint64_t BTreeStore::Size() const { return tree_->size; }

std::optional<size_t> BTreeStore::MemoryUsage() const {
  return sizeof(BTreeStore) + sizeof(stage2::Tree) + tree_->node_bytes +
         tree_->pair_bytes;
}

int BTreeStore::order() const { return tree_->layout.order(); }

int BTreeStore::Height() const { return tree_->height; }

std::string BTreeStore::DebugString(size_t max_nodes) const {
  return stage2::DrawTree(*tree_, max_nodes);
}

absl::Status BTreeStore::CheckInvariants() const {
  return stage2::CheckTree(*tree_);
}

absl::Status BTreeStore::ExportStructure(const StructureOptions& options,
                                         StructureGraph* graph) const {
  return stage2::ExportTree(*tree_, options, graph);
}

}  // namespace kvlab
