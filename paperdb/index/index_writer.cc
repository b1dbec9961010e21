#include "paperdb/index/index_writer.h"

#include <string>
#include <utility>

#include "absl/algorithm/container.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/index/varint.h"
#include "paperdb/storage/keys.h"

namespace paperdb::index {
namespace {

using storage::Column;

// Reads the whole "terms" family: term -> document frequency.
absl::StatusOr<absl::flat_hash_map<std::string, uint32_t>>
ReadDocumentFrequencies(const storage::Store& store) {
  absl::flat_hash_map<std::string, uint32_t> dfs;
  std::unique_ptr<storage::StoreIterator> it =
      store.NewIterator(Column::kTerms);
  for (it->Seek(""); it->Valid(); it->Next()) {
    const char* p = it->value().data();
    uint32_t df = 0;
    if (!GetVarint32(&p, p + it->value().size(), &df)) {
      return absl::DataLossError(absl::StrCat("document frequency of '",
                                              it->key(), "' does not parse"));
    }
    dfs.emplace(it->key(), df);
  }
  PAPERDB_RETURN_IF_ERROR(it->status());
  return dfs;
}

google::protobuf::Timestamp Now() {
  const int64_t micros = absl::ToUnixMicros(absl::Now());
  google::protobuf::Timestamp ts;
  ts.set_seconds(micros / 1000000);
  ts.set_nanos(static_cast<int32_t>((micros % 1000000) * 1000));
  return ts;
}

// Removes `file_name` from `paper`'s sources. Returns true if it was there.
bool RemoveSource(v1::Paper& paper, absl::string_view file_name) {
  auto* sources = paper.mutable_sources();
  for (int i = 0; i < sources->size(); ++i) {
    if (sources->Get(i).file_name() == file_name) {
      sources->erase(sources->begin() + i);
      return true;
    }
  }
  return false;
}

// Takes `file_name` away from the stored paper `paper_id`, deleting the
// paper if no other file holds it. Returns true if it was deleted.
absl::StatusOr<bool> DropFromFile(ChangeSet& change, absl::string_view paper_id,
                                  absl::string_view file_name) {
  PAPERDB_ASSIGN_OR_RETURN(PaperState * paper, change.FindPaper(paper_id));
  if (paper == nullptr) {
    return absl::DataLossError(
        absl::StrCat("file \"", absl::CHexEscape(file_name), "\" lists paper ",
                     paper_id, ", which is not stored"));
  }
  RemoveSource(*paper->record.mutable_paper(), file_name);
  if (paper->record.paper().sources_size() == 0) {
    change.DeletePaper(paper);
    return true;
  }
  paper->dirty = true;
  return false;
}

// Applies one file's new contents to `change`.
absl::StatusOr<FileResult> ApplyFile(ChangeSet& change, FileUpdate& file) {
  FileResult result;
  const size_t n = file.papers.size();
  result.outcomes.resize(n, PaperOutcome::kUnchanged);
  result.replaced.resize(n);
  // The file's distinct ids, in order; repeats are skipped.
  std::vector<std::string> ids;
  absl::flat_hash_set<std::string> id_set;
  for (size_t i = 0; i < n; ++i) {
    const std::string& id = file.papers[i].paper.id();
    if (!id_set.insert(id).second) {
      result.outcomes[i] = PaperOutcome::kSkipped;
      ++result.skipped;
      continue;
    }
    ids.push_back(id);
  }

  PAPERDB_ASSIGN_OR_RETURN(storage::v1::SourceRecord * stored,
                           change.FindSource(file.file_name));
  if (stored != nullptr && !file.content_hash.empty() &&
      stored->source().content_hash() == file.content_hash) {
    // The same bytes as last time: nothing to write.
    result.unchanged = static_cast<int>(ids.size());
    result.source = stored->source();
    return result;
  }
  const InvertedRun* run = nullptr;
  if (!file.analyzed) {
    // Prepared as unchanged, but the stored file changed since.
    for (AnalyzedPaper& paper : file.papers) {
      paper = AnalyzePaper(std::move(paper.paper));
    }
  } else if (file.run != nullptr) {
    run = change.AdoptRun(std::move(file.run));
  }
  const std::vector<std::string> old_ids =
      stored != nullptr ? std::vector<std::string>(stored->paper_ids().begin(),
                                                   stored->paper_ids().end())
                        : std::vector<std::string>();

  // The stored papers this version drops, by the paragraph the file held
  // them at: a new paper at that paragraph replaces the one there (an
  // edit), even where papers deleted from the file since shift the list.
  absl::flat_hash_map<uint32_t, std::string> gone_at;
  for (const std::string& id : old_ids) {
    if (id_set.contains(id)) continue;
    PAPERDB_ASSIGN_OR_RETURN(PaperState * gone, change.FindPaper(id));
    if (gone == nullptr) continue;  // DropFromFile() reports it below.
    for (const v1::Source& s : gone->record.paper().sources()) {
      if (s.file_name() == file.file_name && s.paragraph_ordinal() > 0) {
        gone_at.emplace(s.paragraph_ordinal(), id);
      }
    }
  }

  for (size_t i = 0; i < n; ++i) {
    if (result.outcomes[i] == PaperOutcome::kSkipped) continue;
    AnalyzedPaper& analyzed = file.papers[i];
    const v1::Source& source = analyzed.paper.sources(0);
    PAPERDB_ASSIGN_OR_RETURN(PaperState * paper,
                             change.FindPaper(analyzed.paper.id()));
    // Whether this file held the paper before: only then is other text an
    // edit. Another file's spelling of a stored paper is a second source of
    // it, and the stored text stays that of the files that hold it.
    const bool held = paper != nullptr &&
                      absl::c_any_of(paper->record.paper().sources(),
                                     [&](const v1::Source& s) {
                                       return s.file_name() == file.file_name;
                                     });
    if (held && paper->record.paper().abstract() != analyzed.paper.abstract()) {
      // Same id, other text: an edit of case or spacing only (the id hashes
      // the case-folded, space-collapsed text). The file's text wins: the
      // paper is replaced, keeping its other sources and first ingest time.
      v1::Paper& fresh = analyzed.paper;
      const google::protobuf::Timestamp first_ingest =
          paper->record.paper().ingest_time();
      for (const v1::Source& s : paper->record.paper().sources()) {
        if (s.file_name() != file.file_name) *fresh.add_sources() = s;
      }
      change.DeletePaper(paper);
      PAPERDB_ASSIGN_OR_RETURN(
          PaperState * replaced,
          change.AddPaper(std::move(analyzed), run, static_cast<uint32_t>(i)));
      *replaced->record.mutable_paper()->mutable_ingest_time() = first_ingest;
      result.outcomes[i] = PaperOutcome::kUpdated;
      result.replaced[i] = replaced->record.paper().id();
      ++result.updated;
      continue;
    }
    if (paper != nullptr) {
      // Stored already: record where this file holds it now.
      v1::Paper& record = *paper->record.mutable_paper();
      v1::Source* entry = nullptr;
      for (v1::Source& s : *record.mutable_sources()) {
        if (s.file_name() == file.file_name) entry = &s;
      }
      if (entry == nullptr) {
        *record.add_sources() = source;
        paper->dirty = true;
      } else if (entry->SerializeAsString() != source.SerializeAsString()) {
        *entry = source;
        paper->dirty = true;
      }
      ++result.unchanged;
      continue;
    }
    auto at = gone_at.find(source.paragraph_ordinal());
    if (at != gone_at.end()) {
      result.outcomes[i] = PaperOutcome::kUpdated;
      result.replaced[i] = std::move(at->second);
      gone_at.erase(at);
      ++result.updated;
    } else {
      result.outcomes[i] = PaperOutcome::kAdded;
      ++result.added;
    }
    PAPERDB_RETURN_IF_ERROR(
        change.AddPaper(std::move(analyzed), run, static_cast<uint32_t>(i))
            .status());
  }
  for (const std::string& id : old_ids) {
    if (id_set.contains(id)) continue;
    PAPERDB_RETURN_IF_ERROR(DropFromFile(change, id, file.file_name).status());
    result.removed.push_back(id);
  }

  storage::v1::SourceRecord record;
  v1::SourceFile& source = *record.mutable_source();
  source.set_file_name(file.file_name);
  source.set_content_hash(file.content_hash);
  source.set_paper_count(static_cast<int32_t>(ids.size()));
  *source.mutable_create_time() =
      stored != nullptr ? stored->source().create_time() : change.now();
  *source.mutable_update_time() = change.now();
  for (std::string& id : ids) record.add_paper_ids(std::move(id));
  result.source = source;
  change.PutSource(std::move(record));
  return result;
}

}  // namespace

absl::StatusOr<std::unique_ptr<IndexWriter>> IndexWriter::Create(
    storage::Store* store) {
  storage::PaperTable table(store);
  PAPERDB_ASSIGN_OR_RETURN(storage::v1::CorpusStats stats, table.Stats());
  PAPERDB_ASSIGN_OR_RETURN(auto dfs, ReadDocumentFrequencies(*store));
  return std::unique_ptr<IndexWriter>(
      new IndexWriter(store, std::move(stats), std::move(dfs)));
}

storage::v1::CorpusStats IndexWriter::stats() const {
  absl::MutexLock lock(&mu_);
  return stats_;
}

absl::Status IndexWriter::Apply(ChangeSet& change) {
  storage::WriteBatch batch(*store_);
  PAPERDB_RETURN_IF_ERROR(change.Write(&batch));
  PAPERDB_RETURN_IF_ERROR(store_->Write(batch));
  stats_ = change.stats();
  for (const auto& [term, df] : change.df_updates()) {
    if (df == 0) {
      dfs_.erase(term);
    } else {
      dfs_[term] = df;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<FileResult>> IndexWriter::CommitFiles(
    std::vector<FileUpdate> files) {
  absl::MutexLock lock(&mu_);
  ChangeSet change(store_, stats_, &dfs_, Now());
  std::vector<FileResult> results;
  results.reserve(files.size());
  for (FileUpdate& file : files) {
    PAPERDB_ASSIGN_OR_RETURN(FileResult result, ApplyFile(change, file));
    results.push_back(std::move(result));
  }
  PAPERDB_RETURN_IF_ERROR(Apply(change));
  return results;
}

absl::StatusOr<CommitResult> IndexWriter::Commit(
    std::vector<v1::Paper> papers) {
  std::vector<FileUpdate> files;
  absl::flat_hash_map<std::string, size_t> file_of;
  std::vector<std::pair<size_t, size_t>> slot;  // Per paper: file, index.
  for (v1::Paper& paper : papers) {
    const std::string& name = paper.sources(0).file_name();
    auto [it, inserted] = file_of.emplace(name, files.size());
    if (inserted) files.emplace_back().file_name = name;
    FileUpdate& file = files[it->second];
    slot.emplace_back(it->second, file.papers.size());
    file.papers.push_back(AnalyzePaper(std::move(paper)));
  }
  for (FileUpdate& file : files) file.run = InvertedRun::Build(file.papers);
  PAPERDB_ASSIGN_OR_RETURN(const std::vector<FileResult> results,
                           CommitFiles(std::move(files)));
  CommitResult total;
  for (const auto& [f, i] : slot) {
    total.outcomes.push_back(results[f].outcomes[i]);
  }
  for (const FileResult& r : results) {
    total.added += r.added;
    total.unchanged += r.unchanged;
    total.updated += r.updated;
    total.skipped += r.skipped;
    total.removed += static_cast<int>(r.removed.size());
  }
  return total;
}

absl::StatusOr<DeletePaperResult> IndexWriter::DeletePaper(
    absl::string_view paper_id) {
  absl::MutexLock lock(&mu_);
  ChangeSet change(store_, stats_, &dfs_, Now());
  PAPERDB_ASSIGN_OR_RETURN(PaperState * paper, change.FindPaper(paper_id));
  if (paper == nullptr) {
    return absl::NotFoundError(absl::StrCat("paper ", paper_id, " not found"));
  }
  DeletePaperResult result;
  result.paper_id = std::string(paper_id);
  for (const v1::Source& source : paper->record.paper().sources()) {
    result.file_names.push_back(source.file_name());
    PAPERDB_ASSIGN_OR_RETURN(storage::v1::SourceRecord * record,
                             change.FindSource(source.file_name()));
    if (record == nullptr) continue;
    auto* ids = record->mutable_paper_ids();
    for (int i = 0; i < ids->size(); ++i) {
      if (ids->Get(i) == paper_id) {
        ids->erase(ids->begin() + i);
        break;
      }
    }
    v1::SourceFile& file = *record->mutable_source();
    file.set_paper_count(ids->size());
    // The stored bytes no longer describe the file's papers: ingesting the
    // same bytes again must compare paper by paper, restoring this one.
    file.clear_content_hash();
    *file.mutable_update_time() = change.now();
    change.MarkSourceDirty(source.file_name());
  }
  change.DeletePaper(paper);
  PAPERDB_RETURN_IF_ERROR(Apply(change));
  return result;
}

absl::StatusOr<DeleteSourceResult> IndexWriter::DeleteSource(
    absl::string_view file_name) {
  absl::MutexLock lock(&mu_);
  ChangeSet change(store_, stats_, &dfs_, Now());
  PAPERDB_ASSIGN_OR_RETURN(storage::v1::SourceRecord * record,
                           change.FindSource(file_name));
  if (record == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("file \"", absl::CHexEscape(file_name), "\" not found"));
  }
  DeleteSourceResult result;
  const std::vector<std::string> ids(record->paper_ids().begin(),
                                     record->paper_ids().end());
  for (const std::string& id : ids) {
    PAPERDB_ASSIGN_OR_RETURN(const bool deleted,
                             DropFromFile(change, id, file_name));
    ++(deleted ? result.papers_deleted : result.papers_kept);
  }
  change.DeleteSource(file_name);
  PAPERDB_RETURN_IF_ERROR(Apply(change));
  return result;
}

}  // namespace paperdb::index
