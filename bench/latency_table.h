// What the search benchmarks share, so that paperdb and its peers read the
// same query file and print one table format (bench/run.sh parses it):
// queries as <kind>TAB<query> lines, and per kind the number of timed
// queries with p50, p95 and p99 latency in milliseconds, then all kinds.

#ifndef PAPERDB_BENCH_LATENCY_TABLE_H_
#define PAPERDB_BENCH_LATENCY_TABLE_H_

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace paperdb::bench {

// The `p` quantile (0 to 1) of `v`, nearest rank; 0 for none.
inline double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(p * v.size()));
  return v[i];
}

// The (kind, query) pairs of the <kind>TAB<query> lines of file `path`;
// lines without a tab are skipped.
inline std::vector<std::pair<std::string, std::string>> ReadQueries(
    const std::string& path) {
  std::vector<std::pair<std::string, std::string>> queries;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    queries.emplace_back(line.substr(0, tab), line.substr(tab + 1));
  }
  return queries;
}

// Prints the table of `latency_ms` (milliseconds by query kind) to stdout.
inline void PrintLatencyTable(
    const std::map<std::string, std::vector<double>>& latency_ms) {
  std::printf("%-10s %7s %9s %9s %9s\n", "kind", "queries", "p50_ms", "p95_ms",
              "p99_ms");
  std::vector<double> all;
  for (const auto& [kind, v] : latency_ms) {
    std::printf("%-10s %7zu %9.3f %9.3f %9.3f\n", kind.c_str(), v.size(),
                Percentile(v, 0.5), Percentile(v, 0.95), Percentile(v, 0.99));
    all.insert(all.end(), v.begin(), v.end());
  }
  std::printf("%-10s %7zu %9.3f %9.3f %9.3f\n", "all", all.size(),
              Percentile(all, 0.5), Percentile(all, 0.95),
              Percentile(all, 0.99));
}

}  // namespace paperdb::bench

#endif  // PAPERDB_BENCH_LATENCY_TABLE_H_
