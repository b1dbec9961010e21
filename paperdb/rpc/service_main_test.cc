#include "paperdb/rpc/service_main.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "paperdb/rpc/server_runner.h"
#include "paperdb/v1/paper.pb.h"

// Port 1 on the loopback: nothing of this test's listens there.
ABSL_FLAG(std::string, service_main_test_listen, "127.0.0.1:1",
          "the --listen of StartServiceMain's test");

namespace paperdb::rpc {
namespace {

using ::testing::ElementsAre;
using ::testing::Optional;
using ::testing::StrEq;

// One test only: StartServiceMain sets the program's usage message, which
// Abseil allows once per process.
TEST(StartServiceMainTest, ProbeReturnsTheHealthCheckStatus) {
  std::string program = "service_main_test";
  std::string probe = "probe";
  std::vector<char*> argv = {program.data(), probe.data()};
  const ServiceMainStart start =
      StartServiceMain(static_cast<int>(argv.size()), argv.data(),
                       {.program = "service_main_test",
                        .usage = "service_main_test probe",
                        .health_service = "paperdb.v1.QueryService",
                        .listen = &FLAGS_service_main_test_listen});
  EXPECT_THAT(start.exit_status, Optional(1));  // Nothing is serving.
  EXPECT_THAT(start.positional,
              ElementsAre(StrEq("service_main_test"), StrEq("probe")));
}

TEST(CheckListenAddressTest, PortsOutsideTheRangeOrMissingAreRefused) {
  for (const char* good : {"127.0.0.1:0", "0.0.0.0:50051", "localhost:65535",
                           "[::]:50051", "[::1]:1", "unix:/tmp/paperdb.sock"}) {
    EXPECT_TRUE(CheckListenAddress(good).ok()) << good;
  }
  for (const auto& [bad, says] :
       std::vector<std::pair<const char*, const char*>>{
           {"127.0.0.1:99999", "the port '99999' is not a number from 0"},
           {"127.0.0.1:65536", "the port '65536'"},
           {"127.0.0.1:-1", "the port '-1'"},
           {"127.0.0.1:50979abc", "the port '50979abc'"},
           {"127.0.0.1:", "no port"},
           {"127.0.0.1", "no port"},
           {":50051", "no host"},
           {"[::1:50051", "in brackets"},
           {"[::1]50051", "after the IPv6 host's ']'"},
           {" 127.0.0.1:50051", "white space"},
           {"unix:", "no socket path"}}) {
    const absl::Status status = CheckListenAddress(bad);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_THAT(status.message(), ::testing::HasSubstr(says)) << bad;
    EXPECT_THAT(status.message(), ::testing::HasSubstr(bad)) << bad;
  }
}

TEST(HostOfTest, TheHostOfAListenAddress) {
  EXPECT_EQ(HostOf("127.0.0.1:50051"), "127.0.0.1");
  EXPECT_EQ(HostOf("[::]:0"), "[::]");
  EXPECT_EQ(HostOf("localhost:1"), "localhost");
  EXPECT_EQ(HostOf("unix:/tmp/paperdb.sock"), "unix:/tmp/paperdb.sock");
}

// A client's string field holding invalid UTF-8 makes protobuf log while
// parsing it: the line joins the JSON log, as a warning.
TEST(LogProtobufAsJsonTest, ProtobufLinesAreJsonWarnings) {
  LogProtobufAsJson();
  const std::string bytes = {'\x0a', '\x01', '\xff'};  // name = "\xff".
  v1::Paper paper;
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(paper.ParseFromString(bytes));
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_THAT(log, ::testing::StartsWith("{\"time\":"));
  EXPECT_THAT(log, ::testing::HasSubstr("\"severity\":\"WARNING\""));
  EXPECT_THAT(log, ::testing::HasSubstr("protobuf: String field"));
  EXPECT_THAT(log, ::testing::HasSubstr("\"source\":\"google/protobuf/"));
}

}  // namespace
}  // namespace paperdb::rpc
