#include "paperdb/rpc/auth.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "gmock/gmock.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "paperdb/rpc/grpc_status.h"
#include "tests/testing/status_matchers.h"

namespace paperdb::rpc {
namespace {

using ::grpc::health::v1::Health;
using ::grpc::health::v1::HealthCheckRequest;
using ::grpc::health::v1::HealthCheckResponse;
using ::paperdb::testing::IsOk;
using ::paperdb::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kReadToken[] = "read-token-0123456789abcdef";
constexpr char kWriteToken[] = "write-token-0123456789abcdef";
constexpr char kWrongToken[] = "wrong-token-0123456789abcdef";

// grpc.health.v1.Health whose Check authorizes first: service "write" needs
// Scope::kWrite, any other name Scope::kRead.
class AuthorizingHealth final : public Health::Service {
 public:
  explicit AuthorizingHealth(const Authenticator* auth) : auth_(auth) {}

  grpc::Status Check(grpc::ServerContext* context,
                     const HealthCheckRequest* request,
                     HealthCheckResponse* response) override {
    const Scope needed =
        request->service() == "write" ? Scope::kWrite : Scope::kRead;
    const absl::Status allowed = auth_->Authorize(*context, needed);
    if (!allowed.ok()) return ToGrpcStatus(allowed);
    response->set_status(HealthCheckResponse::SERVING);
    return grpc::Status::OK;
  }

 private:
  const Authenticator* auth_;  // Not owned.
};

// A plaintext server on 127.0.0.1:0 whose Check is guarded by an
// Authenticator built from the test's AuthConfig.
class AuthorizeTest : public ::testing::Test {
 protected:
  void TearDown() override {
    if (server_ != nullptr) server_->Shutdown();
  }

  void Start(const AuthConfig& config) {
    auth_ = std::make_unique<Authenticator>(config);
    service_ = std::make_unique<AuthorizingHealth>(auth_.get());
    int port = 0;
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                             &port);
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    stub_ = Health::NewStub(
        grpc::CreateChannel("127.0.0.1:" + std::to_string(port),
                            grpc::InsecureChannelCredentials()));
  }

  // Calls Check for `service` ("read" or "write") with the given
  // `authorization` metadata values.
  grpc::Status Call(const std::string& service,
                    const std::vector<std::string>& authorization) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(5));
    for (const std::string& value : authorization) {
      context.AddMetadata("authorization", value);
    }
    HealthCheckRequest request;
    request.set_service(service);
    HealthCheckResponse response;
    return stub_->Check(&context, request, &response);
  }

  static AuthConfig TwoTokens() {
    AuthConfig config;
    config.read_token = kReadToken;
    config.write_token = kWriteToken;
    return config;
  }

  std::unique_ptr<Authenticator> auth_;
  std::unique_ptr<AuthorizingHealth> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<Health::Stub> stub_;
};

TEST_F(AuthorizeTest, OpenConfigAllowsEveryCall) {
  Start(AuthConfig{});

  EXPECT_FALSE(auth_->enabled());
  EXPECT_TRUE(Call("read", {}).ok());
  EXPECT_TRUE(Call("write", {}).ok());
}

TEST_F(AuthorizeTest, AnyTokenOrClientCertModeEnables) {
  AuthConfig read_only;
  read_only.read_token = kReadToken;
  AuthConfig client_cert;
  client_cert.client_cert_grants_write = true;

  EXPECT_TRUE(Authenticator(read_only).enabled());
  EXPECT_TRUE(Authenticator(client_cert).enabled());
  EXPECT_TRUE(Authenticator(TwoTokens()).enabled());
}

TEST_F(AuthorizeTest, MissingTokenIsUnauthenticated) {
  Start(TwoTokens());

  const grpc::Status status = Call("read", {});

  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_THAT(status.error_message(), HasSubstr("Bearer <token>"));
}

TEST_F(AuthorizeTest, WrongTokenIsUnauthenticatedWithoutEchoingIt) {
  Start(TwoTokens());

  const grpc::Status status =
      Call("read", {std::string("Bearer ") + kWrongToken});

  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_THAT(status.error_message(), HasSubstr("unknown bearer token"));
  EXPECT_THAT(status.error_message(), Not(HasSubstr(kWrongToken)));
  EXPECT_THAT(status.error_message(), Not(HasSubstr(kReadToken)));
  EXPECT_THAT(status.error_message(), Not(HasSubstr(kWriteToken)));
}

TEST_F(AuthorizeTest, MalformedAuthorizationIsUnauthenticated) {
  Start(TwoTokens());

  for (const std::string& value :
       {std::string(kWriteToken), std::string("Basic ") + kWriteToken,
        std::string("Bearer"), std::string("Bearer "),
        std::string("Bearer  ") + kWriteToken}) {
    const grpc::Status status = Call("read", {value});

    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED) << value;
    EXPECT_THAT(status.error_message(), Not(HasSubstr(kWriteToken)));
  }
}

TEST_F(AuthorizeTest, RepeatedAuthorizationIsUnauthenticated) {
  Start(TwoTokens());

  const grpc::Status status =
      Call("read", {std::string("Bearer ") + kReadToken,
                    std::string("Bearer ") + kReadToken});

  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_THAT(status.error_message(), HasSubstr("more than one"));
}

TEST_F(AuthorizeTest, ReadTokenOnWriteIsPermissionDenied) {
  Start(TwoTokens());

  const grpc::Status status =
      Call("write", {std::string("Bearer ") + kReadToken});

  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_THAT(status.error_message(), HasSubstr("'write'"));
  EXPECT_THAT(status.error_message(), Not(HasSubstr(kReadToken)));
}

TEST_F(AuthorizeTest, ReadTokenOnReadIsOk) {
  Start(TwoTokens());

  EXPECT_TRUE(Call("read", {std::string("Bearer ") + kReadToken}).ok());
}

TEST_F(AuthorizeTest, WriteTokenAllowsWriteAndRead) {
  Start(TwoTokens());

  EXPECT_TRUE(Call("write", {std::string("Bearer ") + kWriteToken}).ok());
  EXPECT_TRUE(Call("read", {std::string("Bearer ") + kWriteToken}).ok());
}

TEST_F(AuthorizeTest, BearerSchemeIsCaseInsensitive) {
  Start(TwoTokens());

  EXPECT_TRUE(Call("write", {std::string("bearer ") + kWriteToken}).ok());
}

TEST_F(AuthorizeTest, WriteTokenAloneGuardsReadsToo) {
  AuthConfig config;
  config.write_token = kWriteToken;
  Start(config);

  EXPECT_EQ(Call("read", {}).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_TRUE(Call("read", {std::string("Bearer ") + kWriteToken}).ok());
}

TEST_F(AuthorizeTest, ClientCertModeRejectsPlaintextPeerWithoutToken) {
  AuthConfig config;
  config.client_cert_grants_write = true;
  Start(config);

  const grpc::Status status = Call("read", {});

  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_THAT(status.error_message(), HasSubstr("client certificate"));
}

// Sets (or, with nullopt, unsets) an environment variable for one test.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    Set(value);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
  ~ScopedEnv() { Set(old_); }

 private:
  void Set(const std::optional<std::string>& value) {
    if (value.has_value()) {
      setenv(name_, value->c_str(), /*overwrite=*/1);
    } else {
      unsetenv(name_);
    }
  }

  const char* name_;
  std::optional<std::string> old_;
};

class LoadAuthConfigTest : public ::testing::Test {
 protected:
  LoadAuthConfigTest()
      : dir_(std::filesystem::path(::testing::TempDir()) /
             ("paperdb_auth_test_" + std::to_string(getpid()))) {
    std::filesystem::create_directories(dir_);
  }
  ~LoadAuthConfigTest() override {
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
  // The environment must not leak tokens into these tests.
  ScopedEnv read_env_{"PAPERDB_READ_TOKEN", std::nullopt};
  ScopedEnv write_env_{"PAPERDB_WRITE_TOKEN", std::nullopt};
};

TEST_F(LoadAuthConfigTest, ReadsTokensFromFilesWithoutTrailingNewline) {
  const std::string read_file =
      WriteFile("read", std::string(kReadToken) + "\n");
  const std::string write_file =
      WriteFile("write", std::string(kWriteToken) + " \r\n");

  const absl::StatusOr<AuthConfig> config =
      LoadAuthConfig(read_file, write_file);

  ASSERT_THAT(config, IsOk());
  EXPECT_EQ(config->read_token, kReadToken);
  EXPECT_EQ(config->write_token, kWriteToken);
  EXPECT_FALSE(config->client_cert_grants_write);
}

TEST_F(LoadAuthConfigTest, FallsBackToEnvironment) {
  ScopedEnv read_env("PAPERDB_READ_TOKEN", kReadToken);
  ScopedEnv write_env("PAPERDB_WRITE_TOKEN", kWriteToken);

  const absl::StatusOr<AuthConfig> config = LoadAuthConfig("", "");

  ASSERT_THAT(config, IsOk());
  EXPECT_EQ(config->read_token, kReadToken);
  EXPECT_EQ(config->write_token, kWriteToken);
}

TEST_F(LoadAuthConfigTest, FileWinsOverEnvironment) {
  ScopedEnv write_env("PAPERDB_WRITE_TOKEN", kWrongToken);
  const std::string write_file = WriteFile("write_wins", kWriteToken);

  const absl::StatusOr<AuthConfig> config = LoadAuthConfig("", write_file);

  ASSERT_THAT(config, IsOk());
  EXPECT_EQ(config->read_token, std::nullopt);
  EXPECT_EQ(config->write_token, kWriteToken);
}

TEST_F(LoadAuthConfigTest, NothingConfiguredIsOpen) {
  const absl::StatusOr<AuthConfig> config = LoadAuthConfig("", "");

  ASSERT_THAT(config, IsOk());
  EXPECT_FALSE(Authenticator(*config).enabled());
}

TEST_F(LoadAuthConfigTest, ShortTokenIsInvalidArgumentNamingFileNotToken) {
  const std::string path = WriteFile("short", "short-secret\n");

  const absl::StatusOr<AuthConfig> config = LoadAuthConfig(path, "");

  EXPECT_THAT(config, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(config.status().message(), HasSubstr(path));
  EXPECT_THAT(config.status().message(), Not(HasSubstr("short-secret")));
}

TEST_F(LoadAuthConfigTest, ShortEnvironmentTokenIsInvalidArgument) {
  ScopedEnv write_env("PAPERDB_WRITE_TOKEN", "short-secret");

  const absl::StatusOr<AuthConfig> config = LoadAuthConfig("", "");

  EXPECT_THAT(config, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(config.status().message(), HasSubstr("PAPERDB_WRITE_TOKEN"));
  EXPECT_THAT(config.status().message(), Not(HasSubstr("short-secret")));
}

TEST_F(LoadAuthConfigTest, RejectsSpacesAndNonPrintableBytes) {
  for (const std::string& token :
       {std::string("contains a space 0123456789"),
        std::string("tab\tinside-0123456789abcdef"),
        std::string("non-ascii-\xc3\xa9-0123456789abcdef")}) {
    const std::string path = WriteFile("bad_chars", token);

    EXPECT_THAT(LoadAuthConfig(path, ""),
                StatusIs(absl::StatusCode::kInvalidArgument))
        << token;
  }
}

TEST_F(LoadAuthConfigTest, EmptyFileIsInvalidArgument) {
  const std::string path = WriteFile("empty", "\n");

  const absl::StatusOr<AuthConfig> config = LoadAuthConfig("", path);

  EXPECT_THAT(config, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(config.status().message(), HasSubstr(path));
}

TEST_F(LoadAuthConfigTest, EmptyEnvironmentVariableIsInvalidArgument) {
  ScopedEnv read_env("PAPERDB_READ_TOKEN", "");

  EXPECT_THAT(LoadAuthConfig("", ""),
              StatusIs(absl::StatusCode::kInvalidArgument));
}

TEST_F(LoadAuthConfigTest, MissingFileIsNotFoundNamingPath) {
  const std::string path = (dir_ / "no_such_file").string();

  const absl::StatusOr<AuthConfig> config = LoadAuthConfig(path, "");

  EXPECT_THAT(config, StatusIs(absl::StatusCode::kNotFound));
  EXPECT_THAT(config.status().message(), HasSubstr(path));
}

TEST_F(LoadAuthConfigTest, SameTokenForReadAndWriteIsInvalidArgument) {
  const std::string path = WriteFile("same", kWriteToken);

  EXPECT_THAT(LoadAuthConfig(path, path),
              StatusIs(absl::StatusCode::kInvalidArgument));
}

TEST(ScopeNameTest, NamesBothScopes) {
  EXPECT_EQ(ScopeName(Scope::kRead), "read");
  EXPECT_EQ(ScopeName(Scope::kWrite), "write");
}

}  // namespace
}  // namespace paperdb::rpc
