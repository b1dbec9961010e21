// search_bench: in-process, single-threaded top-10 search latency over a
// paperdb store, per query kind. Reads "<kind>\t<query>" lines (from
// bench/gen_queries.py), runs one warm-up pass, then --passes shuffled passes,
// and prints p50/p95/p99 in milliseconds per kind.
//
//   search_bench --db=DIR --queries=queries.tsv [--passes=3] [--per_query]
//
// A kind ending in "_all" is searched with full matches only
// (SearchOptions::partial_matches false, MATCHING_STRATEGY_ALL over gRPC), as
// the peers search; other kinds with the default (partial matches follow or
// replace too few full ones).
//
// --per_query also prints, slowest first, each query's median latency, its
// total and whether the total is estimated (for profiling); --check_totals
// compares every estimated total with the exact count.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "bench/latency_table.h"
#include "paperdb/common/flags_usage.h"
#include "paperdb/index/posting_cache.h"
#include "paperdb/search/query_expander.h"
#include "paperdb/search/query_parser.h"
#include "paperdb/search/searcher.h"
#include "paperdb/search/semantic_query.h"
#include "paperdb/storage/paper_table.h"
#include "paperdb/storage/store.h"

ABSL_FLAG(std::string, db, "", "paperdb store to search (opened read-only)");
ABSL_FLAG(std::string, queries, "", "file of <kind>TAB<query> lines");
ABSL_FLAG(int, passes, 3, "timed passes over the query set");
ABSL_FLAG(int, top_k, 10, "results per query");
ABSL_FLAG(bool, semantic, false,
          "search concepts beside the words, as query_service does by "
          "default (SEMANTIC_MODE_ON, paperdb/search/semantic_query.h)");
ABSL_FLAG(bool, per_query, false,
          "also print each query's median latency and total, slowest first");
ABSL_FLAG(bool, check_top, false,
          "after the timed passes, search every query again without pruning "
          "and report the queries whose top k (doc ids, scores) differ");
ABSL_FLAG(bool, check_totals, false,
          "after the timed passes, count every query's matches exactly and "
          "report how far the estimated totals were off");
ABSL_FLAG(int, posting_cache_mib, 512,
          "posting lists kept between searches, MiB (query_service's default)");

namespace {}  // namespace

int main(int argc, char** argv) {
  paperdb::SetUpFlagsUsage("search_bench --db=DIR --queries=FILE");
  absl::ParseCommandLine(argc, argv);
  const std::string secondary =
      (std::filesystem::temp_directory_path() / "paperdb-search-bench")
          .string();
  auto store = paperdb::storage::Store::OpenSecondary(absl::GetFlag(FLAGS_db),
                                                      secondary);
  if (!store.ok()) {
    std::cerr << "search_bench: " << store.status() << "\n";
    return 1;
  }
  std::vector<std::pair<std::string, paperdb::search::Query>> queries;
  std::vector<std::string> texts;  // As written, for --per_query.
  for (const auto& [kind, text] :
       paperdb::bench::ReadQueries(absl::GetFlag(FLAGS_queries))) {
    auto query = paperdb::search::ParseQuery(text);
    if (!query.ok()) continue;
    queries.emplace_back(kind, *std::move(query));
    texts.push_back(text);
  }
  paperdb::index::PostingCache::Default().SetCapacity(
      static_cast<size_t>(absl::GetFlag(FLAGS_posting_cache_mib)) << 20);
  // Read once, as query_service keeps them between catch-ups.
  const auto stats = paperdb::storage::PaperTable(store->get()).Stats();
  if (!stats.ok()) {
    std::cerr << "search_bench: " << stats.status() << "\n";
    return 1;
  }
  const paperdb::search::Searcher searcher(store->get(), &*stats);
  std::map<std::string, std::vector<double>> latency_ms;
  std::vector<std::vector<double>> query_ms(queries.size());
  std::vector<paperdb::search::SearchHits> query_hits(queries.size());
  std::vector<size_t> order(queries.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::mt19937 rng(42);
  uint64_t checksum = 0;
  for (int pass = 0; pass <= absl::GetFlag(FLAGS_passes); ++pass) {
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t i : order) {
      const auto start = std::chrono::steady_clock::now();
      paperdb::search::Query query = queries[i].second;
      if (absl::GetFlag(FLAGS_semantic)) {
        std::vector<paperdb::search::MatchUnit> units;
        std::vector<paperdb::search::QueryRewrite> rewrites;
        auto concepts =
            paperdb::search::ExpandConcepts(**store, &query, &units, &rewrites);
        if (!concepts.ok()) {
          std::cerr << "search_bench: " << concepts.status() << "\n";
          return 1;
        }
      }
      auto expanded = paperdb::search::ExpandQuery(**store, std::move(query));
      if (!expanded.ok()) {
        std::cerr << "search_bench: " << expanded.status() << "\n";
        return 1;
      }
      paperdb::search::SearchOptions options;
      options.top_k = static_cast<size_t>(absl::GetFlag(FLAGS_top_k));
      options.partial_matches = !absl::EndsWith(queries[i].first, "_all");
      auto hits = searcher.Search(expanded->query, options);
      const auto end = std::chrono::steady_clock::now();
      if (!hits.ok()) {
        std::cerr << "search_bench: " << hits.status() << "\n";
        return 1;
      }
      checksum += hits->total;
      if (pass == 0) continue;  // Warm-up.
      const double ms =
          std::chrono::duration<double, std::milli>(end - start).count();
      latency_ms[queries[i].first].push_back(ms);
      query_ms[i].push_back(ms);
      query_hits[i] = *std::move(hits);
    }
  }
  paperdb::bench::PrintLatencyTable(latency_ms);
  if (absl::GetFlag(FLAGS_check_totals)) {
    // Each estimated total against the exact count of the same query.
    std::vector<double> errors;  // |estimate / exact - 1|, in percent.
    size_t estimated = 0;
    for (size_t i = 0; i < queries.size(); ++i) {
      if (!query_hits[i].total_estimated) continue;
      ++estimated;
      auto expanded = paperdb::search::ExpandQuery(**store, queries[i].second);
      paperdb::search::SearchOptions options;
      options.top_k = static_cast<size_t>(absl::GetFlag(FLAGS_top_k));
      options.exact_total_up_to = UINT64_MAX;
      options.partial_matches = !absl::EndsWith(queries[i].first, "_all");
      auto exact = searcher.Search(expanded->query, options);
      if (!exact.ok()) {
        std::cerr << "search_bench: " << exact.status() << "\n";
        return 1;
      }
      const double error =
          100.0 * std::abs(static_cast<double>(query_hits[i].total) /
                               static_cast<double>(exact->total) -
                           1.0);
      errors.push_back(error);
      if (absl::GetFlag(FLAGS_per_query)) {
        std::printf("estimate %10llu exact %10llu (%5.1f%%) %s\n",
                    static_cast<unsigned long long>(query_hits[i].total),
                    static_cast<unsigned long long>(exact->total), error,
                    texts[i].c_str());
      }
    }
    std::printf(
        "estimated totals: %zu of %zu queries; error p50 %.1f%%, p90 %.1f%%, "
        "max %.1f%%\n",
        estimated, queries.size(),
        errors.empty() ? 0 : paperdb::bench::Percentile(errors, 0.5),
        errors.empty() ? 0 : paperdb::bench::Percentile(errors, 0.9),
        errors.empty() ? 0 : *std::max_element(errors.begin(), errors.end()));
  }
  if (absl::GetFlag(FLAGS_check_top)) {
    // Each pruned top k against an exhaustive search of the same query
    // (every match scored): the same papers in the same order, the same
    // scores to 1e-9.
    size_t differ = 0;
    for (size_t i = 0; i < queries.size(); ++i) {
      auto expanded = paperdb::search::ExpandQuery(**store, queries[i].second);
      paperdb::search::SearchOptions options;
      options.top_k = static_cast<size_t>(absl::GetFlag(FLAGS_top_k));
      options.prune = false;
      options.partial_matches = !absl::EndsWith(queries[i].first, "_all");
      auto exact = searcher.Search(expanded->query, options);
      if (!exact.ok()) {
        std::cerr << "search_bench: " << exact.status() << "\n";
        return 1;
      }
      const auto& pruned = query_hits[i].top;
      bool same = pruned.size() == exact->top.size();
      for (size_t r = 0; same && r < pruned.size(); ++r) {
        same = pruned[r].doc == exact->top[r].doc &&
               std::abs(pruned[r].score - exact->top[r].score) <= 1e-9;
      }
      if (!same) {
        ++differ;
        std::printf("top %zu differs from the exhaustive search's: %s\n",
                    options.top_k, texts[i].c_str());
      }
    }
    std::printf("top k checked: %zu queries, %zu differ\n", queries.size(),
                differ);
  }
  if (absl::GetFlag(FLAGS_per_query)) {
    std::vector<std::pair<double, size_t>> slowest;
    for (size_t i = 0; i < queries.size(); ++i) {
      if (!query_ms[i].empty()) {
        slowest.emplace_back(paperdb::bench::Percentile(query_ms[i], 0.5), i);
      }
    }
    std::sort(slowest.rbegin(), slowest.rend());
    std::printf("%9s %-10s %10s %s\n", "p50_ms", "kind", "total", "query");
    for (const auto& [ms, i] : slowest) {
      std::printf("%9.3f %-10s %10llu%s %s\n", ms, queries[i].first.c_str(),
                  static_cast<unsigned long long>(query_hits[i].total),
                  query_hits[i].total_estimated ? "~" : " ", texts[i].c_str());
    }
  }
  std::printf(
      "(matches summed over all runs: %llu; posting cache: %zu lists, %zu "
      "MiB)\n",
      static_cast<unsigned long long>(checksum),
      paperdb::index::PostingCache::Default().size(),
      paperdb::index::PostingCache::Default().ByteSize() >> 20);
  std::error_code ignored;
  std::filesystem::remove_all(secondary, ignored);
  return 0;
}
