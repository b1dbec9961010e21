#include "paperdb/index/verifier.h"

#include <memory>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "paperdb/common/hash.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/index/change_set.h"
#include "paperdb/index/posting_block.h"
#include "paperdb/index/varint.h"
#include "paperdb/storage/keys.h"
#include "paperdb/storage/paper_table.h"

namespace paperdb::index {
namespace {

using storage::Column;

uint64_t PostingFingerprint(absl::string_view term, uint64_t tf,
                            uint8_t next_words) {
  return Hash64(absl::StrCat(term, absl::string_view("\0", 1), tf, " ",
                             static_cast<unsigned>(next_words)));
}

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
  // Per doc, a fingerprint of its (term, tf, next-word mask) triples: from the
  // abstract analyzed again, and from the postings. They differ if any posting
  // is missing, extra or wrong.
  absl::flat_hash_map<uint32_t, uint64_t> analyzed_fingerprint;
  absl::flat_hash_map<uint32_t, uint64_t> posting_fingerprint;
  // (file name, paper id) pairs named by paper records, and how many of
  // them source records confirm.
  absl::flat_hash_set<std::pair<std::string, std::string>> paper_sources;
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
      if (record.paper().sources_size() == 0) {
        check.Problem("paper ", record.paper().id(), " has no source file");
      }
      for (const v1::Source& source : record.paper().sources()) {
        if (!paper_sources.emplace(source.file_name(), record.paper().id())
                 .second) {
          check.Problem("paper ", record.paper().id(), " lists file \"",
                        absl::CHexEscape(source.file_name()), "\" twice");
        }
      }
      const AnalyzedPaper analyzed = AnalyzePaper(record.paper());
      if (analyzed.doc_length != record.doc_length_terms()) {
        check.Problem("paper ", record.paper().id(), " analyzes to ",
                      analyzed.doc_length, " terms, its record says ",
                      record.doc_length_terms());
      }
      // Records written before token spans existed have none (searches
      // then analyze the abstract); any that are stored must be the
      // abstract's.
      if (!record.token_spans().empty() &&
          record.token_spans() != analyzed.token_spans) {
        check.Problem("paper ", record.paper().id(),
                      " has stored token spans that are not its abstract's");
      }
      uint64_t& fingerprint = analyzed_fingerprint[*doc];
      for (const AnalyzedPaper::Term& term : analyzed.terms) {
        fingerprint += PostingFingerprint(term.term, term.positions.size(),
                                          term.next_words);
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
        posting_fingerprint[block->doc(i)] +=
            PostingFingerprint(term, block->tf(i), block->next_words(i));
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
  for (const auto& [doc, fingerprint] : analyzed_fingerprint) {
    auto found = posting_fingerprint.find(doc);
    if (found == posting_fingerprint.end() ? fingerprint != 0
                                           : found->second != fingerprint) {
      check.Problem("doc ", doc,
                    ": postings do not match its abstract analyzed again");
    }
  }

  // Source files against the papers' records.
  {
    uint64_t confirmed = 0;
    std::unique_ptr<storage::StoreIterator> it =
        store.NewIterator(Column::kSources);
    for (it->Seek(""); it->Valid(); it->Next()) {
      ++report.sources;
      const std::string file(it->key());
      storage::v1::SourceRecord record;
      if (!record.ParseFromArray(it->value().data(),
                                 static_cast<int>(it->value().size()))) {
        check.Problem("source record \"", absl::CHexEscape(file),
                      "\" does not parse");
        continue;
      }
      if (record.source().file_name() != file) {
        check.Problem("source record \"", absl::CHexEscape(file),
                      "\" names file \"",
                      absl::CHexEscape(record.source().file_name()), "\"");
      }
      if (record.source().paper_count() != record.paper_ids_size()) {
        check.Problem("file \"", absl::CHexEscape(file), "\" counts ",
                      record.source().paper_count(), " papers but lists ",
                      record.paper_ids_size());
      }
      absl::flat_hash_set<absl::string_view> listed;
      for (const std::string& id : record.paper_ids()) {
        if (!listed.insert(id).second) {
          check.Problem("file \"", absl::CHexEscape(file), "\" lists paper ",
                        id, " twice");
        } else if (!paper_sources.contains(std::make_pair(file, id))) {
          check.Problem(
              "file \"", absl::CHexEscape(file), "\" lists paper ", id,
              doc_of_id.contains(id) ? ", whose record does not name the file"
                                     : ", which is not stored");
        } else {
          ++confirmed;
        }
      }
    }
    PAPERDB_RETURN_IF_ERROR(it->status());
    if (confirmed != paper_sources.size()) {
      check.Problem(paper_sources.size() - confirmed,
                    " paper sources name a file whose record does not list "
                    "the paper");
    }
  }
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
