// fts5_bench: SQLite FTS5 as a peer in paperdb's benchmark, on the same
// corpus and queries (issue 5). Debian's libsqlite3 3.40 with FTS5, the
// "porter unicode61" tokenizer and bm25() ranking.
//
//   fts5_bench ingest --db=FILE CORPUS_DIR    one transaction per file, as
//                                             paperdb commits whole files
//   fts5_bench search --db=FILE --queries=FILE [--passes=3]
//
// Files are parsed with paperdb's own parser (ingest_service/
// abstract_list_parser.h), so both engines index the same abstracts.
// `search` prints the same table as search_bench: per query kind, top-10
// latency p50/p95/p99 in milliseconds, one warm-up pass then shuffled
// passes. FTS5 is asked only for the top 10 (ORDER BY bm25 LIMIT 10): unlike
// paperdb it does not also count every match, which favours FTS5.

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "bench/latency_table.h"
#include "ingest_service/abstract_list_parser.h"
#include "ingest_service/ingester.h"

ABSL_FLAG(std::string, db, "", "SQLite database file");
ABSL_FLAG(std::string, queries, "", "file of <kind>TAB<query> lines");
ABSL_FLAG(int, passes, 3, "timed passes over the query set");

namespace {

bool Exec(sqlite3* db, const char* sql) {
  char* error = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
    std::cerr << "fts5_bench: " << sql << ": " << (error ? error : "?") << "\n";
    sqlite3_free(error);
    return false;
  }
  return true;
}

int Ingest(sqlite3* db, const std::vector<std::string>& paths) {
  if (!Exec(db, "PRAGMA journal_mode=WAL") ||
      !Exec(db,
            "CREATE VIRTUAL TABLE papers USING fts5(abstract, "
            "tokenize='porter unicode61')")) {
    return 1;
  }
  auto files = paperdb::ingest::ListInputFiles(paths);
  if (!files.ok()) {
    std::cerr << "fts5_bench: " << files.status() << "\n";
    return 1;
  }
  sqlite3_stmt* insert = nullptr;
  sqlite3_prepare_v2(db, "INSERT INTO papers(abstract) VALUES (?)", -1, &insert,
                     nullptr);
  int64_t count = 0;
  for (const std::string& path : *files) {
    auto content = paperdb::ingest::ReadFile(path);
    if (!content.ok()) continue;
    auto list = paperdb::ingest::ParseAbstractList(path, *content);
    if (!list.ok()) continue;
    Exec(db, "BEGIN");
    for (const auto& abstract : list->abstracts) {
      sqlite3_bind_text(insert, 1, abstract.text.data(),
                        static_cast<int>(abstract.text.size()), SQLITE_STATIC);
      if (sqlite3_step(insert) != SQLITE_DONE) {
        std::cerr << "fts5_bench: insert: " << sqlite3_errmsg(db) << "\n";
        return 1;
      }
      sqlite3_reset(insert);
      ++count;
    }
    if (!Exec(db, "COMMIT")) return 1;
  }
  sqlite3_finalize(insert);
  std::cout << count << " abstracts\n";
  return 0;
}

// paperdb's query syntax for the generated kinds (words, "phrases") is also
// FTS5's, except that FTS5 treats some punctuation as syntax: each word or
// phrase is quoted, which FTS5 matches after tokenizing it; OR stays the
// operator, as in paperdb.
std::string ToFts5(const std::string& query) {
  std::vector<std::string> parts;
  std::string current;
  bool in_phrase = false;
  for (char c : query) {
    if (c == '"') {
      if (in_phrase) {
        parts.push_back(absl::StrCat("\"", current, "\""));
        current.clear();
      }
      in_phrase = !in_phrase;
    } else if (c == ' ' && !in_phrase) {
      if (current == "OR") {
        parts.push_back(current);  // FTS5's operator, as in paperdb.
      } else if (!current.empty()) {
        parts.push_back(absl::StrCat("\"", current, "\""));
      }
      current.clear();
    } else {
      current.push_back(c);
    }
  }
  if (!current.empty()) parts.push_back(absl::StrCat("\"", current, "\""));
  return absl::StrJoin(parts, " ");
}

int Search(sqlite3* db) {
  std::vector<std::pair<std::string, std::string>> queries =
      paperdb::bench::ReadQueries(absl::GetFlag(FLAGS_queries));
  for (auto& [kind, query] : queries) query = ToFts5(query);
  sqlite3_stmt* search = nullptr;
  if (sqlite3_prepare_v2(db,
                         "SELECT rowid FROM papers WHERE papers MATCH ? "
                         "ORDER BY bm25(papers) LIMIT 10",
                         -1, &search, nullptr) != SQLITE_OK) {
    std::cerr << "fts5_bench: " << sqlite3_errmsg(db) << "\n";
    return 1;
  }
  std::map<std::string, std::vector<double>> latency_ms;
  std::vector<size_t> order(queries.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::mt19937 rng(42);
  uint64_t rows = 0;
  for (int pass = 0; pass <= absl::GetFlag(FLAGS_passes); ++pass) {
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t i : order) {
      const auto start = std::chrono::steady_clock::now();
      sqlite3_bind_text(search, 1, queries[i].second.data(),
                        static_cast<int>(queries[i].second.size()),
                        SQLITE_STATIC);
      int step;
      while ((step = sqlite3_step(search)) == SQLITE_ROW) ++rows;
      sqlite3_reset(search);
      const auto end = std::chrono::steady_clock::now();
      if (step != SQLITE_DONE) {
        std::cerr << "fts5_bench: " << queries[i].second << ": "
                  << sqlite3_errmsg(db) << "\n";
        return 1;
      }
      if (pass == 0) continue;  // Warm-up.
      latency_ms[queries[i].first].push_back(
          std::chrono::duration<double, std::milli>(end - start).count());
    }
  }
  sqlite3_finalize(search);
  paperdb::bench::PrintLatencyTable(latency_ms);
  std::printf("(rows returned over all runs: %llu)\n",
              static_cast<unsigned long long>(rows));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> args = absl::ParseCommandLine(argc, argv);
  const std::string mode = args.size() > 1 ? args[1] : "";
  if (absl::GetFlag(FLAGS_db).empty() ||
      (mode != "ingest" && mode != "search")) {
    std::cerr << "usage: fts5_bench ingest --db=FILE DIR... | search --db=FILE "
                 "--queries=FILE\n";
    return 2;
  }
  sqlite3* db = nullptr;
  if (sqlite3_open(absl::GetFlag(FLAGS_db).c_str(), &db) != SQLITE_OK) {
    std::cerr << "fts5_bench: cannot open " << absl::GetFlag(FLAGS_db) << "\n";
    return 1;
  }
  const int status =
      mode == "ingest"
          ? Ingest(db, std::vector<std::string>(args.begin() + 2, args.end()))
          : Search(db);
  sqlite3_close(db);
  return status;
}
