// xapian_bench: Xapian as a peer in paperdb's benchmark, on the same corpus
// and queries (issue 5). Debian's libxapian 1.4 with the English stemmer
// (Snowball, as paperdb) and BM25Weight (its defaults: k1 = 1, b = 0.5).
//
//   xapian_bench ingest --db=DIR CORPUS_DIR     a transaction per file (as
//                                               paperdb stores files whole),
//                                               flushed once at the end
//   xapian_bench search --db=DIR --queries=FILE [--passes=3]
//
// Files are parsed with paperdb's parser (ingest_service/
// abstract_list_parser.h), so both engines index the same abstracts.
// Queries go through Xapian's QueryParser with AND as the default operator
// and phrase support, stemming STEM_SOME; top 10 by BM25. Xapian's
// get_matches_estimated() is an estimate, not paperdb's exact total.
// `search` prints the same table as search_bench.

#include <xapian.h>

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
#include "bench/latency_table.h"
#include "ingest_service/abstract_list_parser.h"
#include "ingest_service/ingester.h"

ABSL_FLAG(std::string, db, "", "Xapian database directory");
ABSL_FLAG(std::string, queries, "", "file of <kind>TAB<query> lines");
ABSL_FLAG(int, passes, 3, "timed passes over the query set");

namespace {

int Ingest(const std::vector<std::string>& paths) {
  auto files = paperdb::ingest::ListInputFiles(paths);
  if (!files.ok()) {
    std::cerr << "xapian_bench: " << files.status() << "\n";
    return 1;
  }
  Xapian::WritableDatabase db(absl::GetFlag(FLAGS_db),
                              Xapian::DB_CREATE_OR_OVERWRITE);
  Xapian::TermGenerator indexer;
  indexer.set_stemmer(Xapian::Stem("en"));
  indexer.set_stemming_strategy(Xapian::TermGenerator::STEM_SOME);
  int64_t count = 0;
  for (const std::string& path : *files) {
    auto content = paperdb::ingest::ReadFile(path);
    if (!content.ok()) continue;
    auto list = paperdb::ingest::ParseAbstractList(path, *content);
    if (!list.ok()) continue;
    db.begin_transaction(
        /*flushed=*/false);  // Atomic per file; one flush at the end.
    for (const auto& abstract : list->abstracts) {
      Xapian::Document doc;
      indexer.set_document(doc);
      indexer.index_text(abstract.text);
      db.add_document(doc);
      ++count;
    }
    db.commit_transaction();
  }
  db.commit();
  std::cout << count << " abstracts\n";
  return 0;
}

int Search() {
  Xapian::Database db(absl::GetFlag(FLAGS_db));
  Xapian::QueryParser parser;
  parser.set_stemmer(Xapian::Stem("en"));
  parser.set_stemming_strategy(Xapian::QueryParser::STEM_SOME);
  parser.set_default_op(Xapian::Query::OP_AND);
  parser.set_database(db);
  std::vector<std::pair<std::string, Xapian::Query>> queries;
  for (const auto& [kind, text] :
       paperdb::bench::ReadQueries(absl::GetFlag(FLAGS_queries))) {
    queries.emplace_back(
        kind, parser.parse_query(text, Xapian::QueryParser::FLAG_PHRASE |
                                           Xapian::QueryParser::FLAG_DEFAULT));
  }
  Xapian::Enquire enquire(db);
  enquire.set_weighting_scheme(Xapian::BM25Weight());
  std::map<std::string, std::vector<double>> latency_ms;
  std::vector<size_t> order(queries.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::mt19937 rng(42);
  uint64_t rows = 0;
  for (int pass = 0; pass <= absl::GetFlag(FLAGS_passes); ++pass) {
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t i : order) {
      const auto start = std::chrono::steady_clock::now();
      enquire.set_query(queries[i].second);
      const Xapian::MSet top = enquire.get_mset(0, 10);
      for (auto it = top.begin(); it != top.end(); ++it) ++rows;
      const auto end = std::chrono::steady_clock::now();
      if (pass == 0) continue;  // Warm-up.
      latency_ms[queries[i].first].push_back(
          std::chrono::duration<double, std::milli>(end - start).count());
    }
  }
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
    std::cerr << "usage: xapian_bench ingest --db=DIR CORPUS... | search "
                 "--db=DIR --queries=FILE\n";
    return 2;
  }
  try {
    return mode == "ingest"
               ? Ingest(std::vector<std::string>(args.begin() + 2, args.end()))
               : Search();
  } catch (const Xapian::Error& e) {
    std::cerr << "xapian_bench: " << e.get_description() << "\n";
    return 1;
  }
}
