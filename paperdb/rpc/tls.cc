#include "paperdb/rpc/tls.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "grpc/grpc_security_constants.h"
#include "openssl/bio.h"
#include "openssl/err.h"
#include "openssl/evp.h"
#include "openssl/pem.h"
#include "openssl/x509.h"
#include "paperdb/common/status_macros.h"

namespace paperdb::rpc {
namespace {

// Certificate bundles are a few KB; a larger file is the wrong file.
constexpr size_t kMaxPemFileBytes = 1 << 20;

template <typename T, void (*Free)(T*)>
struct OpenSslDeleter {
  void operator()(T* p) const { Free(p); }
};
using BioPtr = std::unique_ptr<BIO, OpenSslDeleter<BIO, BIO_free_all>>;
using X509Ptr = std::unique_ptr<X509, OpenSslDeleter<X509, X509_free>>;
using KeyPtr =
    std::unique_ptr<EVP_PKEY, OpenSslDeleter<EVP_PKEY, EVP_PKEY_free>>;

// Reads all of `path`, the `what` of the options ("TLS key file").
absl::StatusOr<std::string> ReadPemFile(const std::string& path,
                                        absl::string_view what) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(
      std::fopen(path.c_str(), "rb"), &std::fclose);
  if (file == nullptr) {
    return absl::NotFoundError(absl::StrCat("cannot read ", what, " ", path,
                                            ": ", std::strerror(errno)));
  }
  std::string content(kMaxPemFileBytes + 1, '\0');
  const size_t read = std::fread(content.data(), 1, content.size(), file.get());
  if (std::ferror(file.get())) {
    return absl::NotFoundError(absl::StrCat("cannot read ", what, " ", path,
                                            ": ", std::strerror(errno)));
  }
  if (read > kMaxPemFileBytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, " ", path, " is larger than ", kMaxPemFileBytes, " bytes"));
  }
  content.resize(read);
  return content;
}

BioPtr MemoryBio(absl::string_view pem) {
  return BioPtr(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

// A password callback that declines, so that an encrypted key fails to load
// instead of OpenSSL prompting on the terminal.
int NoPassword(char* /*buf*/, int /*size*/, int /*rwflag*/, void* /*u*/) {
  return 0;
}

// Checks, with OpenSSL, what gRPC would otherwise only report as a failure
// to listen: the certificate and key parse and belong together, and the CA
// file holds at least one certificate.
absl::Status CheckPem(const TlsOptions& options, absl::string_view cert,
                      absl::string_view key, absl::string_view client_ca) {
  const X509Ptr leaf(
      PEM_read_bio_X509(MemoryBio(cert).get(), nullptr, nullptr, nullptr));
  if (leaf == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "TLS certificate file ", options.cert_file, ": no PEM certificate"));
  }
  const KeyPtr private_key(PEM_read_bio_PrivateKey(
      MemoryBio(key).get(), nullptr, &NoPassword, nullptr));
  if (private_key == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "TLS key file ", options.key_file, ": no unencrypted PEM private key"));
  }
  if (X509_check_private_key(leaf.get(), private_key.get()) != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("TLS key file ", options.key_file,
                     " does not match the certificate in ", options.cert_file));
  }
  if (!options.client_ca_file.empty() &&
      X509Ptr(PEM_read_bio_X509(MemoryBio(client_ca).get(), nullptr, nullptr,
                                nullptr)) == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "TLS client CA file ", options.client_ca_file, ": no PEM certificate"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(
    const TlsOptions& options) {
  if (options.cert_file.empty() && options.key_file.empty()) {
    if (!options.client_ca_file.empty()) {
      return absl::InvalidArgumentError(
          "a TLS client CA file needs a server certificate and key file");
    }
    return grpc::InsecureServerCredentials();
  }
  if (options.cert_file.empty() || options.key_file.empty()) {
    return absl::InvalidArgumentError(
        "TLS needs both a certificate file and a key file");
  }
  PAPERDB_ASSIGN_OR_RETURN(
      std::string cert, ReadPemFile(options.cert_file, "TLS certificate file"));
  PAPERDB_ASSIGN_OR_RETURN(std::string key,
                           ReadPemFile(options.key_file, "TLS key file"));
  std::string client_ca;
  if (!options.client_ca_file.empty()) {
    PAPERDB_ASSIGN_OR_RETURN(
        client_ca, ReadPemFile(options.client_ca_file, "TLS client CA file"));
  }
  const absl::Status checked = CheckPem(options, cert, key, client_ca);
  // gRPC's TLS runs on this thread's OpenSSL error queue too; leave it empty.
  ERR_clear_error();
  PAPERDB_RETURN_IF_ERROR(checked);

  grpc::SslServerCredentialsOptions ssl(
      client_ca.empty()
          ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
          : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  ssl.pem_root_certs = std::move(client_ca);
  ssl.pem_key_cert_pairs.push_back({std::move(key), std::move(cert)});
  return grpc::SslServerCredentials(ssl);
}

}  // namespace paperdb::rpc
