// Access control for paperdb's RPCs: bearer tokens in the `authorization`
// metadata ("Bearer <token>"), or a verified TLS client certificate. Tokens
// never appear in a status message or a log line.

#ifndef PAPERDB_RPC_AUTH_H_
#define PAPERDB_RPC_AUTH_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "grpcpp/server_context.h"

namespace paperdb::rpc {

// What an RPC needs. kWrite implies kRead.
enum class Scope { kRead, kWrite };

// "read" or "write".
absl::string_view ScopeName(Scope scope);

// Who may call what. With no token and client_cert_grants_write false the
// server is open: every call is authorized.
struct AuthConfig {
  std::optional<std::string> read_token;   // Grants kRead.
  std::optional<std::string> write_token;  // Grants kRead and kWrite.
  // A peer with a TLS client certificate is granted kWrite. Set it only when
  // the server verifies client certificates (TlsOptions::client_ca_file set):
  // the auth context shows that a certificate was presented, and only the
  // server's TLS settings make that mean it was verified.
  bool client_cert_grants_write = false;
};

// Shortest accepted token, in bytes.
inline constexpr size_t kMinTokenBytes = 16;

// Reads the read and write tokens, each from its file or, if the path is
// empty, from the environment variable PAPERDB_READ_TOKEN /
// PAPERDB_WRITE_TOKEN; with neither, that token stays unset. Trailing
// whitespace (a final newline) is stripped. NOT_FOUND if a file cannot be
// read; INVALID_ARGUMENT if a token is empty, shorter than kMinTokenBytes,
// not printable ASCII without spaces, or the two tokens are equal. Messages
// name the file or variable, never the token. client_cert_grants_write is
// false in the result.
absl::StatusOr<AuthConfig> LoadAuthConfig(absl::string_view read_token_file,
                                          absl::string_view write_token_file);

// Decides whether a call may proceed. Keeps SHA-256 digests of the tokens,
// not the tokens, and compares them in constant time.
//
// Thread safety: immutable; share one across all handler threads.
class Authenticator {
 public:
  // REQUIRES: tokens that are set are non-empty (LoadAuthConfig ensures it).
  explicit Authenticator(const AuthConfig& config);

  // False if the config is open, i.e. every call is authorized.
  bool enabled() const { return enabled_; }

  // OK if the caller of `context` holds `needed`: the config is open; or
  // client_cert_grants_write is set and the peer presented a TLS client
  // certificate naming it (CN or SAN); or the `authorization` metadata is
  // "Bearer <token>" (scheme case-insensitive) with a token granting
  // `needed`. UNAUTHENTICATED if the metadata is missing, repeated,
  // malformed or holds an unknown token; PERMISSION_DENIED if the read token
  // is used where kWrite is needed.
  absl::Status Authorize(const grpc::ServerContextBase& context,
                         Scope needed) const;

 private:
  using Digest = std::array<uint8_t, 32>;  // SHA-256.

  static Digest Sha256(absl::string_view data);
  absl::Status Unauthenticated(absl::string_view problem) const;

  std::optional<Digest> read_digest_;   // Of AuthConfig::read_token.
  std::optional<Digest> write_digest_;  // Of AuthConfig::write_token.
  bool client_cert_grants_write_;
  bool enabled_;
};

}  // namespace paperdb::rpc

#endif  // PAPERDB_RPC_AUTH_H_
