// TLS for paperdb's servers: server certificate and key, and optionally a CA
// that client certificates must chain to (mutual TLS).

#ifndef PAPERDB_RPC_TLS_H_
#define PAPERDB_RPC_TLS_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "grpcpp/security/server_credentials.h"

namespace paperdb::rpc {

// PEM files; all empty means plaintext.
struct TlsOptions {
  std::string cert_file;       // Server certificate chain, leaf first.
  std::string key_file;        // Unencrypted private key of the leaf.
  std::string client_ca_file;  // If set, clients must present a certificate
                               // that chains to one of these CAs.
};

// Plaintext credentials if cert_file and key_file are both empty; otherwise
// TLS credentials, which with client_ca_file require and verify a client
// certificate. The files are read and checked now (certificate and key
// parse and match), not reloaded later. NOT_FOUND if a file cannot be read;
// INVALID_ARGUMENT if only one of cert_file/key_file is set, client_ca_file
// is set without them, or a file does not hold what it should. Messages name
// the file, never key material.
absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(
    const TlsOptions& options);

}  // namespace paperdb::rpc

#endif  // PAPERDB_RPC_TLS_H_
