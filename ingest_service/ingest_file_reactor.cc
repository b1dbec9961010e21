#include "ingest_service/ingest_file_reactor.h"

#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/time/clock.h"
#include "paperdb/common/error_details.h"
#include "paperdb/common/free_memory.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/rpc/grpc_status.h"
#include "paperdb/rpc/request_check.h"
#include "paperdb/v1/ingest_service.pb.h"

namespace paperdb::ingest {

IngestFileReactor::IngestFileReactor(
    grpc::CallbackServerContext* context, grpc::ByteBuffer* response,
    Ingester* ingester, absl::Duration max_ingest_time,
    absl::Duration max_idle_time, std::atomic<int>* running,
    UploadWatchdog* watchdog, IngestMetrics* metrics,
    const absl::Status& refusal)
    : context_(context),
      response_(response),
      ingester_(ingester),
      max_ingest_time_(max_ingest_time),
      max_idle_time_(max_idle_time),
      start_(absl::Now()),
      running_(running),
      watchdog_(watchdog),
      metrics_(metrics) {
  {
    absl::MutexLock lock(&mu_);
    last_message_ = start_;
  }
  watchdog_->Add(this);
  if (!refusal.ok()) {
    FinishWith(refusal);
    return;
  }
  if (metrics_ != nullptr) {
    counted_ = true;
    metrics_->CallStarted();
  }
  StartRead(&message_);
}

bool IngestFileReactor::ClaimIfOverdue(absl::Time now) {
  absl::MutexLock lock(&mu_);
  if (phase_ != Phase::kReading) return false;
  const bool idle = now > last_message_ + max_idle_time_;
  if (now <= start_ + max_ingest_time_ && !idle) return false;
  idle_expired_ = now <= start_ + max_ingest_time_;
  phase_ = Phase::kFinished;
  return true;
}

void IngestFileReactor::Expire() {
  if (metrics_ != nullptr) metrics_->FileRefused();
  ReleaseSlot();
  const std::string name = file_name_.empty() ? "IngestFile" : file_name_;
  Finish(rpc::ToGrpcStatus(absl::DeadlineExceededError(
      idle_expired_
          ? absl::StrCat(name,
                         ": the upload sent no file bytes for the server's "
                         "limit of ",
                         absl::FormatDuration(max_idle_time_),
                         " (--max_upload_idle_seconds); nothing stored")
          : absl::StrCat(
                name,
                ": the upload was still incomplete after the server's limit "
                "of ",
                absl::FormatDuration(max_ingest_time_),
                " (--max_ingest_seconds); nothing stored"))));
}

absl::Status IngestFileReactor::Accept() {
  ++messages_;
  std::vector<grpc::Slice> slices;
  if (!message_.Dump(&slices).ok()) {
    return absl::InternalError("cannot read a message of the stream");
  }
  std::string bytes;
  for (const grpc::Slice& slice : slices) {
    bytes.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
  }
  message_.Clear();
  v1::IngestFileRequest request;
  // As a unary request's (request_check.h): the field and byte at fault,
  // reason MALFORMED_REQUEST.
  if (const absl::Status checked =
          rpc::CheckRequestBytes(*request.GetDescriptor(), bytes);
      !checked.ok()) {
    std::string byte;
    for (const auto& [key, value] : MetadataOf(checked)) {
      if (key == "byte") byte = value;
    }
    absl::Status status = WithReason(
        absl::InvalidArgumentError(absl::StrCat(
            "message ", messages_, " of the stream",
            absl::StrReplaceAll(checked.message(),
                                {{"request is not", " is not"},
                                 {"of the request", "of the message"}}),
            "; nothing stored")),
        "MALFORMED_REQUEST",
        {{"byte", byte}, {"message", absl::StrCat(messages_)}});
    const std::string field = FieldOf(checked);
    return field.empty() ? status : WithField(std::move(status), field);
  }
  if (!request.ParseFromString(bytes)) {
    return WithReason(
        absl::InvalidArgumentError(absl::StrCat(
            "message ", messages_,
            " of the stream is not an IngestFileRequest; nothing stored")),
        "MALFORMED_REQUEST", {});
  }
  if (messages_ == 1) {
    if (request.file_name().empty()) {
      return WithField(absl::InvalidArgumentError(
                           "the first IngestFileRequest must set file_name"),
                       "file_name");
    }
    file_name_ = request.file_name();
    PAPERDB_RETURN_IF_ERROR(ValidateFileName(file_name_));
  } else if (!request.file_name().empty() &&
             request.file_name() != file_name_) {
    return WithField(
        absl::InvalidArgumentError(absl::StrCat(
            "message ", messages_, " of the stream names file \"",
            absl::CHexEscape(request.file_name()), "\"; the stream is for \"",
            absl::CHexEscape(file_name_), "\"")),
        "file_name");
  }
  const size_t limit = ingester_->options().max_file_bytes;
  if (request.content().size() > limit - content_.size()) {
    // The same reason as a file over the limit given whole (Ingester).
    return WithReason(
        WithField(absl::InvalidArgumentError(absl::StrCat(
                      file_name_, ": file is larger than the limit of ", limit,
                      " bytes (--max_file_mib); stopped reading at byte ",
                      content_.size(), ", where message ", messages_,
                      " of the stream would bring it to ",
                      content_.size() + request.content().size())),
                  "content"),
        "FILE_TOO_LARGE", {{"limit_bytes", absl::StrCat(limit)}});
  }
  content_.append(request.content());
  return absl::OkStatus();
}

void IngestFileReactor::OnReadDone(bool ok) {
  {
    absl::MutexLock lock(&mu_);
    if (phase_ != Phase::kReading) return;  // Expired meanwhile.
  }
  if (!ok) {
    // The client closed its side, or the call broke (then OnDone follows
    // without Finish mattering).
    if (messages_ == 0) {
      FinishWith(absl::InvalidArgumentError(
          "IngestFile stream is empty: the first message must set "
          "file_name"));
      return;
    }
    {
      absl::MutexLock lock(&mu_);
      if (phase_ != Phase::kReading) return;
      phase_ = Phase::kIngesting;
    }
    worker_ = std::thread([this] { IngestAndFinish(); });
    worker_.detach();  // Finish() is its last touch of this reactor.
    return;
  }
  const size_t received = content_.size();
  if (absl::Status accepted = Accept(); !accepted.ok()) {
    FinishWith(accepted);
    return;
  }
  // Only bytes of the file count as progress: a trickle of empty messages
  // does not keep an upload alive.
  if (content_.size() > received || messages_ == 1) {
    absl::MutexLock lock(&mu_);
    last_message_ = absl::Now();
  }
  StartRead(&message_);
}

void IngestFileReactor::IngestAndFinish() {
  if (context_->IsCancelled()) {
    FinishWith(absl::CancelledError(absl::StrCat(
        file_name_,
        ": the client left before sending the whole file; nothing stored")));
    return;
  }
  const absl::Time give_up = start_ + max_ingest_time_;
  bool timed_out = false;
  const CancelledFn cancelled = [&] {
    timed_out = absl::Now() > give_up;
    return timed_out || context_->IsCancelled();
  };
  absl::StatusOr<v1::IngestFileResponse> result =
      ingester_->IngestContent(file_name_, content_, cancelled);
  if (metrics_ != nullptr && result.ok()) {
    metrics_->FileStored(*result, content_.size());
  }
  content_.clear();
  content_.shrink_to_fit();
  // A file's ingest allocates many times its size; give it back.
  ReleaseFreeMemory();
  if (absl::IsCancelled(result.status()) && timed_out) {
    FinishWith(absl::DeadlineExceededError(absl::StrCat(
        file_name_, ": ingest took longer than the server's limit of ",
        absl::FormatDuration(max_ingest_time_), "; nothing stored")));
    return;
  }
  if (!result.ok()) {
    FinishWith(result.status());
    return;
  }
  bool own_buffer = false;
  const grpc::Status serialized =
      grpc::SerializationTraits<v1::IngestFileResponse>::Serialize(
          *result, response_, &own_buffer);
  {
    absl::MutexLock lock(&mu_);
    phase_ = Phase::kFinished;
  }
  ReleaseSlot();
  Finish(serialized);
}

void IngestFileReactor::FinishWith(const absl::Status& status) {
  {
    absl::MutexLock lock(&mu_);
    if (phase_ == Phase::kFinished) return;
    phase_ = Phase::kFinished;
  }
  if (metrics_ != nullptr && !status.ok()) metrics_->FileRefused();
  ReleaseSlot();
  Finish(rpc::ToGrpcStatus(status));
}

void IngestFileReactor::ReleaseSlot() {
  // Before Finish(): a client that sees the status may call again at once.
  if (slot_released_.exchange(true)) return;
  running_->fetch_sub(1);
  if (counted_) metrics_->CallEnded();
}

void IngestFileReactor::OnDone() {
  watchdog_->Remove(this);
  ReleaseSlot();
  delete this;
}

UploadWatchdog::UploadWatchdog() : thread_([this] { Run(); }) {}

UploadWatchdog::~UploadWatchdog() {
  stop_.Notify();
  thread_.join();
}

void UploadWatchdog::Add(IngestFileReactor* reactor) {
  absl::MutexLock lock(&mu_);
  reactors_.insert(reactor);
}

void UploadWatchdog::Remove(IngestFileReactor* reactor) {
  absl::MutexLock lock(&mu_);
  reactors_.erase(reactor);
}

void UploadWatchdog::Run() {
  while (!stop_.WaitForNotificationWithTimeout(absl::Milliseconds(250))) {
    std::vector<IngestFileReactor*> overdue;
    {
      absl::MutexLock lock(&mu_);
      const absl::Time now = absl::Now();
      for (IngestFileReactor* reactor : reactors_) {
        // A claimed reactor stays alive until Expire() finishes its call.
        if (reactor->ClaimIfOverdue(now)) overdue.push_back(reactor);
      }
    }
    for (IngestFileReactor* reactor : overdue) reactor->Expire();
  }
}

}  // namespace paperdb::ingest
