// Requests read from their bytes with an error a client can act on. gRPC's
// default deserialization answers a request it cannot parse (a string field
// holding invalid UTF-8, a truncated message) with INTERNAL and no message.
// paperdb's services serve their unary methods through WithCheckedRequests,
// which answers INVALID_ARGUMENT naming the field and the byte, with a
// google.rpc.ErrorInfo (reason MALFORMED_REQUEST, metadata "byte") and a
// google.rpc.BadRequest naming the field.

#ifndef PAPERDB_RPC_REQUEST_CHECK_H_
#define PAPERDB_RPC_REQUEST_CHECK_H_

#include <functional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "grpc/byte_buffer.h"
#include "grpcpp/impl/rpc_service_method.h"
#include "grpcpp/support/method_handler.h"
#include "grpcpp/support/status.h"

namespace paperdb::rpc {

// Checks that `bytes` is a well-formed binary `type`: every tag and length
// inside the bytes, every string field (at any depth) valid UTF-8. OK, or
// INVALID_ARGUMENT naming the problem, the field by its path
// ("read_mask.paths") and the byte's offset in `bytes`, e.g.
// "SearchPapersRequest.query (field 1) is not valid UTF-8: byte 0xFF at
// byte 2 of the request". Fields the type does not define are checked for
// framing only.
absl::Status CheckRequestBytes(const google::protobuf::Descriptor& type,
                               absl::string_view bytes);

// Reads `request` (a call's payload, which it frees, as gRPC's own
// deserializers do) into `message`:
// CheckRequestBytes(), then the parse. OK, or INVALID_ARGUMENT with
// CheckRequestBytes()'s message and details, or naming the type if the
// parse still fails; INTERNAL "No payload", as gRPC answers, if `request`
// is null (the client left before sending it).
grpc::Status ParseCheckedRequest(grpc_byte_buffer* request,
                                 google::protobuf::Message* message);

// A unary method handler for the sync API that reads its request with
// ParseCheckedRequest(). A malformed request is answered with that status,
// details included, without calling the method (gRPC's own handlers drop
// the details of a deserialization status).
template <class Request, class Response>
class CheckedUnaryHandler final : public grpc::internal::MethodHandler {
 public:
  using Method = std::function<grpc::Status(grpc::ServerContext*,
                                            const Request*, Response*)>;
  explicit CheckedUnaryHandler(Method method) : method_(std::move(method)) {}

  void RunHandler(const HandlerParameter& param) final {
    auto* parsed = static_cast<Parsed*>(param.request);
    Response response;
    grpc::Status status = param.status;
    if (status.ok() && parsed != nullptr) status = parsed->status;
    if (status.ok() && parsed != nullptr) {
      auto* context = static_cast<grpc::ServerContext*>(param.server_context);
      status = grpc::internal::CatchingFunctionHandler(
          [&] { return method_(context, &parsed->request, &response); });
    }
    if (parsed != nullptr) parsed->~Parsed();
    grpc::internal::UnaryRunHandlerHelper(param, &response, status);
  }

  void* Deserialize(grpc_call* call, grpc_byte_buffer* request,
                    grpc::Status* status, void** /*handler_data*/) final {
    auto* parsed = new (grpc::g_core_codegen_interface->grpc_call_arena_alloc(
        call, sizeof(Parsed))) Parsed;
    parsed->status = ParseCheckedRequest(request, &parsed->request);
    *status = grpc::Status::OK;
    return parsed;
  }

 private:
  struct Parsed {
    Request request;
    grpc::Status status;
  };
  const Method method_;
};

// A generated gRPC service class `Base` whose unary methods read their
// requests with ParseCheckedRequest(): a service derived from this one
// calls CheckRequests() in its constructor for each unary method, which
// replaces the generated handler (it reads every request as a
// protobuf::MessageLite with gRPC's generic traits: INTERNAL and no message
// for a malformed one) by a CheckedUnaryHandler. The server must have a
// generic service registered (rpc::StartServer() does), as gRPC requires
// once a method's generated handler is dropped.
template <class Base>
class WithCheckedRequests : public Base {
 protected:
  // Method `index` of the service (in .proto order), full name `name`
  // (a string literal: "/paperdb.v1.QueryService/SearchPapers"), served by
  // `method`.
  template <class Request, class Response>
  void CheckRequests(
      int index, const char* name,
      typename CheckedUnaryHandler<Request, Response>::Method method) {
    this->MarkMethodGeneric(index);
    this->AddMethod(new grpc::internal::RpcServiceMethod(
        name, grpc::internal::RpcMethod::NORMAL_RPC,
        new CheckedUnaryHandler<Request, Response>(std::move(method))));
  }
};

}  // namespace paperdb::rpc

#endif  // PAPERDB_RPC_REQUEST_CHECK_H_
