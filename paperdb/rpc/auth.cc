#include "paperdb/rpc/auth.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "grpc/grpc_security_constants.h"
#include "grpcpp/security/auth_context.h"
#include "openssl/crypto.h"
#include "openssl/evp.h"
#include "paperdb/common/status_macros.h"

namespace paperdb::rpc {
namespace {

constexpr absl::string_view kAuthorizationKey = "authorization";
constexpr absl::string_view kBearerPrefix = "Bearer ";
constexpr absl::string_view kReadTokenEnv = "PAPERDB_READ_TOKEN";
constexpr absl::string_view kWriteTokenEnv = "PAPERDB_WRITE_TOKEN";
// A token file is a secret of a few dozen bytes; anything much larger is the
// wrong file.
constexpr size_t kMaxTokenFileBytes = 4096;

absl::string_view ToStringView(grpc::string_ref ref) {
  return absl::string_view(ref.data(), ref.size());
}

// Reads all of `path`. NOT_FOUND (naming the path) if it cannot be read;
// INVALID_ARGUMENT if it is larger than kMaxTokenFileBytes.
absl::StatusOr<std::string> ReadTokenFile(const std::string& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(
      std::fopen(path.c_str(), "rb"), &std::fclose);
  if (file == nullptr) {
    return absl::NotFoundError(absl::StrCat("cannot read token file ", path,
                                            ": ", std::strerror(errno)));
  }
  std::string content(kMaxTokenFileBytes + 1, '\0');
  const size_t read = std::fread(content.data(), 1, content.size(), file.get());
  if (std::ferror(file.get())) {
    return absl::NotFoundError(absl::StrCat("cannot read token file ", path,
                                            ": ", std::strerror(errno)));
  }
  if (read > kMaxTokenFileBytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "token file ", path, " is larger than ", kMaxTokenFileBytes, " bytes"));
  }
  content.resize(read);
  return content;
}

// INVALID_ARGUMENT unless `token` is a usable secret. `source` names where
// it came from; the token itself is never put in the message.
absl::Status ValidateToken(absl::string_view token, absl::string_view source) {
  if (token.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(source, " is empty"));
  }
  if (token.size() < kMinTokenBytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        source, ": token must be at least ", kMinTokenBytes, " bytes"));
  }
  for (const char c : token) {
    if (c <= ' ' || c > '~') {  // Printable ASCII without space: 0x21..0x7e.
      return absl::InvalidArgumentError(absl::StrCat(
          source, ": token must be printable ASCII without spaces"));
    }
  }
  return absl::OkStatus();
}

// The token from `file`, else from environment variable `env_var`, else
// nullopt.
absl::StatusOr<std::optional<std::string>> LoadToken(
    absl::string_view file, absl::string_view env_var) {
  std::string token;
  std::string source;
  if (!file.empty()) {
    source = absl::StrCat("token file ", file);
    PAPERDB_ASSIGN_OR_RETURN(token, ReadTokenFile(std::string(file)));
  } else {
    const char* value = std::getenv(std::string(env_var).c_str());
    if (value == nullptr) return std::nullopt;
    source = absl::StrCat("environment variable ", env_var);
    token = value;
  }
  absl::StripTrailingAsciiWhitespace(&token);
  PAPERDB_RETURN_IF_ERROR(ValidateToken(token, source));
  return token;
}

// True if the peer completed a TLS handshake with a client certificate that
// names it. Whether that certificate was verified depends on the server's
// TLS options (see AuthConfig::client_cert_grants_write).
bool HasClientCert(const grpc::ServerContextBase& context) {
  const std::shared_ptr<const grpc::AuthContext> auth = context.auth_context();
  if (auth == nullptr || !auth->IsPeerAuthenticated()) return false;
  bool is_tls = false;
  for (const grpc::string_ref& type :
       auth->FindPropertyValues(GRPC_TRANSPORT_SECURITY_TYPE_PROPERTY_NAME)) {
    is_tls = is_tls || ToStringView(type) == GRPC_SSL_TRANSPORT_SECURITY_TYPE;
  }
  return is_tls &&
         !auth->FindPropertyValues(GRPC_X509_PEM_CERT_PROPERTY_NAME).empty();
}

}  // namespace

absl::string_view ScopeName(Scope scope) {
  switch (scope) {
    case Scope::kRead:
      return "read";
    case Scope::kWrite:
      return "write";
  }
  return "unknown";
}

absl::StatusOr<AuthConfig> LoadAuthConfig(absl::string_view read_token_file,
                                          absl::string_view write_token_file) {
  AuthConfig config;
  PAPERDB_ASSIGN_OR_RETURN(config.read_token,
                           LoadToken(read_token_file, kReadTokenEnv));
  PAPERDB_ASSIGN_OR_RETURN(config.write_token,
                           LoadToken(write_token_file, kWriteTokenEnv));
  // One token for both would make the read token grant writes.
  if (config.read_token.has_value() &&
      config.read_token == config.write_token) {
    return absl::InvalidArgumentError("read and write tokens must differ");
  }
  return config;
}

Authenticator::Authenticator(const AuthConfig& config)
    : client_cert_grants_write_(config.client_cert_grants_write),
      enabled_(config.read_token.has_value() ||
               config.write_token.has_value() ||
               config.client_cert_grants_write) {
  if (config.read_token.has_value()) read_digest_ = Sha256(*config.read_token);
  if (config.write_token.has_value()) {
    write_digest_ = Sha256(*config.write_token);
  }
}

Authenticator::Digest Authenticator::Sha256(absl::string_view data) {
  Digest digest{};
  unsigned int size = 0;
  // Cannot fail for SHA-256 with valid pointers.
  EVP_Digest(data.data(), data.size(), digest.data(), &size, EVP_sha256(),
             nullptr);
  return digest;
}

absl::Status Authenticator::Unauthenticated(absl::string_view problem) const {
  const bool tokens = read_digest_.has_value() || write_digest_.has_value();
  return absl::UnauthenticatedError(absl::StrCat(
      problem, "; expected ",
      tokens ? "'authorization: Bearer <token>' metadata" : "",
      tokens && client_cert_grants_write_ ? " or " : "",
      client_cert_grants_write_ ? "a verified TLS client certificate" : ""));
}

absl::Status Authenticator::Authorize(const grpc::ServerContextBase& context,
                                      Scope needed) const {
  if (!enabled_) return absl::OkStatus();
  if (client_cert_grants_write_ && HasClientCert(context)) {
    return absl::OkStatus();
  }
  const auto& metadata = context.client_metadata();
  const auto [first, last] = metadata.equal_range(
      grpc::string_ref(kAuthorizationKey.data(), kAuthorizationKey.size()));
  if (first == last) return Unauthenticated("no credentials");
  if (std::next(first) != last) {
    return Unauthenticated("more than one 'authorization' metadata entry");
  }
  const absl::string_view value = ToStringView(first->second);
  if (value.size() <= kBearerPrefix.size() ||
      !absl::StartsWithIgnoreCase(value, kBearerPrefix)) {
    return Unauthenticated("malformed 'authorization' metadata");
  }
  const Digest presented = Sha256(value.substr(kBearerPrefix.size()));
  // Every configured token is compared, over fixed-size digests and with
  // CRYPTO_memcmp, so the time taken tells nothing about the tokens.
  const bool is_write = write_digest_.has_value() &&
                        CRYPTO_memcmp(presented.data(), write_digest_->data(),
                                      presented.size()) == 0;
  const bool is_read = read_digest_.has_value() &&
                       CRYPTO_memcmp(presented.data(), read_digest_->data(),
                                     presented.size()) == 0;
  if (is_write || (is_read && needed == Scope::kRead)) {
    return absl::OkStatus();
  }
  if (is_read) {
    return absl::PermissionDeniedError(absl::StrCat(
        "the read token does not grant scope '", ScopeName(needed), "'"));
  }
  return Unauthenticated("unknown bearer token");
}

}  // namespace paperdb::rpc
