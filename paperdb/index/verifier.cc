#include "paperdb/index/verifier.h"

#include <memory>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/index/posting_block.h"
#include "paperdb/index/varint.h"
#include "paperdb/storage/keys.h"
#include "paperdb/storage/paper_table.h"

namespace paperdb::index {
namespace {

using storage::Column;

class Checker {
 public:
  explicit Checker(VerifyReport* report) : report_(report) {}
  template <typename... Args>
  void Problem(const Args&... args) {
    if (report_->problem_count++ < 100) {
      report_->problems.push_back(absl::StrCat(args...));
    }
  }

 private:
  VerifyReport* report_;
};

}  // namespace

absl::StatusOr<VerifyReport> VerifyStore(const storage::Store& store) {
  VerifyReport report;
  Checker check(&report);

  absl::StatusOr<std::string> version =
      store.Get(Column::kMeta, storage::kSchemaVersionKey);
  int parsed_version = 0;
  if (!version.ok() || !absl::SimpleAtoi(*version, &parsed_version) ||
      parsed_version != storage::kSchemaVersion) {
    check.Problem("schema version missing or not ", storage::kSchemaVersion);
  }

  // Papers: record -> doc length, and the id mapping both ways.
  absl::flat_hash_map<uint32_t, uint32_t> doc_length;
  absl::flat_hash_map<std::string, uint32_t> doc_of_id;
  uint64_t total_length = 0;
  uint32_t max_doc = 0;
  {
    std::unique_ptr<storage::StoreIterator> it =
        store.NewIterator(Column::kPapers);
    for (it->Seek(""); it->Valid(); it->Next()) {
      absl::StatusOr<uint32_t> doc = storage::DocIdFromPaperKey(it->key());
      storage::v1::PaperRecord record;
      if (!doc.ok() ||
          !record.ParseFromArray(it->value().data(),
                                 static_cast<int>(it->value().size()))) {
        check.Problem("paper record with key of ", it->key().size(),
                      " bytes does not parse");
        continue;
      }
      ++report.papers;
      doc_length[*doc] = record.doc_length_terms();
      total_length += record.doc_length_terms();
      max_doc = std::max(max_doc, *doc);
      if (!doc_of_id.emplace(record.paper().id(), *doc).second) {
        check.Problem("paper id ", record.paper().id(), " has two records");
      }
    }
    PAPERDB_RETURN_IF_ERROR(it->status());
  }
  {
    uint64_t mapped = 0;
    std::unique_ptr<storage::StoreIterator> it =
        store.NewIterator(Column::kPaperIds);
    for (it->Seek(""); it->Valid(); it->Next()) {
      ++mapped;
      absl::StatusOr<uint32_t> doc = storage::DocIdFromPaperKey(it->value());
      auto record = doc_of_id.find(it->key());
      if (!doc.ok() || record == doc_of_id.end() || record->second != *doc) {
        check.Problem("paper id ", it->key(), " maps to no record of that id");
      }
    }
    PAPERDB_RETURN_IF_ERROR(it->status());
    if (mapped != doc_of_id.size()) {
      check.Problem(doc_of_id.size(), " paper records but ", mapped,
                    " id mappings");
    }
  }
  storage::PaperTable table(&store);
  absl::StatusOr<storage::v1::CorpusStats> stats = table.Stats();
  if (!stats.ok()) {
    check.Problem("corpus statistics: ", stats.status().message());
  } else {
    if (stats->doc_count() != report.papers) {
      check.Problem("statistics count ", stats->doc_count(),
                    " papers, records ", report.papers);
    }
    if (stats->total_doc_length_terms() != total_length) {
      check.Problem("statistics sum document lengths to ",
                    stats->total_doc_length_terms(), ", records to ",
                    total_length);
    }
    if (report.papers > 0 && stats->next_doc_id() <= max_doc) {
      check.Problem("next doc id ", stats->next_doc_id(), " is not above ",
                    max_doc);
    }
  }

  // Postings, term by term, against the records and the stored frequencies.
  absl::flat_hash_map<std::string, uint32_t> counted;
  {
    std::unique_ptr<storage::StoreIterator> it =
        store.NewIterator(Column::kPostings);
    std::string term;
    int64_t last_doc = -1;
    for (it->Seek(""); it->Valid(); it->Next()) {
      const absl::string_view key = it->key();
      absl::StatusOr<uint32_t> first = storage::FirstDocFromPostingKey(key);
      if (!first.ok()) {
        check.Problem("malformed posting key of ", key.size(), " bytes");
        continue;
      }
      const absl::string_view key_term = key.substr(0, key.size() - 5);
      if (key_term != term) {
        term = std::string(key_term);
        last_doc = -1;
      }
      absl::StatusOr<PostingBlock> block =
          PostingBlock::Decode(*first, it->value());
      if (!block.ok()) {
        check.Problem("term '", term, "' block at doc ", *first, ": ",
                      block.status().message());
        continue;
      }
      if (static_cast<int64_t>(*first) <= last_doc) {
        check.Problem("term '", term, "' has overlapping blocks at doc ",
                      *first);
      }
      last_doc = block->header().last_doc;
      for (size_t i = 0; i < block->size(); ++i) {
        ++report.postings;
        auto length = doc_length.find(block->doc(i));
        if (length == doc_length.end()) {
          check.Problem("term '", term, "' lists doc ", block->doc(i),
                        ", which has no record");
        } else if (length->second != block->doc_length(i)) {
          check.Problem("term '", term, "' gives doc ", block->doc(i),
                        " length ", block->doc_length(i), ", the record ",
                        length->second);
        }
      }
      counted[term] += static_cast<uint32_t>(block->size());
    }
    PAPERDB_RETURN_IF_ERROR(it->status());
  }
  report.terms = counted.size();
  {
    uint64_t frequencies = 0;
    std::unique_ptr<storage::StoreIterator> it =
        store.NewIterator(Column::kTerms);
    for (it->Seek(""); it->Valid(); it->Next()) {
      ++frequencies;
      const char* p = it->value().data();
      uint32_t df = 0;
      const auto found = counted.find(it->key());
      if (!GetVarint32(&p, p + it->value().size(), &df)) {
        check.Problem("document frequency of '", it->key(), "' does not parse");
      } else if (found == counted.end() || found->second != df) {
        check.Problem("term '", it->key(), "' has frequency ", df, " but ",
                      found == counted.end() ? 0 : found->second, " postings");
      }
    }
    PAPERDB_RETURN_IF_ERROR(it->status());
    if (frequencies != counted.size()) {
      check.Problem(counted.size(), " terms have postings, ", frequencies,
                    " have frequencies");
    }
  }
  return report;
}

}  // namespace paperdb::index
