#include "ingest_service/ingester.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "ingest_service/abstract_list_parser.h"
#include "ingest_service/paper_builder.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/text/utf8.h"

namespace paperdb::ingest {

absl::Status ValidateFileName(absl::string_view file_name) {
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
  for (char c : file_name) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
      return absl::InvalidArgumentError(
          absl::StrCat("file name \"", absl::CHexEscape(file_name),
                       "\" contains a control character"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<FileSummary> Ingester::IngestContent(absl::string_view file_name,
                                                    absl::string_view content) {
  PAPERDB_ASSIGN_OR_RETURN(PreparedFile file, Prepare(file_name, content));
  std::vector<PreparedFile> files;
  files.push_back(std::move(file));
  absl::StatusOr<std::vector<FileSummary>> summaries = Commit(std::move(files));
  if (!summaries.ok()) {
    return absl::Status(
        summaries.status().code(),
        absl::StrCat(file_name, ": ", summaries.status().message()));
  }
  return (*summaries)[0];
}

absl::StatusOr<PreparedFile> Ingester::Prepare(
    absl::string_view file_name, absl::string_view content) const {
  PAPERDB_RETURN_IF_ERROR(ValidateFileName(file_name));
  PAPERDB_ASSIGN_OR_RETURN(const ParsedAbstractList list,
                           ParseAbstractList(file_name, content));
  PreparedFile file;
  file.file_name = std::string(file_name);
  file.papers.reserve(list.abstracts.size());
  for (const ParsedAbstract& abstract : list.abstracts) {
    if (abstract.text.size() > options_.max_abstract_bytes) {
      return absl::InvalidArgumentError(absl::StrCat(
          file_name, ": line ", abstract.line_number, ", byte ",
          abstract.byte_offset, ": abstract of ", abstract.text.size(),
          " bytes is longer than the limit of ", options_.max_abstract_bytes,
          " (--max_abstract_bytes)"));
    }
    index::AnalyzedPaper analyzed =
        index::IndexWriter::Analyze(BuildPaper(abstract, file_name));
    if (analyzed.terms.empty() || !text::ContainsLetter(abstract.text)) {
      // A separator or numbering line ("----", "1.", "[2]"): not a paper.
      ++file.wordless;
      continue;
    }
    file.papers.push_back(std::move(analyzed));
  }
  return file;
}

absl::StatusOr<std::vector<FileSummary>> Ingester::Commit(
    std::vector<PreparedFile> files) {
  std::vector<index::AnalyzedPaper> papers;
  std::vector<size_t> file_ends;  // Index past each file's last paper.
  for (PreparedFile& file : files) {
    for (index::AnalyzedPaper& paper : file.papers)
      papers.push_back(std::move(paper));
    file_ends.push_back(papers.size());
  }
  PAPERDB_ASSIGN_OR_RETURN(const index::CommitResult result,
                           writer_->Commit(std::move(papers)));
  std::vector<FileSummary> summaries(files.size());
  size_t f = 0;
  for (size_t i = 0; i < result.outcomes.size(); ++i) {
    while (i >= file_ends[f]) ++f;
    switch (result.outcomes[i]) {
      case index::PaperOutcome::kAdded:
        ++summaries[f].added;
        break;
      case index::PaperOutcome::kUnchanged:
        ++summaries[f].unchanged;
        break;
      case index::PaperOutcome::kSkipped:
        ++summaries[f].skipped;
        break;
    }
  }
  for (size_t i = 0; i < files.size(); ++i)
    summaries[i].skipped += files[i].wordless;
  return summaries;
}

absl::StatusOr<std::vector<std::string>> ListInputFiles(
    const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (error || !fs::exists(status)) {
      return absl::NotFoundError(
          absl::StrCat(path, ": no such file or directory"));
    }
    if (!fs::is_directory(status)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> inside;
    for (const fs::directory_entry& entry :
         fs::directory_iterator(path, error)) {
      const std::string name = entry.path().filename().string();
      if (!name.empty() && name[0] != '.' && entry.is_regular_file()) {
        inside.push_back(entry.path().string());
      }
    }
    if (error) {
      return absl::InternalError(absl::StrCat(path, ": ", error.message()));
    }
    std::sort(inside.begin(), inside.end());
    files.insert(files.end(), inside.begin(), inside.end());
  }
  return files;
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) return absl::InternalError(absl::StrCat(path, ": read error"));
  return content.str();
}

}  // namespace paperdb::ingest
