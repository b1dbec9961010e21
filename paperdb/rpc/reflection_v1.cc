#include "paperdb/rpc/reflection_v1.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "grpc/reflection/v1/reflection.grpc.pb.h"
#include "grpcpp/impl/server_builder_plugin.h"
#include "grpcpp/impl/server_initializer.h"
#include "grpcpp/server_builder.h"

namespace paperdb::rpc {
namespace {

namespace v1 = grpc::reflection::v1;
using google::protobuf::DescriptorPool;
using google::protobuf::FileDescriptor;

class ReflectionV1Service final : public v1::ServerReflection::Service {
 public:
  void SetServiceList(const std::vector<std::string>* services) {
    absl::MutexLock lock(&mutex_);
    services_ = services;
  }

  grpc::Status ServerReflectionInfo(
      grpc::ServerContext* context,
      grpc::ServerReaderWriter<v1::ServerReflectionResponse,
                               v1::ServerReflectionRequest>* stream) override {
    absl::flat_hash_set<std::string> sent;  // Files, once per stream.
    v1::ServerReflectionRequest request;
    while (!context->IsCancelled() && stream->Read(&request)) {
      v1::ServerReflectionResponse response;
      response.set_valid_host(request.host());
      *response.mutable_original_request() = request;
      Answer(request, &sent, &response);
      if (!stream->Write(response)) break;
    }
    return grpc::Status::OK;
  }

 private:
  void Answer(const v1::ServerReflectionRequest& request,
              absl::flat_hash_set<std::string>* sent,
              v1::ServerReflectionResponse* response) {
    const DescriptorPool& pool = *DescriptorPool::generated_pool();
    switch (request.message_request_case()) {
      case v1::ServerReflectionRequest::kListServices: {
        absl::MutexLock lock(&mutex_);
        if (services_ == nullptr) break;
        for (const std::string& name : *services_) {
          response->mutable_list_services_response()->add_service()->set_name(
              name);
        }
        // An empty list is still the answer.
        response->mutable_list_services_response();
        return;
      }
      case v1::ServerReflectionRequest::kFileByFilename: {
        const FileDescriptor* file =
            pool.FindFileByName(request.file_by_filename());
        if (file == nullptr) {
          return NotFound(absl::StrCat("file ", request.file_by_filename()),
                          response);
        }
        return AddFile(*file, sent, response);
      }
      case v1::ServerReflectionRequest::kFileContainingSymbol: {
        const FileDescriptor* file =
            pool.FindFileContainingSymbol(request.file_containing_symbol());
        if (file == nullptr) {
          return NotFound(
              absl::StrCat("symbol ", request.file_containing_symbol()),
              response);
        }
        return AddFile(*file, sent, response);
      }
      case v1::ServerReflectionRequest::kFileContainingExtension: {
        const v1::ExtensionRequest& extension =
            request.file_containing_extension();
        const google::protobuf::Descriptor* type =
            pool.FindMessageTypeByName(extension.containing_type());
        const google::protobuf::FieldDescriptor* field =
            type == nullptr ? nullptr
                            : pool.FindExtensionByNumber(
                                  type, extension.extension_number());
        if (field == nullptr) {
          return NotFound(
              absl::StrCat("extension ", extension.extension_number(), " of ",
                           extension.containing_type()),
              response);
        }
        return AddFile(*field->file(), sent, response);
      }
      case v1::ServerReflectionRequest::kAllExtensionNumbersOfType: {
        const google::protobuf::Descriptor* type =
            pool.FindMessageTypeByName(request.all_extension_numbers_of_type());
        if (type == nullptr) {
          return NotFound(
              absl::StrCat("type ", request.all_extension_numbers_of_type()),
              response);
        }
        std::vector<const google::protobuf::FieldDescriptor*> extensions;
        pool.FindAllExtensions(type, &extensions);
        v1::ExtensionNumberResponse* numbers =
            response->mutable_all_extension_numbers_response();
        numbers->set_base_type_name(type->full_name());
        for (const auto* field : extensions) {
          numbers->add_extension_number(field->number());
        }
        return;
      }
      case v1::ServerReflectionRequest::MESSAGE_REQUEST_NOT_SET:
        break;
    }
    v1::ErrorResponse* error = response->mutable_error_response();
    error->set_error_code(static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
    error->set_error_message("the request names nothing to look up");
  }

  // `file` and every file it depends on, each once per stream: the client
  // needs them all to build the descriptors.
  static void AddFile(const FileDescriptor& file,
                      absl::flat_hash_set<std::string>* sent,
                      v1::ServerReflectionResponse* response) {
    std::vector<const FileDescriptor*> pending = {&file};
    v1::FileDescriptorResponse* files =
        response->mutable_file_descriptor_response();
    while (!pending.empty()) {
      const FileDescriptor* next = pending.back();
      pending.pop_back();
      if (!sent->insert(next->name()).second) continue;
      google::protobuf::FileDescriptorProto proto;
      next->CopyTo(&proto);
      files->add_file_descriptor_proto(proto.SerializeAsString());
      for (int i = 0; i < next->dependency_count(); ++i) {
        pending.push_back(next->dependency(i));
      }
    }
  }

  static void NotFound(const std::string& what,
                       v1::ServerReflectionResponse* response) {
    v1::ErrorResponse* error = response->mutable_error_response();
    error->set_error_code(static_cast<int>(grpc::StatusCode::NOT_FOUND));
    error->set_error_message(absl::StrCat(what, " not found"));
  }

  absl::Mutex mutex_;
  const std::vector<std::string>* services_ ABSL_GUARDED_BY(mutex_) = nullptr;
};

class ReflectionV1Plugin final : public grpc::ServerBuilderPlugin {
 public:
  std::string name() override { return "paperdb_reflection_v1"; }
  void InitServer(grpc::ServerInitializer* si) override {
    si->RegisterService(service_);
  }
  void Finish(grpc::ServerInitializer* si) override {
    service_->SetServiceList(si->GetServiceList());
  }
  void ChangeArguments(const std::string& /*name*/, void* /*value*/) override {}
  bool has_sync_methods() const override { return true; }

 private:
  std::shared_ptr<ReflectionV1Service> service_ =
      std::make_shared<ReflectionV1Service>();
};

std::unique_ptr<grpc::ServerBuilderPlugin> CreateReflectionV1Plugin() {
  return std::make_unique<ReflectionV1Plugin>();
}

}  // namespace

void InitReflectionV1ServerBuilderPlugin() {
  static const bool added = [] {
    grpc::ServerBuilder::InternalAddPluginFactory(&CreateReflectionV1Plugin);
    return true;
  }();
  (void)added;
}

}  // namespace paperdb::rpc
