#include "ingest_service/ingester.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "ingest_service/abstract_list_parser.h"
#include "ingest_service/paper_builder.h"
#include "paperdb/common/error_details.h"
#include "paperdb/common/hash.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/storage/paper_table.h"
#include "paperdb/text/utf8.h"

namespace paperdb::ingest {

namespace {

absl::Status CheckFileName(absl::string_view file_name) {
  if (file_name.empty()) {
    return absl::InvalidArgumentError("file name is empty");
  }
  if (file_name.size() > kMaxFileNameBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("file name of ", file_name.size(),
                     " bytes is longer than the limit of ", kMaxFileNameBytes));
  }
  if (const std::optional<size_t> bad = text::FindInvalidUtf8(file_name)) {
    return absl::InvalidArgumentError(
        absl::StrCat("file name \"", absl::CHexEscape(file_name), "\": byte ",
                     *bad, " is not valid UTF-8"));
  }
  if (const std::optional<text::CodePointAt> bad =
          text::FindControlCharacter(file_name)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "file name \"", absl::CHexEscape(file_name), "\": byte ", bad->byte,
        ": U+", absl::AsciiStrToUpper(absl::StrFormat("%04x", bad->code_point)),
        " is ", text::HiddenCharacterKind(bad->code_point),
        ", which could change how the name is shown"));
  }
  // " a.txt" would be listed as another file than "a.txt", and look alike.
  if (text::StripUnicodeWhitespace(file_name) != file_name) {
    return absl::InvalidArgumentError(
        absl::StrCat("file name \"", absl::CHexEscape(file_name), "\" ",
                     text::StripUnicodeWhitespace(file_name).empty()
                         ? "is only white space"
                         : "begins or ends with white space",
                     ", which would look like another name"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateFileName(absl::string_view file_name) {
  absl::Status status = CheckFileName(file_name);
  if (status.ok()) return status;
  return WithReason(WithField(std::move(status), "file_name"),
                    "INVALID_FILE_NAME");
}

namespace {

// Why `text` may not be stored on its own, or "" if it may.
std::string ParagraphProblem(absl::string_view text,
                             const IngestOptions& options) {
  if (text.size() > options.max_abstract_bytes) {
    return absl::StrCat("abstract of ", text.size(),
                        " bytes is longer than the limit of ",
                        options.max_abstract_bytes, " (--max_abstract_bytes)");
  }
  if (text.size() <= options.max_word_bytes) return "";  // No word can be.
  const text::ByteSpan word = text::LongestWord(text);
  if (word.length > options.max_word_bytes) {
    return absl::StrCat("word of ", word.length, " bytes at byte ", word.start,
                        " of the abstract is longer than the limit of ",
                        options.max_word_bytes, " (--max_word_bytes)");
  }
  return "";
}

v1::ParagraphOutcome::Outcome ToProto(index::PaperOutcome outcome) {
  switch (outcome) {
    case index::PaperOutcome::kAdded:
      return v1::ParagraphOutcome::OUTCOME_ADDED;
    case index::PaperOutcome::kUnchanged:
      return v1::ParagraphOutcome::OUTCOME_UNCHANGED;
    case index::PaperOutcome::kUpdated:
      return v1::ParagraphOutcome::OUTCOME_UPDATED;
    case index::PaperOutcome::kSkipped:
      return v1::ParagraphOutcome::OUTCOME_SKIPPED;
  }
  return v1::ParagraphOutcome::OUTCOME_UNSPECIFIED;
}

// The response for `file`, given what the writer did with its papers.
v1::IngestFileResponse Respond(const PreparedFile& file,
                               const index::FileResult& result) {
  v1::IngestFileResponse response;
  response.set_added(result.added);
  response.set_unchanged(result.unchanged);
  response.set_updated(result.updated);
  response.set_skipped(result.skipped);
  response.set_removed(static_cast<int32_t>(result.removed.size()));
  *response.mutable_source() = result.source;
  absl::flat_hash_map<absl::string_view, uint32_t> first_ordinal;
  for (const PreparedParagraph& paragraph : file.paragraphs) {
    v1::ParagraphOutcome outcome;
    outcome.set_paragraph_ordinal(paragraph.ordinal);
    outcome.set_line_number(paragraph.line_number);
    outcome.set_byte_offset(paragraph.byte_offset);
    switch (paragraph.kind) {
      case PreparedParagraph::Kind::kRejected:
        response.set_rejected(response.rejected() + 1);
        outcome.set_outcome(v1::ParagraphOutcome::OUTCOME_REJECTED);
        outcome.set_reason(paragraph.reason);
        break;
      case PreparedParagraph::Kind::kWordless:
        response.set_skipped(response.skipped() + 1);
        outcome.set_outcome(v1::ParagraphOutcome::OUTCOME_SKIPPED);
        outcome.set_reason("no word: not an abstract");
        break;
      case PreparedParagraph::Kind::kPaper: {
        const absl::string_view id = file.papers[paragraph.paper].paper.id();
        outcome.set_paper_id(std::string(id));
        outcome.set_outcome(ToProto(result.outcomes[paragraph.paper]));
        outcome.set_replaced_paper_id(result.replaced[paragraph.paper]);
        auto [first, inserted] = first_ordinal.emplace(id, paragraph.ordinal);
        if (!inserted) {
          outcome.set_reason(absl::StrCat("repeats paragraph ", first->second));
        }
        break;
      }
    }
    if (outcome.outcome() == v1::ParagraphOutcome::OUTCOME_UNCHANGED) continue;
    if (response.paragraphs_size() >= kMaxListedParagraphs) {
      response.set_paragraphs_truncated(true);
      continue;
    }
    *response.add_paragraphs() = std::move(outcome);
  }
  for (const std::string& id : result.removed) {
    if (response.removed_paper_ids_size() >= kMaxListedParagraphs) break;
    response.add_removed_paper_ids(id);
  }
  return response;
}

}  // namespace

absl::StatusOr<v1::IngestFileResponse> Ingester::IngestContent(
    absl::string_view file_name, absl::string_view content,
    const CancelledFn& cancelled) {
  PAPERDB_ASSIGN_OR_RETURN(PreparedFile file,
                           Prepare(file_name, content, cancelled));
  if (cancelled && cancelled()) {
    return absl::CancelledError(absl::StrCat(
        file_name, ": cancelled before the commit; nothing stored"));
  }
  std::vector<PreparedFile> files;
  files.push_back(std::move(file));
  absl::StatusOr<std::vector<v1::IngestFileResponse>> responses =
      Commit(std::move(files));
  if (!responses.ok()) {
    return absl::Status(
        responses.status().code(),
        absl::StrCat(file_name, ": ", responses.status().message()));
  }
  return std::move((*responses)[0]);
}

absl::StatusOr<PreparedFile> Ingester::Prepare(
    absl::string_view file_name, absl::string_view content,
    const CancelledFn& cancelled) const {
  PAPERDB_RETURN_IF_ERROR(ValidateFileName(file_name));
  if (content.size() > options_.max_file_bytes) {
    return WithReason(
        WithField(absl::InvalidArgumentError(absl::StrCat(
                      file_name, ": file of ", content.size(),
                      " bytes is larger than the limit of ",
                      options_.max_file_bytes, " (--max_file_mib)")),
                  "content"),
        "FILE_TOO_LARGE",
        {{"limit_bytes", absl::StrCat(options_.max_file_bytes)}});
  }
  if (content.empty()) {
    return WithReason(
        WithField(absl::InvalidArgumentError(absl::StrCat(
                      file_name,
                      ": line 1, byte 0: file is empty; expected a header "
                      "line such as \"ICLR 2024 paper list\"")),
                  "content"),
        "EMPTY_FILE",
        {{"file_name", std::string(file_name)}, {"line", "1"}, {"byte", "0"}});
  }
  PAPERDB_ASSIGN_OR_RETURN(const ParsedAbstractList list,
                           ParseAbstractList(file_name, content));
  if (list.abstracts.size() > options_.max_paragraphs) {
    const ParsedAbstract& first_over = list.abstracts[options_.max_paragraphs];
    return WithReason(
        WithField(
            absl::InvalidArgumentError(absl::StrCat(
                file_name, ": line ", first_over.line_number, ", byte ",
                first_over.byte_offset, ": file holds ", list.abstracts.size(),
                " paragraphs, more than the limit of ", options_.max_paragraphs,
                " (--max_paragraphs); split it into several files")),
            "content"),
        "TOO_MANY_PARAGRAPHS",
        {{"line", absl::StrCat(first_over.line_number)},
         {"byte", absl::StrCat(first_over.byte_offset)}});
  }
  PreparedFile file;
  file.file_name = std::string(file_name);
  file.content_hash = Hash128Hex(content);
  // The same bytes as the stored file: its papers are those the source
  // record lists, and nothing needs analyzing.
  absl::flat_hash_set<std::string> stored_ids;
  {
    storage::PaperTable table(store_);
    absl::StatusOr<storage::v1::SourceRecord> stored =
        table.GetSource(file_name);
    if (stored.ok() && stored->source().content_hash() == file.content_hash) {
      file.analyzed = false;
      stored_ids.insert(stored->paper_ids().begin(), stored->paper_ids().end());
    }
  }
  for (bool mismatch = false;; mismatch = false) {
    file.papers.clear();
    file.paragraphs.clear();
    file.papers.reserve(list.abstracts.size());
    file.paragraphs.reserve(list.abstracts.size());
    for (const ParsedAbstract& abstract : list.abstracts) {
      if (cancelled && abstract.paragraph_ordinal % 1024 == 0 && cancelled()) {
        return absl::CancelledError(absl::StrCat(
            file_name, ": cancelled while parsing; nothing stored"));
      }
      PreparedParagraph& paragraph = file.paragraphs.emplace_back();
      paragraph.ordinal = abstract.paragraph_ordinal;
      paragraph.line_number = abstract.line_number;
      paragraph.byte_offset = abstract.byte_offset;
      paragraph.reason = ParagraphProblem(abstract.text, options_);
      if (!paragraph.reason.empty()) {
        if (!file.analyzed &&
            stored_ids.contains(BuildPaper(abstract, file_name).id())) {
          // Stored, yet rejected now: the limits changed since. Compare
          // paper by paper, so that the paper is removed.
          mismatch = true;
          break;
        }
        paragraph.kind = PreparedParagraph::Kind::kRejected;
        continue;
      }
      index::AnalyzedPaper analyzed;
      analyzed.paper = BuildPaper(abstract, file_name);
      if (file.analyzed || !stored_ids.contains(analyzed.paper.id())) {
        analyzed = index::AnalyzePaper(std::move(analyzed.paper));
        const bool wordless =
            analyzed.terms.empty() || !text::ContainsLetter(abstract.text);
        if (!wordless && !file.analyzed) {
          // A paper the stored file lacks although the bytes are the same:
          // the limits changed since. Compare paper by paper after all.
          mismatch = true;
          break;
        }
        if (wordless) {
          // A separator or numbering line ("----", "1.", "[2]").
          paragraph.kind = PreparedParagraph::Kind::kWordless;
          continue;
        }
      }
      paragraph.paper = file.papers.size();
      file.papers.push_back(std::move(analyzed));
    }
    if (!mismatch) break;
    file.analyzed = true;
    file.content_hash.clear();
  }
  // Inverted here, on the preparing thread, so that the commit only merges
  // runs (inverted_run.h).
  if (file.analyzed) file.run = index::InvertedRun::Build(file.papers);
  return file;
}

absl::StatusOr<std::vector<v1::IngestFileResponse>> Ingester::Commit(
    std::vector<PreparedFile> files) {
  std::vector<index::FileUpdate> updates;
  updates.reserve(files.size());
  for (PreparedFile& file : files) {
    index::FileUpdate& update = updates.emplace_back();
    update.file_name = file.file_name;
    update.content_hash = file.content_hash;
    update.analyzed = file.analyzed;
    update.run = std::move(file.run);
    // The papers move to the writer; Respond() needs only their ids.
    update.papers.reserve(file.papers.size());
    for (index::AnalyzedPaper& paper : file.papers) {
      index::AnalyzedPaper& moved = update.papers.emplace_back();
      moved.paper.set_id(paper.paper.id());
      std::swap(moved, paper);
    }
  }
  PAPERDB_ASSIGN_OR_RETURN(const std::vector<index::FileResult> results,
                           writer_->CommitFiles(std::move(updates)));
  std::vector<v1::IngestFileResponse> responses;
  responses.reserve(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    responses.push_back(Respond(files[i], results[i]));
  }
  return responses;
}

absl::StatusOr<std::vector<std::string>> ListInputFiles(
    const std::vector<std::string>& paths, std::vector<SkippedEntry>* skipped) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (error || !fs::exists(status)) {
      return absl::NotFoundError(
          absl::StrCat(path, ": ",
                       error && error != std::errc::no_such_file_or_directory
                           ? error.message()
                           : "no such file or directory"));
    }
    if (!fs::is_directory(status)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> inside;
    for (const fs::directory_entry& entry :
         fs::directory_iterator(path, error)) {
      const std::string name = entry.path().filename().string();
      if (name.empty() || name[0] == '.') continue;
      // The entry's target (symlinks followed); never throws.
      std::error_code entry_error;
      const fs::file_status target = entry.status(entry_error);
      if (entry_error || !fs::exists(target)) {
        if (skipped == nullptr) continue;
        skipped->push_back(
            {entry.path().string(),
             entry_error ? entry_error.message() : "no such file or directory",
             /*unreadable=*/true});
      } else if (fs::is_regular_file(target)) {
        inside.push_back(entry.path().string());
      } else if (skipped != nullptr) {
        skipped->push_back({entry.path().string(),
                            fs::is_directory(target)
                                ? "a directory (directories are not walked)"
                                : "not a regular file",
                            /*unreadable=*/false});
      }
    }
    if (error) {
      return absl::InternalError(absl::StrCat(path, ": ", error.message()));
    }
    std::sort(inside.begin(), inside.end());
    files.insert(files.end(), inside.begin(), inside.end());
  }
  if (skipped != nullptr) {
    std::sort(skipped->begin(), skipped->end(),
              [](const SkippedEntry& a, const SkippedEntry& b) {
                return a.path < b.path;
              });
  }
  // A file's name is its source's name in the store: a second file of the
  // same name would replace the first's papers.
  absl::flat_hash_map<std::string, const std::string*> by_name;
  for (const std::string& file : files) {
    auto [it, inserted] =
        by_name.emplace(fs::path(file).filename().string(), &file);
    std::error_code error;
    if (!inserted && !fs::equivalent(*it->second, file, error)) {
      return absl::InvalidArgumentError(absl::StrCat(
          *it->second, " and ", file, " are both named '", it->first,
          "': a file's name is its source's name in the store, so the second "
          "would replace the first's papers; rename one"));
    }
  }
  return files;
}

namespace {

// Waits until `fd`, a FIFO or device opened non-blocking, can be read (or
// its writer has gone), polling `interrupted` every 100 ms. False if
// interrupted first.
bool AwaitReadable(int fd, const std::atomic<bool>* interrupted) {
  while (interrupted == nullptr || !interrupted->load()) {
    pollfd ready{fd, POLLIN, 0};
    if (poll(&ready, 1, 100) > 0) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<std::string> ReadFile(const std::string& path, size_t max_bytes,
                                     const std::atomic<bool>* interrupted) {
  // Non-blocking open: a FIFO's open would otherwise wait, uninterruptibly,
  // for a writer; its reads then wait in poll(), which an interrupt ends.
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    const int open_error = errno;
    const std::string message =
        absl::StrCat(path, ": cannot open: ", std::strerror(open_error));
    return open_error == ENOENT ? absl::NotFoundError(message)
                                : absl::FailedPreconditionError(message);
  }
  struct Closer {
    int fd;
    ~Closer() { close(fd); }
  } closer{fd};
  struct stat info;
  const bool regular = fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
  if (regular) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  std::string content;
  char buffer[1 << 16];
  while (true) {
    if (!regular && !AwaitReadable(fd, interrupted)) {
      return absl::CancelledError(
          absl::StrCat(path, ": interrupted while waiting for data"));
    }
    const ssize_t got = read(fd, buffer, sizeof(buffer));
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got < 0) {
      return absl::InternalError(
          absl::StrCat(path, ": read error: ", std::strerror(errno)));
    }
    if (got == 0) break;
    content.append(buffer, static_cast<size_t>(got));
    if (content.size() > max_bytes) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": file is larger than the limit of ", max_bytes,
                       " bytes (--max_file_mib)"));
    }
  }
  return content;
}

}  // namespace paperdb::ingest
