// relevance_eval: nDCG@10 and MRR@10 of paperdb on the judged query set in
// tests/relevance/, per tier, next to SQLite FTS5's bm25() on the same
// abstracts (tests/relevance/README.md explains tiers, grades and scores).
//
//   relevance_eval [--data_dir=data] [--queries=...] [--judgments=...]
//                  [--markdown_out=FILE] [--verbose]
//                  [--min_ndcg=X] [--fts5_margin=Y] [--dump_papers]
//
// paperdb: the files of --data_dir are ingested with paperdb's Ingester into
// a store in a fresh temporary directory (removed at exit), a QueryEngine
// opens it, and each query goes through QueryEngine::SearchPapers with
// page_size 10, exactly as a client's request. FTS5: an in-memory table
// (tokenize 'porter unicode61') holds the same papers' abstracts, read back
// from paperdb with ListPapers; each query is translated by ToFts5Query(),
// ranked by bm25(), and run again with OR when the AND finds nothing, like
// paperdb's any-term fallback.
//
// Prints the per-tier table (markdown); exits 1 if the overall paperdb
// nDCG@10 is below --min_ndcg or more than --fts5_margin below FTS5's, 2 on
// bad input (including a judged paper id that is not in the store).

#include <sqlite3.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "ingest_service/ingester.h"
#include "paperdb/index/index_writer.h"
#include "paperdb/storage/store.h"
#include "query_service/query_engine.h"
#include "tests/relevance/relevance.h"
#include "tests/relevance/rerank_experiments.h"
#include "tests/relevance/similar_eval.h"

ABSL_FLAG(std::string, data_dir, PAPERDB_SOURCE_DIR "/data",
          "directory of paper-list files to ingest");
ABSL_FLAG(std::string, queries,
          PAPERDB_SOURCE_DIR "/tests/relevance/queries.tsv",
          "query_id TAB tier TAB query");
ABSL_FLAG(std::string, judgments,
          PAPERDB_SOURCE_DIR "/tests/relevance/judgments.tsv",
          "query_id TAB paper_id TAB grade [TAB note]");
ABSL_FLAG(std::string, papers, PAPERDB_SOURCE_DIR "/tests/relevance/papers.tsv",
          "paper_id TAB file TAB paragraph TAB note: names for --verbose "
          "(optional)");
ABSL_FLAG(std::string, markdown_out, "",
          "also write the per-tier and per-query tables to this file");
ABSL_FLAG(std::string, semantic, "on",
          "paperdb's semantic side (SearchPapersRequest.semantic): on, off or "
          "only");
ABSL_FLAG(double, rm3_original_weight, 1.0,
          "experiment (rerank_experiments.h): RM3's weight of the original "
          "query, below 1 to rerank paperdb's results with RM3");
ABSL_FLAG(int, rm3_docs, 10, "experiment: RM3's feedback documents");
ABSL_FLAG(int, rm3_terms, 10, "experiment: RM3's expansion terms");
ABSL_FLAG(double, sdm_ordered, 0.0,
          "experiment: the sequential dependence model's ordered-pair weight "
          "relative to the words' (0.10 / 0.85 as published)");
ABSL_FLAG(double, sdm_unordered, 0.0,
          "experiment: its unordered-pair weight (0.05 / 0.85 as published)");
ABSL_FLAG(bool, verbose, false,
          "print each query's scores and top results (grade:note)");
ABSL_FLAG(bool, dump_papers, false,
          "only print each paper's id and the start of its abstract (to "
          "write judgments)");
ABSL_FLAG(double, similar_min_ndcg, 0,
          "exit 1 if SimilarPapers' nDCG@10 over the split's judged papers "
          "(similar_eval.h) is below this");
ABSL_FLAG(double, min_ndcg, 0.0,
          "exit 1 if paperdb's overall nDCG@10 is below this");
ABSL_FLAG(double, fts5_margin, -1.0,
          "if >= 0, exit 1 if paperdb's overall nDCG@10 is more than this "
          "below FTS5's (0: never below)");

namespace paperdb::relevance {
namespace {

constexpr int kPaperdb = 0;
constexpr int kFts5 = 1;

// A fresh temporary directory, removed with everything in it on
// destruction.
class TempDir {
 public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "paperdb_relevance_XXXXXX")
            .string();
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }  // Empty on failure.

 private:
  std::string path_;
};

// Ingests every file of `data_dir` into a new store at `db_path` with
// paperdb's Ingester; the writer is closed on return.
absl::Status BuildStore(const std::string& data_dir,
                        const std::string& db_path) {
  auto store = storage::Store::OpenPrimary(db_path);
  if (!store.ok()) return store.status();
  auto writer = index::IndexWriter::Create(store->get());
  if (!writer.ok()) return writer.status();
  ingest::Ingester ingester(writer->get(), store->get());
  auto files = ingest::ListInputFiles({data_dir});
  if (!files.ok()) return files.status();
  if (files->empty()) {
    return absl::NotFoundError(absl::StrCat("no files in ", data_dir));
  }
  for (const std::string& path : *files) {
    auto content = ingest::ReadFile(path);
    if (!content.ok()) return content.status();
    auto response = ingester.IngestContent(
        std::filesystem::path(path).filename().string(), *content);
    if (!response.ok()) return response.status();
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<v1::Paper>> AllPapers(
    const query::QueryEngine& engine) {
  std::vector<v1::Paper> papers;
  v1::ListPapersRequest request;
  request.set_page_size(1000);
  do {
    v1::ListPapersResponse response;
    absl::Status status = engine.ListPapers(request, &response);
    if (!status.ok()) return status;
    for (v1::Paper& paper : *response.mutable_papers()) {
      papers.push_back(std::move(paper));
    }
    request.set_page_token(response.next_page_token());
  } while (!request.page_token().empty());
  return papers;
}

// Results paperdb's ranking is reranked from, with a reranking experiment.
constexpr int kRerankDepth = 40;

Ranking SearchPaperdb(const query::QueryEngine& engine,
                      const std::string& query, relevance::RerankCorpus* rerank,
                      const relevance::RerankOptions& options) {
  v1::SearchPapersRequest request;
  request.set_query(query);
  request.set_page_size(options.enabled() ? kRerankDepth : kCutoff);
  const std::string semantic = absl::GetFlag(FLAGS_semantic);
  request.set_semantic(semantic == "off"    ? v1::SEMANTIC_MODE_OFF
                       : semantic == "only" ? v1::SEMANTIC_MODE_ONLY
                                            : v1::SEMANTIC_MODE_ON);
  v1::SearchPapersResponse response;
  Ranking ranking;
  absl::Status status = engine.SearchPapers(request, &response);
  if (!status.ok()) {
    ranking.error = status.ToString();
    return ranking;
  }
  if (options.enabled()) {
    ranking.ids = rerank->Rerank(query, response, options);
    if (ranking.ids.size() > kCutoff) ranking.ids.resize(kCutoff);
  } else {
    for (const v1::SearchResult& result : response.results()) {
      ranking.ids.push_back(result.paper().id());
    }
  }
  // Papers matching any words, or concepts alone: not a full match.
  ranking.any_terms = response.match_mode() == v1::MATCH_MODE_ANY_TERMS ||
                      response.match_mode() == v1::MATCH_MODE_CONCEPTS;
  return ranking;
}

// The FTS5 peer: one in-memory table of (id, abstract).
class Fts5Index {
 public:
  static absl::StatusOr<std::unique_ptr<Fts5Index>> Build(
      const std::vector<v1::Paper>& papers) {
    sqlite3* db = nullptr;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
      sqlite3_close(db);
      return absl::InternalError("sqlite3_open(:memory:) failed");
    }
    auto index = std::unique_ptr<Fts5Index>(new Fts5Index(db));
    char* error = nullptr;
    if (sqlite3_exec(db,
                     "CREATE VIRTUAL TABLE papers USING fts5(id UNINDEXED, "
                     "abstract, tokenize='porter unicode61')",
                     nullptr, nullptr, &error) != SQLITE_OK) {
      const std::string message = error != nullptr ? error : "?";
      sqlite3_free(error);
      return absl::InternalError("fts5: " + message);
    }
    sqlite3_stmt* insert = nullptr;
    sqlite3_prepare_v2(db, "INSERT INTO papers(id, abstract) VALUES (?, ?)", -1,
                       &insert, nullptr);
    for (const v1::Paper& paper : papers) {
      sqlite3_bind_text(insert, 1, paper.id().data(),
                        static_cast<int>(paper.id().size()), SQLITE_STATIC);
      sqlite3_bind_text(insert, 2, paper.abstract().data(),
                        static_cast<int>(paper.abstract().size()),
                        SQLITE_STATIC);
      const int step = sqlite3_step(insert);
      sqlite3_reset(insert);
      if (step != SQLITE_DONE) {
        sqlite3_finalize(insert);
        return absl::InternalError(
            absl::StrCat("fts5 insert: ", sqlite3_errmsg(db)));
      }
    }
    sqlite3_finalize(insert);
    if (sqlite3_prepare_v2(db,
                           "SELECT id FROM papers WHERE papers MATCH ? "
                           "ORDER BY bm25(papers) LIMIT 10",
                           -1, &index->search_, nullptr) != SQLITE_OK) {
      return absl::InternalError(absl::StrCat("fts5: ", sqlite3_errmsg(db)));
    }
    return index;
  }

  Fts5Index(const Fts5Index&) = delete;
  Fts5Index& operator=(const Fts5Index&) = delete;
  ~Fts5Index() {
    sqlite3_finalize(search_);
    sqlite3_close(db_);
  }

  // All terms first; if that finds nothing, any term (reported as
  // any_terms, like paperdb's MATCH_MODE_ANY_TERMS).
  Ranking Search(const std::string& query) {
    Ranking ranking;
    const std::string all = ToFts5Query(query, /*any_terms=*/false);
    if (all.empty()) return ranking;
    Run(all, &ranking);
    const std::string any = ToFts5Query(query, /*any_terms=*/true);
    if (ranking.ids.empty() && ranking.error.empty() && any != all) {
      Run(any, &ranking);
      ranking.any_terms = !ranking.ids.empty();
    }
    return ranking;
  }

 private:
  explicit Fts5Index(sqlite3* db) : db_(db) {}

  void Run(const std::string& expression, Ranking* ranking) {
    sqlite3_bind_text(search_, 1, expression.data(),
                      static_cast<int>(expression.size()), SQLITE_STATIC);
    int step;
    while ((step = sqlite3_step(search_)) == SQLITE_ROW) {
      ranking->ids.emplace_back(
          reinterpret_cast<const char*>(sqlite3_column_text(search_, 0)));
    }
    if (step != SQLITE_DONE) {
      ranking->error = absl::StrCat(expression, ": ", sqlite3_errmsg(db_));
    }
    sqlite3_reset(search_);
  }

  sqlite3* db_;
  sqlite3_stmt* search_ = nullptr;
};

// Adds the notes (paper names) of a papers.tsv file to `notes`, keeping
// those already there; a missing file adds nothing.
void AddPaperNotes(const std::string& path,
                   std::map<std::string, std::string>* notes) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> fields = absl::StrSplit(line, '\t');
    if (fields.size() >= 4 && !line.starts_with("#")) {
      notes->emplace(fields[0], fields[3]);
    }
  }
}

struct QueryScores {
  double ndcg[2] = {0, 0};
  double mrr[2] = {0, 0};
  Ranking ranking[2];
};

QueryScores Score(const JudgedQuery& query, Ranking paperdb, Ranking fts5) {
  QueryScores scores;
  scores.ranking[kPaperdb] = std::move(paperdb);
  scores.ranking[kFts5] = std::move(fts5);
  for (int engine : {kPaperdb, kFts5}) {
    const Ranking& ranking = scores.ranking[engine];
    if (query.no_relevant()) {
      scores.ndcg[engine] = scores.mrr[engine] = NoRelevantScore(ranking);
    } else {
      scores.ndcg[engine] = Ndcg(query, ranking);
      scores.mrr[engine] = ReciprocalRank(query, ranking);
    }
  }
  return scores;
}

// Per tier in order of first appearance, then "all".
std::vector<Summary> Summarize(const std::vector<JudgedQuery>& queries,
                               const std::vector<QueryScores>& scores) {
  std::vector<Summary> rows;
  std::map<std::string, size_t> row_of;
  Summary all{"all"};
  for (size_t i = 0; i < queries.size(); ++i) {
    auto [it, added] = row_of.emplace(queries[i].tier, rows.size());
    if (added) rows.push_back({queries[i].tier});
    for (Summary* row : {&rows[it->second], &all}) {
      ++row->queries;
      for (int engine : {kPaperdb, kFts5}) {
        row->ndcg[engine] += scores[i].ndcg[engine];
        row->mrr[engine] += scores[i].mrr[engine];
      }
    }
  }
  rows.push_back(all);
  for (Summary& row : rows) {
    for (int engine : {kPaperdb, kFts5}) {
      row.ndcg[engine] /= row.queries;
      row.mrr[engine] /= row.queries;
    }
  }
  return rows;
}

std::string TierTable(const std::vector<Summary>& rows) {
  std::string out =
      "| tier | queries | paperdb nDCG@10 | FTS5 nDCG@10 | paperdb MRR@10 | "
      "FTS5 MRR@10 |\n|---|---:|---:|---:|---:|---:|\n";
  for (const Summary& row : rows) {
    const bool all = row.tier == "all";
    absl::StrAppendFormat(&out, "| %s | %d | %s%.3f%s | %.3f | %.3f | %.3f |\n",
                          all ? "**all**" : row.tier, row.queries,
                          all ? "**" : "", row.ndcg[kPaperdb], all ? "**" : "",
                          row.ndcg[kFts5], row.mrr[kPaperdb], row.mrr[kFts5]);
  }
  return out;
}

// Each result as grade (0 if unjudged) and note, e.g. "3:LIFT 0 1:ARM".
std::string Describe(const JudgedQuery& query, const Ranking& ranking,
                     const std::map<std::string, std::string>& notes) {
  if (!ranking.error.empty()) return "error: " + ranking.error;
  std::vector<std::string> parts;
  for (const std::string& id : ranking.ids) {
    auto grade = query.grades.find(id);
    auto note = notes.find(id);
    parts.push_back(
        absl::StrCat(grade == query.grades.end() ? 0 : grade->second,
                     note == notes.end() ? "" : ":" + note->second));
  }
  std::string text = parts.empty() ? "(nothing)" : absl::StrJoin(parts, " ");
  if (ranking.any_terms) text = "[any-term] " + text;
  return text;
}

std::string QueryTable(const std::vector<JudgedQuery>& queries,
                       const std::vector<QueryScores>& scores) {
  std::string out =
      "| query id | query | paperdb nDCG@10 | FTS5 nDCG@10 | paperdb MRR@10 | "
      "FTS5 MRR@10 |\n|---|---|---:|---:|---:|---:|\n";
  for (size_t i = 0; i < queries.size(); ++i) {
    const QueryScores& s = scores[i];
    const std::string mark =
        s.ndcg[kPaperdb] + 1e-9 < s.ndcg[kFts5] ? " ▼" : "";
    absl::StrAppendFormat(&out, "| %s | `%s` | %.3f%s | %.3f | %.3f | %.3f |\n",
                          queries[i].id, queries[i].text, s.ndcg[kPaperdb],
                          mark, s.ndcg[kFts5], s.mrr[kPaperdb], s.mrr[kFts5]);
  }
  return out;
}

int Run() {
  const bool dump = absl::GetFlag(FLAGS_dump_papers);
  std::map<std::string, std::string> notes;
  absl::StatusOr<std::vector<JudgedQuery>> queries;
  if (!dump) {
    std::vector<std::string> warnings;
    queries =
        LoadJudgedQueries(absl::GetFlag(FLAGS_queries),
                          absl::GetFlag(FLAGS_judgments), &notes, &warnings);
    if (!queries.ok()) {
      std::cerr << "relevance_eval: " << queries.status() << "\n";
      return 2;
    }
    for (const std::string& warning : warnings) {
      std::cerr << "relevance_eval: warning: " << warning << "\n";
    }
    AddPaperNotes(absl::GetFlag(FLAGS_papers), &notes);
  }
  TempDir dir;
  if (dir.path().empty()) {
    std::cerr << "relevance_eval: cannot create a temporary directory\n";
    return 2;
  }
  const std::string db_path = dir.path() + "/db";
  absl::Status built = BuildStore(absl::GetFlag(FLAGS_data_dir), db_path);
  if (!built.ok()) {
    std::cerr << "relevance_eval: ingest: " << built << "\n";
    return 2;
  }
  auto engine = query::QueryEngine::Open(db_path, dir.path() + "/secondary");
  if (!engine.ok()) {
    std::cerr << "relevance_eval: " << engine.status() << "\n";
    return 2;
  }
  auto papers = AllPapers(**engine);
  if (!papers.ok()) {
    std::cerr << "relevance_eval: " << papers.status() << "\n";
    return 2;
  }
  if (dump) {
    for (const v1::Paper& paper : *papers) {
      const v1::Source source =
          paper.sources_size() > 0 ? paper.sources(0) : v1::Source();
      std::cout << paper.id() << "\t" << source.file_name() << "\t"
                << source.paragraph_ordinal() << "\t"
                << paper.abstract().substr(0, 60) << "\n";
    }
    return 0;
  }
  // Judgments name papers by their content-hash ids: a judged id missing
  // from the store means the data or the id scheme changed under them.
  std::set<std::string> stored;
  for (const v1::Paper& paper : *papers) stored.insert(paper.id());
  for (const JudgedQuery& query : *queries) {
    for (const auto& [id, grade] : query.grades) {
      if (!stored.contains(id)) {
        std::cerr << "relevance_eval: " << query.id << ": judged paper " << id
                  << " is not in " << absl::GetFlag(FLAGS_data_dir) << "\n";
        return 2;
      }
    }
  }
  auto fts5 = Fts5Index::Build(*papers);
  if (!fts5.ok()) {
    std::cerr << "relevance_eval: " << fts5.status() << "\n";
    return 2;
  }

  relevance::RerankOptions options;
  options.rm3_original_weight = absl::GetFlag(FLAGS_rm3_original_weight);
  options.rm3_docs = absl::GetFlag(FLAGS_rm3_docs);
  options.rm3_terms = absl::GetFlag(FLAGS_rm3_terms);
  options.sdm_ordered = absl::GetFlag(FLAGS_sdm_ordered);
  options.sdm_unordered = absl::GetFlag(FLAGS_sdm_unordered);
  auto rerank = relevance::RerankCorpus::Build(*papers);
  if (!rerank.ok()) {
    std::cerr << "relevance_eval: " << rerank.status() << "\n";
    return 2;
  }
  std::vector<QueryScores> scores;
  const bool verbose = absl::GetFlag(FLAGS_verbose);
  for (const JudgedQuery& query : *queries) {
    scores.push_back(Score(
        query, SearchPaperdb(**engine, query.text, rerank->get(), options),
        (*fts5)->Search(query.text)));
    const QueryScores& s = scores.back();
    if (verbose) {
      std::cout << absl::StrFormat(
          "%-14s nDCG %.3f / %.3f  RR %.3f / %.3f  %s\n"
          "    paperdb: %s\n    fts5:    %s\n",
          query.id, s.ndcg[kPaperdb], s.ndcg[kFts5], s.mrr[kPaperdb],
          s.mrr[kFts5], query.text, Describe(query, s.ranking[kPaperdb], notes),
          Describe(query, s.ranking[kFts5], notes));
    }
  }
  for (int engine : {kPaperdb, kFts5}) {
    int rejected = 0;
    for (const QueryScores& s : scores)
      rejected += !s.ranking[engine].error.empty();
    if (rejected > 0) {
      std::cerr << absl::StrFormat(
          "relevance_eval: %s rejected %d queries (scored as empty results; "
          "--verbose shows why)\n",
          engine == kPaperdb ? "paperdb" : "FTS5", rejected);
    }
  }
  const std::vector<Summary> rows = Summarize(*queries, scores);
  const std::string table = TierTable(rows);
  std::cout << absl::StrFormat("%d papers, %d queries\n\n", papers->size(),
                               queries->size())
            << table;
  const std::string markdown_out = absl::GetFlag(FLAGS_markdown_out);
  if (!markdown_out.empty()) {
    std::ofstream out(markdown_out);
    out << table << "\n" << QueryTable(*queries, scores);
    if (!out) {
      std::cerr << "relevance_eval: cannot write " << markdown_out << "\n";
      return 2;
    }
  }

  auto similar = EvaluateSimilarPapers(**engine, *queries);
  if (!similar.ok()) {
    std::cerr << "relevance_eval: SimilarPapers: " << similar.status() << "\n";
    return 2;
  }
  const std::string similar_line = absl::StrFormat(
      "SimilarPapers: nDCG@10 %.3f over %d (query, judged paper) pairs\n",
      similar->ndcg, similar->pairs);
  std::cout << "\n" << similar_line;

  const Summary& all = rows.back();
  int status = 0;
  if (similar->ndcg < absl::GetFlag(FLAGS_similar_min_ndcg)) {
    std::cerr << absl::StrFormat(
        "FAIL: SimilarPapers nDCG@10 %.4f is below the threshold %.4f\n",
        similar->ndcg, absl::GetFlag(FLAGS_similar_min_ndcg));
    status = 1;
  }
  if (all.ndcg[kPaperdb] < absl::GetFlag(FLAGS_min_ndcg)) {
    std::cerr << absl::StrFormat(
        "FAIL: paperdb nDCG@10 %.4f is below the threshold %.4f\n",
        all.ndcg[kPaperdb], absl::GetFlag(FLAGS_min_ndcg));
    status = 1;
  }
  const double margin = absl::GetFlag(FLAGS_fts5_margin);
  if (margin >= 0 && all.ndcg[kPaperdb] < all.ndcg[kFts5] - margin) {
    std::cerr << absl::StrFormat(
        "FAIL: paperdb nDCG@10 %.4f is more than %.4f below FTS5's %.4f\n",
        all.ndcg[kPaperdb], margin, all.ndcg[kFts5]);
    status = 1;
  }
  return status;
}

}  // namespace
}  // namespace paperdb::relevance

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "nDCG@10 and MRR@10 of paperdb and SQLite FTS5 on the judged query set "
      "(tests/relevance/README.md)");
  absl::ParseCommandLine(argc, argv);
  return paperdb::relevance::Run();
}
