// grpc_search_bench: the benchmark query set sent to a running query_service
// over gRPC, one call at a time (SearchPapers, page_size 10, highlights and
// snippets included). Prints the same per-kind table as search_bench, so the
// service's memory can be read after a realistic query set (bench/run.sh
// reads its RSS then), and the cost of the whole call path shows next to
// the in-process figures.
//
//   grpc_search_bench --target=127.0.0.1:50051 --queries=queries.tsv

#include <grpcpp/grpcpp.h>

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
#include "absl/strings/match.h"
#include "bench/latency_table.h"
#include "paperdb/common/flags_usage.h"
#include "paperdb/v1/query_service.grpc.pb.h"

ABSL_FLAG(std::string, target, "", "query_service address, host:port");
ABSL_FLAG(std::string, queries, "", "file of <kind>TAB<query> lines");
ABSL_FLAG(int, passes, 1, "timed passes over the query set");

namespace {}  // namespace

int main(int argc, char** argv) {
  paperdb::SetUpFlagsUsage(
      "grpc_search_bench --target=HOST:PORT --queries=FILE");
  absl::ParseCommandLine(argc, argv);
  const std::vector<std::pair<std::string, std::string>> queries =
      paperdb::bench::ReadQueries(absl::GetFlag(FLAGS_queries));
  auto stub = paperdb::v1::QueryService::NewStub(grpc::CreateChannel(
      absl::GetFlag(FLAGS_target), grpc::InsecureChannelCredentials()));
  std::map<std::string, std::vector<double>> latency_ms;
  std::vector<size_t> order(queries.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::mt19937 rng(42);
  uint64_t results = 0;
  for (int pass = 0; pass <= absl::GetFlag(FLAGS_passes); ++pass) {
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t i : order) {
      paperdb::v1::SearchPapersRequest request;
      request.set_query(queries[i].second);
      request.set_page_size(10);
      if (absl::EndsWith(queries[i].first, "_all")) {  // As search_bench.
        request.set_matching_strategy(paperdb::v1::MATCHING_STRATEGY_ALL);
      }
      paperdb::v1::SearchPapersResponse response;
      grpc::ClientContext context;
      context.set_deadline(std::chrono::system_clock::now() +
                           std::chrono::seconds(30));
      const auto start = std::chrono::steady_clock::now();
      const grpc::Status status =
          stub->SearchPapers(&context, request, &response);
      const auto end = std::chrono::steady_clock::now();
      if (!status.ok()) {
        std::cerr << "grpc_search_bench: " << queries[i].second << ": "
                  << status.error_code() << " " << status.error_message()
                  << "\n";
        return 1;
      }
      results += response.results_size();
      if (pass == 0) continue;  // Warm-up.
      latency_ms[queries[i].first].push_back(
          std::chrono::duration<double, std::milli>(end - start).count());
    }
  }
  paperdb::bench::PrintLatencyTable(latency_ms);
  std::printf("(results returned over all runs: %llu)\n",
              static_cast<unsigned long long>(results));
  return 0;
}
