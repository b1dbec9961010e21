// Command-line flags for TLS and access control, shared by paperdb's
// binaries:
//
//   --tls_cert_file --tls_key_file --tls_client_ca_file
//   --read_token_file --write_token_file

#ifndef PAPERDB_RPC_SECURITY_FLAGS_H_
#define PAPERDB_RPC_SECURITY_FLAGS_H_

#include <string>

#include "absl/flags/declare.h"
#include "absl/status/statusor.h"
#include "paperdb/rpc/auth.h"
#include "paperdb/rpc/tls.h"

ABSL_DECLARE_FLAG(std::string, tls_cert_file);
ABSL_DECLARE_FLAG(std::string, tls_key_file);
ABSL_DECLARE_FLAG(std::string, tls_client_ca_file);
ABSL_DECLARE_FLAG(std::string, read_token_file);
ABSL_DECLARE_FLAG(std::string, write_token_file);

namespace paperdb::rpc {

// How a server is secured: transport and who may call.
struct SecurityConfig {
  TlsOptions tls;   // For ServerOptions::tls.
  AuthConfig auth;  // For the services' Authenticator.
};

// Reads the flags above; tokens come from the files or the environment (see
// LoadAuthConfig), and a verified client certificate grants kWrite exactly
// when --tls_client_ca_file is set. Errors are LoadAuthConfig's; the TLS
// files are checked later, by MakeServerCredentials. Call after
// absl::ParseCommandLine.
absl::StatusOr<SecurityConfig> SecurityConfigFromFlags();

}  // namespace paperdb::rpc

#endif  // PAPERDB_RPC_SECURITY_FLAGS_H_
