#include "query_service/reply_budget.h"

#include "google/protobuf/io/coded_stream.h"

namespace paperdb::query {

size_t ElementBytes(const google::protobuf::Message& element) {
  const size_t size = element.ByteSizeLong();
  return size + google::protobuf::io::CodedOutputStream::VarintSize64(size) + 2;
}

}  // namespace paperdb::query
