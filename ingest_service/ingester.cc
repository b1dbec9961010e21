#include "ingest_service/ingester.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "ingest_service/abstract_list_parser.h"
#include "ingest_service/paper_builder.h"
#include "paperdb/common/status_macros.h"

namespace paperdb::ingest {

absl::StatusOr<FileSummary> Ingester::IngestContent(absl::string_view file_name,
                                                    absl::string_view content) {
  PAPERDB_ASSIGN_OR_RETURN(const ParsedAbstractList list,
                           ParseAbstractList(file_name, content));
  std::vector<v1::Paper> papers;
  papers.reserve(list.abstracts.size());
  for (const ParsedAbstract& abstract : list.abstracts) {
    papers.push_back(BuildPaper(list, abstract, file_name));
  }
  absl::StatusOr<index::CommitResult> result =
      writer_->Commit(std::move(papers));
  if (!result.ok()) {
    return absl::Status(
        result.status().code(),
        absl::StrCat(file_name, ": ", result.status().message()));
  }
  return FileSummary{result->added, result->unchanged, result->skipped};
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
