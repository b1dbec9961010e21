#include "paperdb/rpc/health_probe.h"

#include <chrono>
#include <iostream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace paperdb::rpc {

std::string ProbeAddress(absl::string_view listen) {
  const size_t colon = listen.rfind(':');
  if (colon == absl::string_view::npos) return std::string(listen);
  const absl::string_view host = listen.substr(0, colon);
  if (host.empty() || host == "0.0.0.0" || host == "[::]" || host == "::") {
    return absl::StrCat("127.0.0.1", listen.substr(colon));
  }
  return std::string(listen);
}

int ProbeHealth(absl::string_view address, absl::string_view service,
                absl::Duration timeout) {
  auto stub = grpc::health::v1::Health::NewStub(grpc::CreateChannel(
      std::string(address), grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       absl::ToChronoMilliseconds(timeout));
  grpc::health::v1::HealthCheckRequest request;
  request.set_service(std::string(service));
  grpc::health::v1::HealthCheckResponse response;
  const grpc::Status status = stub->Check(&context, request, &response);
  if (!status.ok()) {
    std::cout << address << ": " << status.error_message() << "\n";
    return 1;
  }
  std::cout << grpc::health::v1::HealthCheckResponse::ServingStatus_Name(
                   response.status())
            << "\n";
  return response.status() == grpc::health::v1::HealthCheckResponse::SERVING
             ? 0
             : 1;
}

}  // namespace paperdb::rpc
