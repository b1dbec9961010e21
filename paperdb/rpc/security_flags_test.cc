#include "paperdb/rpc/security_flags.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace paperdb::rpc {
namespace {

using ::paperdb::testing::IsOk;
using ::paperdb::testing::StatusIs;

constexpr char kWriteToken[] = "write-token-0123456789abcdef";

class SecurityConfigFromFlagsTest : public ::testing::Test {
 protected:
  SecurityConfigFromFlagsTest()
      : dir_(std::filesystem::path(::testing::TempDir()) /
             ("paperdb_flags_test_" + std::to_string(getpid()))) {
    std::filesystem::create_directories(dir_);
    unsetenv("PAPERDB_READ_TOKEN");
    unsetenv("PAPERDB_WRITE_TOKEN");
  }
  ~SecurityConfigFromFlagsTest() override {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  // Writes `content` to file `name` in this test's directory; returns its
  // path.
  std::string WriteFile(const std::string& name, const std::string& content) {
    const std::filesystem::path path = dir_ / name;
    std::ofstream(path, std::ios::binary | std::ios::trunc) << content;
    return path.string();
  }

  const std::filesystem::path dir_;
  absl::FlagSaver saver_;  // Restores every flag after the test.
};

TEST_F(SecurityConfigFromFlagsTest, DefaultsArePlaintextAndOpen) {
  const absl::StatusOr<SecurityConfig> config = SecurityConfigFromFlags();

  ASSERT_THAT(config, IsOk());
  EXPECT_TRUE(config->tls.cert_file.empty());
  EXPECT_FALSE(Authenticator(config->auth).enabled());
}

TEST_F(SecurityConfigFromFlagsTest, CopiesTlsFilesAndLoadsTokens) {
  absl::SetFlag(&FLAGS_tls_cert_file, "/etc/paperdb/server.crt");
  absl::SetFlag(&FLAGS_tls_key_file, "/etc/paperdb/server.key");
  absl::SetFlag(&FLAGS_write_token_file, WriteFile("write", kWriteToken));

  const absl::StatusOr<SecurityConfig> config = SecurityConfigFromFlags();

  ASSERT_THAT(config, IsOk());
  EXPECT_EQ(config->tls.cert_file, "/etc/paperdb/server.crt");
  EXPECT_EQ(config->tls.key_file, "/etc/paperdb/server.key");
  EXPECT_EQ(config->auth.write_token, kWriteToken);
  EXPECT_FALSE(config->auth.client_cert_grants_write);
}

TEST_F(SecurityConfigFromFlagsTest, ClientCaTurnsOnClientCertAuth) {
  absl::SetFlag(&FLAGS_tls_client_ca_file, "/etc/paperdb/clients-ca.crt");

  const absl::StatusOr<SecurityConfig> config = SecurityConfigFromFlags();

  ASSERT_THAT(config, IsOk());
  EXPECT_EQ(config->tls.client_ca_file, "/etc/paperdb/clients-ca.crt");
  EXPECT_TRUE(config->auth.client_cert_grants_write);
}

TEST_F(SecurityConfigFromFlagsTest, TokenErrorsPropagate) {
  absl::SetFlag(&FLAGS_read_token_file, (dir_ / "no_such_file").string());

  EXPECT_THAT(SecurityConfigFromFlags(), StatusIs(absl::StatusCode::kNotFound));
}

}  // namespace
}  // namespace paperdb::rpc
