#include "paperdb/rpc/tls.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <system_error>

#include "gmock/gmock.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "paperdb/rpc/auth.h"
#include "paperdb/rpc/grpc_status.h"
#include "paperdb/rpc/health_service.h"
#include "paperdb/rpc/server_runner.h"
#include "tests/testing/status_matchers.h"

namespace paperdb::rpc {
namespace {

using ::grpc::health::v1::Health;
using ::grpc::health::v1::HealthCheckRequest;
using ::grpc::health::v1::HealthCheckResponse;
using ::paperdb::testing::IsOk;
using ::paperdb::testing::StatusIs;
using ::testing::HasSubstr;

constexpr char kOpenSsl[] = "/usr/bin/openssl";
constexpr char kWriteToken[] = "write-token-0123456789abcdef";

// A CA, a server certificate for localhost / 127.0.0.1 and a client
// certificate signed by it, plus a client certificate from another CA; made
// once per process with the openssl CLI (EC P-256 keys, so it is quick), in a
// directory of its own that is removed at exit.
class TestPki {
 public:
  // Null if the openssl CLI failed.
  static const TestPki* Get() {
    static const TestPki pki;
    return pki.ok_ ? &pki : nullptr;
  }

  TestPki(const TestPki&) = delete;
  TestPki& operator=(const TestPki&) = delete;
  ~TestPki() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

  std::string Read(const std::string& name) const {
    std::ifstream in(Path(name), std::ios::binary);
    std::stringstream content;
    content << in.rdbuf();
    return content.str();
  }

 private:
  TestPki()
      : dir_(::testing::TempDir() + "/paperdb_tls_test_" +
             std::to_string(getpid())) {
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    const std::string req = std::string(kOpenSsl) +
                            " req -newkey ec -pkeyopt "
                            "ec_paramgen_curve:prime256v1 -nodes";
    const std::string sign = std::string(kOpenSsl) + " x509 -req -days 2";
    const std::string script =
        "cd '" + dir_ + "' && (" +
        // Two CAs: the trusted one and a rogue one.
        req +
        " -x509 -days 2 -keyout ca.key -out ca.crt -subj '/CN=test CA' && " +
        req +
        " -x509 -days 2 -keyout rogue_ca.key -out rogue_ca.crt"
        " -subj '/CN=rogue CA' && " +
        "printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > server.ext "
        "&& " +
        "printf 'extendedKeyUsage=clientAuth\\n' > client.ext && " + req +
        " -keyout server.key -out server.csr -subj '/CN=localhost' && " + sign +
        " -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial"
        " -extfile server.ext -out server.crt && " +
        req +
        " -keyout client.key -out client.csr -subj '/CN=test-client' && " +
        sign +
        " -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial"
        " -extfile client.ext -out client.crt && " +
        req + " -keyout rogue.key -out rogue.csr -subj '/CN=rogue-client' && " +
        sign +
        " -in rogue.csr -CA rogue_ca.crt -CAkey rogue_ca.key"
        " -CAcreateserial -extfile client.ext -out rogue.crt" +
        ") > openssl.log 2>&1";
    ok_ = std::system(script.c_str()) == 0;
    if (!ok_) ADD_FAILURE() << "openssl failed:\n" << Read("openssl.log");
  }

  std::string dir_;
  bool ok_ = false;
};

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

class TlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kOpenSsl)) GTEST_SKIP() << "no " << kOpenSsl;
    pki_ = TestPki::Get();
    ASSERT_NE(pki_, nullptr);
  }

  void TearDown() override {
    if (server_ != nullptr) server_->Shutdown();
  }

  TlsOptions ServerTls(bool require_client_cert) const {
    TlsOptions tls;
    tls.cert_file = pki_->Path("server.crt");
    tls.key_file = pki_->Path("server.key");
    if (require_client_cert) tls.client_ca_file = pki_->Path("ca.crt");
    return tls;
  }

  // Starts an AuthorizingHealth server with `tls` and `auth`.
  void Start(const TlsOptions& tls, const AuthConfig& auth) {
    absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
        MakeServerCredentials(tls);
    ASSERT_THAT(credentials, IsOk());
    auth_ = std::make_unique<Authenticator>(auth);
    service_ = std::make_unique<AuthorizingHealth>(auth_.get());
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", *credentials, &port_);
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
  }

  // TLS credentials trusting the test CA, presenting `client` ("client",
  // "rogue") certificate and key unless it is empty.
  std::shared_ptr<grpc::ChannelCredentials> ClientTls(
      const std::string& client) const {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = pki_->Read("ca.crt");
    if (!client.empty()) {
      ssl.pem_private_key = pki_->Read(client + ".key");
      ssl.pem_cert_chain = pki_->Read(client + ".crt");
    }
    return grpc::SslCredentials(ssl);
  }

  // Calls Check(`service`) with `credentials`, and a bearer token if set.
  grpc::Status Call(std::shared_ptr<grpc::ChannelCredentials> credentials,
                    const std::string& service,
                    const std::string& token = "") const {
    grpc::ChannelArguments args;
    args.SetSslTargetNameOverride("localhost");
    auto stub = Health::NewStub(grpc::CreateCustomChannel(
        "127.0.0.1:" + std::to_string(port_), credentials, args));
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(5));
    if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
    HealthCheckRequest request;
    request.set_service(service);
    HealthCheckResponse response;
    return stub->Check(&context, request, &response);
  }

  static AuthConfig ClientCertAuth() {
    AuthConfig auth;
    auth.write_token = kWriteToken;
    auth.client_cert_grants_write = true;
    return auth;
  }

  const TestPki* pki_ = nullptr;
  int port_ = 0;
  std::unique_ptr<Authenticator> auth_;
  std::unique_ptr<AuthorizingHealth> service_;
  std::unique_ptr<grpc::Server> server_;
};

TEST_F(TlsTest, ClientCertWithoutTokenMayWrite) {
  Start(ServerTls(/*require_client_cert=*/true), ClientCertAuth());

  const grpc::Status status = Call(ClientTls("client"), "write");

  EXPECT_TRUE(status.ok()) << status.error_message();
}

TEST_F(TlsTest, ClientCertGrantsNothingUnlessConfigured) {
  AuthConfig auth;
  auth.write_token = kWriteToken;
  Start(ServerTls(/*require_client_cert=*/true), auth);

  const grpc::Status status = Call(ClientTls("client"), "read");

  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
}

TEST_F(TlsTest, PlaintextClientIsUnavailable) {
  Start(ServerTls(/*require_client_cert=*/true), ClientCertAuth());

  const grpc::Status status =
      Call(grpc::InsecureChannelCredentials(), "read", kWriteToken);

  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE);
}

TEST_F(TlsTest, ClientWithoutCertIsUnavailable) {
  Start(ServerTls(/*require_client_cert=*/true), ClientCertAuth());

  const grpc::Status status = Call(ClientTls(""), "read", kWriteToken);

  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE);
}

TEST_F(TlsTest, ClientCertFromOtherCaIsUnavailable) {
  Start(ServerTls(/*require_client_cert=*/true), ClientCertAuth());

  const grpc::Status status = Call(ClientTls("rogue"), "read");

  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE);
}

TEST_F(TlsTest, ServerOnlyTlsStillNeedsToken) {
  AuthConfig auth;
  auth.write_token = kWriteToken;
  Start(ServerTls(/*require_client_cert=*/false), auth);

  EXPECT_EQ(Call(ClientTls(""), "write").error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_TRUE(Call(ClientTls(""), "write", kWriteToken).ok());
}

TEST_F(TlsTest, StartServerServesTls) {
  HealthService health;
  ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.tls = ServerTls(/*require_client_cert=*/false);
  absl::StatusOr<StartedServer> started = StartServer(options, {}, &health);
  ASSERT_THAT(started, IsOk());
  health.SetServing("", true);
  port_ = started->port;

  const grpc::Status over_tls = Call(ClientTls(""), "");
  const grpc::Status plaintext = Call(grpc::InsecureChannelCredentials(), "");

  EXPECT_TRUE(over_tls.ok()) << over_tls.error_message();
  EXPECT_EQ(plaintext.error_code(), grpc::StatusCode::UNAVAILABLE);
  started->server->Shutdown();
}

TEST_F(TlsTest, StartServerReturnsTlsErrors) {
  HealthService health;
  ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.tls.cert_file = pki_->Path("missing.crt");
  options.tls.key_file = pki_->Path("server.key");

  EXPECT_THAT(StartServer(options, {}, &health),
              StatusIs(absl::StatusCode::kNotFound));
}

TEST_F(TlsTest, ValidFilesMakeCredentials) {
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
      MakeServerCredentials(ServerTls(/*require_client_cert=*/true));

  ASSERT_THAT(credentials, IsOk());
  EXPECT_NE(*credentials, nullptr);
}

TEST_F(TlsTest, KeyOfAnotherCertificateIsInvalidArgument) {
  TlsOptions tls = ServerTls(/*require_client_cert=*/false);
  tls.key_file = pki_->Path("client.key");

  const auto credentials = MakeServerCredentials(tls);

  EXPECT_THAT(credentials, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(credentials.status().message(), HasSubstr(tls.key_file));
}

TEST_F(TlsTest, NonPemFilesAreInvalidArgumentNamingThem) {
  const std::string junk = pki_->Path("junk.pem");
  std::ofstream(junk) << "not a certificate\n";
  for (std::string TlsOptions::*file :
       {&TlsOptions::cert_file, &TlsOptions::key_file,
        &TlsOptions::client_ca_file}) {
    TlsOptions tls = ServerTls(/*require_client_cert=*/true);
    tls.*file = junk;

    const auto credentials = MakeServerCredentials(tls);

    EXPECT_THAT(credentials, StatusIs(absl::StatusCode::kInvalidArgument));
    EXPECT_THAT(credentials.status().message(), HasSubstr(junk));
  }
}

TEST_F(TlsTest, MissingFileIsNotFoundNamingIt) {
  TlsOptions tls = ServerTls(/*require_client_cert=*/true);
  tls.client_ca_file = pki_->Path("no_such_ca.crt");

  const auto credentials = MakeServerCredentials(tls);

  EXPECT_THAT(credentials, StatusIs(absl::StatusCode::kNotFound));
  EXPECT_THAT(credentials.status().message(), HasSubstr(tls.client_ca_file));
}

TEST(MakeServerCredentialsTest, EmptyOptionsArePlaintext) {
  const auto credentials = MakeServerCredentials(TlsOptions{});

  ASSERT_THAT(credentials, IsOk());
  EXPECT_NE(*credentials, nullptr);
}

TEST(MakeServerCredentialsTest, IncompleteOptionsAreInvalidArgument) {
  TlsOptions cert_only;
  cert_only.cert_file = "/etc/paperdb/server.crt";
  TlsOptions key_only;
  key_only.key_file = "/etc/paperdb/server.key";
  TlsOptions ca_only;
  ca_only.client_ca_file = "/etc/paperdb/ca.crt";

  EXPECT_THAT(MakeServerCredentials(cert_only),
              StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(MakeServerCredentials(key_only),
              StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(MakeServerCredentials(ca_only),
              StatusIs(absl::StatusCode::kInvalidArgument));
}

}  // namespace
}  // namespace paperdb::rpc
