#include "paperdb/rpc/security_flags.h"

#include "absl/flags/flag.h"
#include "paperdb/common/status_macros.h"

ABSL_FLAG(std::string, tls_cert_file, "",
          "PEM server certificate chain; with --tls_key_file, serve TLS "
          "instead of plaintext");
ABSL_FLAG(std::string, tls_key_file, "",
          "PEM private key (unencrypted) of --tls_cert_file");
ABSL_FLAG(std::string, tls_client_ca_file, "",
          "PEM CA bundle; if set, clients must present a certificate signed "
          "by it (mutual TLS), and such a client may read and write without "
          "a token");
ABSL_FLAG(std::string, read_token_file, "",
          "file holding the bearer token that grants read RPCs (at least 16 "
          "printable ASCII bytes, no spaces; trailing newline ignored); if "
          "empty, the environment variable PAPERDB_READ_TOKEN is used. "
          "Tokens are never logged");
ABSL_FLAG(std::string, write_token_file, "",
          "file holding the bearer token that grants read and write RPCs; if "
          "empty, the environment variable PAPERDB_WRITE_TOKEN is used. With "
          "no token and no --tls_client_ca_file, every caller is allowed. "
          "Tokens are never logged");

namespace paperdb::rpc {

absl::StatusOr<SecurityConfig> SecurityConfigFromFlags() {
  SecurityConfig config;
  config.tls.cert_file = absl::GetFlag(FLAGS_tls_cert_file);
  config.tls.key_file = absl::GetFlag(FLAGS_tls_key_file);
  config.tls.client_ca_file = absl::GetFlag(FLAGS_tls_client_ca_file);
  PAPERDB_ASSIGN_OR_RETURN(
      config.auth, LoadAuthConfig(absl::GetFlag(FLAGS_read_token_file),
                                  absl::GetFlag(FLAGS_write_token_file)));
  config.auth.client_cert_grants_write = !config.tls.client_ca_file.empty();
  return config;
}

}  // namespace paperdb::rpc
