// gRPC server reflection, grpc.reflection.v1 (the stable version of the
// protocol clients such as grpcurl and Postman now ask first), beside the
// grpc.reflection.v1alpha that gRPC 1.51's reflection library serves. The
// two protocols are the same messages under two package names; this
// service answers v1 from the generated descriptor pool, as gRPC's v1alpha
// service does: list_services (the services the server registered),
// file_by_filename, file_containing_symbol and file_containing_extension
// (the file and each file it depends on, once per stream), and
// all_extension_numbers_of_type. A symbol, file or type the pool lacks is
// an error_response NOT_FOUND naming it; a request naming nothing is
// INVALID_ARGUMENT.

#ifndef PAPERDB_RPC_REFLECTION_V1_H_
#define PAPERDB_RPC_REFLECTION_V1_H_

namespace paperdb::rpc {

// Adds the v1 reflection service to every server built afterwards (a gRPC
// server builder plugin, as grpc::reflection::
// InitProtoReflectionServerBuilderPlugin() does for v1alpha). Idempotent.
void InitReflectionV1ServerBuilderPlugin();

}  // namespace paperdb::rpc

#endif  // PAPERDB_RPC_REFLECTION_V1_H_
