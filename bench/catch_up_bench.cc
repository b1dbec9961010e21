// catch_up_bench: how long after an ingest commits its file the query side
// sees it. A writer (IndexWriter on the primary store) ingests files one at
// a time, each holding a marker word; a QueryEngine (RocksDB secondary with
// its catch-up loop every --interval_ms) is polled every 100 us with a
// search for the marker until the file's papers appear. Prints, per
// interval, the latency from the commit's return to visibility.
//
//   catch_up_bench --db=EMPTY_DIR [--intervals_ms=10,100,500] [--files=20]
//
// Output: a header line, then "interval_ms files p50_ms p95_ms max_ms".

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "bench/latency_table.h"
#include "ingest_service/ingester.h"
#include "paperdb/index/index_writer.h"
#include "paperdb/storage/store.h"
#include "query_service/query_engine.h"

ABSL_FLAG(std::string, db, "", "empty directory for the store; required");
ABSL_FLAG(std::vector<std::string>, intervals_ms,
          std::vector<std::string>({"10", "100", "500"}),
          "catch-up intervals to measure, in milliseconds");
ABSL_FLAG(int, files, 20, "files ingested (and timed) per interval");
ABSL_FLAG(int, papers_per_file, 100, "abstracts per file");

namespace {

std::string FileContent(const std::string& marker, int papers) {
  std::string content = "ICLR 2024 paper list\n";
  for (int i = 0; i < papers; ++i) {
    absl::StrAppend(&content, "\nAbstract ", i, " introduces ", marker,
                    ", a method for sparse retrieval with learned indexes "
                    "and calibrated uncertainty.\n");
  }
  return content;
}

using paperdb::bench::Percentile;

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const std::string db = absl::GetFlag(FLAGS_db);
  if (db.empty()) {
    std::cerr << "catch_up_bench: --db is required\n";
    return 2;
  }
  auto store = paperdb::storage::Store::OpenPrimary(db);
  if (!store.ok()) {
    std::cerr << "catch_up_bench: " << store.status() << "\n";
    return 1;
  }
  auto writer = paperdb::index::IndexWriter::Create(store->get());
  if (!writer.ok()) {
    std::cerr << "catch_up_bench: " << writer.status() << "\n";
    return 1;
  }
  paperdb::ingest::Ingester ingester(writer->get(), store->get());
  std::cout << "interval_ms files p50_ms p95_ms max_ms\n";
  int file_number = 0;
  for (const std::string& interval_text : absl::GetFlag(FLAGS_intervals_ms)) {
    int interval_ms = 0;
    if (!absl::SimpleAtoi(interval_text, &interval_ms) || interval_ms < 1) {
      std::cerr << "catch_up_bench: bad interval " << interval_text << "\n";
      return 2;
    }
    const std::string secondary = absl::StrCat(db, "-secondary-", interval_ms);
    auto engine = paperdb::query::QueryEngine::Open(db, secondary);
    if (!engine.ok()) {
      std::cerr << "catch_up_bench: " << engine.status() << "\n";
      return 1;
    }
    (*engine)->StartCatchUpLoop(absl::Milliseconds(interval_ms),
                                [](const absl::Status&) {});
    std::vector<double> latencies_ms;
    for (int f = 0; f < absl::GetFlag(FLAGS_files); ++f, ++file_number) {
      const std::string marker = absl::StrCat("catchupmarker", file_number);
      auto ingested = ingester.IngestContent(
          absl::StrCat("file", file_number, ".txt"),
          FileContent(marker, absl::GetFlag(FLAGS_papers_per_file)));
      if (!ingested.ok()) {
        std::cerr << "catch_up_bench: " << ingested.status() << "\n";
        return 1;
      }
      const absl::Time committed = absl::Now();
      paperdb::v1::SearchPapersRequest request;
      request.set_query(marker);
      while (true) {
        paperdb::v1::SearchPapersResponse response;
        if (!(*engine)->SearchPapers(request, &response).ok()) return 1;
        if (response.total_size() > 0) break;
        absl::SleepFor(absl::Microseconds(100));
      }
      latencies_ms.push_back(
          absl::ToDoubleMilliseconds(absl::Now() - committed));
      // Spread commits over the catch-up cycle.
      absl::SleepFor(absl::Milliseconds(interval_ms * (f % 7) / 7));
    }
    std::cout << absl::StrFormat(
        "%d %zu %.1f %.1f %.1f\n", interval_ms, latencies_ms.size(),
        Percentile(latencies_ms, 0.5), Percentile(latencies_ms, 0.95),
        *std::max_element(latencies_ms.begin(), latencies_ms.end()));
    engine->reset();
    std::error_code ignored;
    std::filesystem::remove_all(secondary, ignored);
  }
  return 0;
}
