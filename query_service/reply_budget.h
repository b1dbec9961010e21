// The byte budget of a reply. gRPC clients refuse messages over 4 MiB by
// default (grpc.max_receive_message_length), so a reply paperdb builds
// stays under kMaxReplyBytes, leaving room for metadata: a page of results
// or papers ends early, with a next_page_token, when the next one would not
// fit. A single paper of up to --max_abstract_bytes (at most
// ingest::kMaxAbstractBytesLimit, 1 MiB) always fits; a search result whose
// highlights would not is sent without them.

#ifndef PAPERDB_QUERY_SERVICE_REPLY_BUDGET_H_
#define PAPERDB_QUERY_SERVICE_REPLY_BUDGET_H_

#include <cstddef>

#include "google/protobuf/message.h"

namespace paperdb::query {

inline constexpr size_t kMaxReplyBytes = (3 << 20) + (512 << 10);  // 3.5 MiB

// Bytes `element` adds to its parent as an element of a repeated message
// field: its size, the length's varint and a tag of up to 2 bytes.
size_t ElementBytes(const google::protobuf::Message& element);

// Counts a reply's bytes against kMaxReplyBytes.
class ReplyBudget {
 public:
  // `used`: bytes of the reply before its repeated results.
  explicit ReplyBudget(size_t used) : used_(used) {}

  // Takes `bytes` if they fit, and says whether they did.
  bool Take(size_t bytes) {
    if (used_ + bytes > kMaxReplyBytes) return false;
    used_ += bytes;
    return true;
  }
  size_t used() const { return used_; }

 private:
  size_t used_;
};

}  // namespace paperdb::query

#endif  // PAPERDB_QUERY_SERVICE_REPLY_BUDGET_H_
