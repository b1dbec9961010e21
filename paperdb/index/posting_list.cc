#include "paperdb/index/posting_list.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/storage/keys.h"

namespace paperdb::index {

absl::StatusOr<std::shared_ptr<const PostingList>> ReadPostingList(
    const storage::Store& store, absl::string_view term) {
  auto list = std::make_shared<PostingList>();
  const std::string prefix = storage::PostingPrefix(term);
  std::unique_ptr<storage::StoreIterator> it =
      store.NewIterator(storage::Column::kPostings);
  for (it->Seek(prefix); it->Valid() && absl::StartsWith(it->key(), prefix);
       it->Next()) {
    PostingList::Block block;
    PAPERDB_ASSIGN_OR_RETURN(block.first_doc,
                             storage::FirstDocFromPostingKey(it->key()));
    PAPERDB_ASSIGN_OR_RETURN(
        block.header, DecodePostingBlockHeader(block.first_doc, it->value()));
    if (!list->blocks.empty() &&
        block.first_doc <= list->blocks.back().header.last_doc) {
      return absl::DataLossError(
          absl::StrCat("posting list of \"", term, "\": block at doc ",
                       block.first_doc, " overlaps the one before"));
    }
    block.offset = static_cast<uint32_t>(list->data.size());
    block.size = static_cast<uint32_t>(it->value().size());
    list->data.append(it->value().data(), it->value().size());
    list->blocks.push_back(block);
  }
  PAPERDB_RETURN_IF_ERROR(it->status());
  list->data.shrink_to_fit();
  list->blocks.shrink_to_fit();
  return std::shared_ptr<const PostingList>(std::move(list));
}

}  // namespace paperdb::index
