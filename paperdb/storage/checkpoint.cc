#include "paperdb/storage/checkpoint.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/storage/paper_table.h"
#include "paperdb/storage/store_internal.h"

namespace paperdb::storage {
namespace {

namespace fs = std::filesystem;

constexpr char kTempPrefix[] = ".tmp-ckpt-";
constexpr char kMarkerHeader[] = "paperdb checkpoint 1";

absl::Status FileError(absl::string_view what, const fs::path& path,
                       const std::error_code& error) {
  return absl::InternalError(
      absl::StrCat(what, " ", path.string(), ": ", error.message()));
}

// fsync(2) of a file or directory.
absl::Status Sync(const fs::path& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return absl::InternalError(
        absl::StrCat("opening ", path.string(), ": ", std::strerror(errno)));
  }
  const int synced = fsync(fd);
  const int error = errno;
  close(fd);
  if (synced != 0) {
    return absl::InternalError(
        absl::StrCat("syncing ", path.string(), ": ", std::strerror(error)));
  }
  return absl::OkStatus();
}

// Writes `text` as the whole of the file at `path`.
absl::Status WriteWholeFile(const fs::path& path, absl::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("writing ", path.string()));
  return absl::OkStatus();
}

// The papers the store at `path` holds, read from a secondary instance
// whose own files go to a temporary directory.
absl::StatusOr<uint64_t> CountPapers(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  const fs::path secondary =
      fs::temp_directory_path() /
      absl::StrCat("paperdb-ckpt-count-", getpid(), "-", counter++);
  absl::StatusOr<uint64_t> papers;
  {
    absl::StatusOr<std::unique_ptr<Store>> store =
        Store::OpenSecondary(path, secondary.string());
    if (!store.ok()) {
      papers = store.status();
    } else {
      absl::StatusOr<v1::CorpusStats> stats = PaperTable(store->get()).Stats();
      papers = stats.ok() ? absl::StatusOr<uint64_t>(stats->doc_count())
                          : stats.status();
    }
  }
  std::error_code ignored;
  fs::remove_all(secondary, ignored);
  return papers;
}

// Writes the marker into `dir` listing every file there, then syncs every
// file and the directory.
absl::Status WriteMarker(const fs::path& dir, uint64_t sequence,
                         uint64_t papers) {
  std::string marker = absl::StrCat(kMarkerHeader, "\nsequence ", sequence,
                                    "\npapers ", papers, "\n");
  std::vector<fs::path> files;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    if (!entry.is_regular_file()) continue;
    const uintmax_t size = entry.file_size(error);
    if (error) return FileError("reading the size of", entry.path(), error);
    absl::StrAppend(&marker, "file ", entry.path().filename().string(), " ",
                    size, "\n");
    files.push_back(entry.path());
  }
  if (error) return FileError("listing", dir, error);
  for (const fs::path& file : files) PAPERDB_RETURN_IF_ERROR(Sync(file));
  const fs::path marker_path = dir / kCheckpointMarker;
  PAPERDB_RETURN_IF_ERROR(WriteWholeFile(marker_path, marker));
  PAPERDB_RETURN_IF_ERROR(Sync(marker_path));
  return Sync(dir);
}

// Parses a marker's text; the listed files and sizes go to `files`.
absl::StatusOr<CheckpointInfo> ParseMarker(
    absl::string_view text,
    std::vector<std::pair<std::string, uint64_t>>* files) {
  CheckpointInfo info;
  bool header = false, sequence = false, papers = false;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    if (line == kMarkerHeader) {
      header = true;
      continue;
    }
    std::vector<absl::string_view> words = absl::StrSplit(line, ' ');
    uint64_t value = 0;
    if (words.size() == 2 && words[0] == "sequence" &&
        absl::SimpleAtoi(words[1], &value)) {
      info.sequence = value;
      sequence = true;
    } else if (words.size() == 2 && words[0] == "papers" &&
               absl::SimpleAtoi(words[1], &value)) {
      info.papers = value;
      papers = true;
    } else if (words.size() == 3 && words[0] == "file" &&
               absl::SimpleAtoi(words[2], &value) && !words[1].empty() &&
               !absl::StrContains(words[1], '/') && words[1] != "..") {
      files->emplace_back(std::string(words[1]), value);
    } else {
      return absl::FailedPreconditionError(
          absl::StrCat("unexpected line in the marker: \"", line, "\""));
    }
  }
  if (!header || !sequence || !papers || files->empty()) {
    return absl::FailedPreconditionError(
        "the marker is incomplete (header, sequence, papers or files "
        "missing)");
  }
  return info;
}

}  // namespace

std::string CheckpointName(uint64_t sequence) {
  return absl::StrFormat("%s%020u", kCheckpointPrefix, sequence);
}

absl::StatusOr<CheckpointInfo> ReadCompleteCheckpoint(const std::string& path) {
  const fs::path dir(path);
  std::ifstream in(dir / kCheckpointMarker, std::ios::binary);
  if (!in) {
    return absl::FailedPreconditionError(absl::StrCat(
        "checkpoint ", path, " is incomplete: no ", kCheckpointMarker));
  }
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::pair<std::string, uint64_t>> files;
  absl::StatusOr<CheckpointInfo> info = ParseMarker(text.str(), &files);
  if (!info.ok()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "checkpoint ", path, " is incomplete: ", info.status().message()));
  }
  for (const auto& [name, size] : files) {
    std::error_code error;
    const uintmax_t actual = fs::file_size(dir / name, error);
    if (error || actual != size) {
      return absl::FailedPreconditionError(absl::StrCat(
          "checkpoint ", path, " is incomplete: ", name,
          error ? " is missing"
                : absl::StrCat(" has ", actual, " bytes, not ", size)));
    }
  }
  info->name = dir.filename().string();
  info->path = path;
  if (std::find_if(files.begin(), files.end(), [](const auto& file) {
        return file.first == kCheckpointStoreFile;
      }) != files.end()) {
    std::ifstream store(dir / kCheckpointStoreFile, std::ios::binary);
    std::getline(store, info->store_identity);
  }
  return info;
}

absl::StatusOr<std::vector<CheckpointInfo>> ListCompleteCheckpoints(
    const std::string& publish_dir) {
  std::vector<CheckpointInfo> found;
  std::error_code error;
  if (!fs::exists(publish_dir, error)) return found;
  for (const fs::directory_entry& entry :
       fs::directory_iterator(publish_dir, error)) {
    const std::string name = entry.path().filename().string();
    if (!absl::StartsWith(name, kCheckpointPrefix)) continue;
    absl::StatusOr<CheckpointInfo> info =
        ReadCompleteCheckpoint(entry.path().string());
    if (info.ok()) found.push_back(*std::move(info));
  }
  if (error) return FileError("listing", publish_dir, error);
  std::sort(found.begin(), found.end(),
            [](const CheckpointInfo& a, const CheckpointInfo& b) {
              return a.name < b.name;
            });
  return found;
}

absl::StatusOr<CheckpointInfo> PublishCheckpoint(
    const Store& store, const std::string& publish_dir) {
  static std::atomic<uint64_t> counter{0};
  std::error_code error;
  fs::create_directories(publish_dir, error);
  if (error) return FileError("creating", publish_dir, error);
  const fs::path temp = fs::path(publish_dir) /
                        absl::StrCat(kTempPrefix, getpid(), "-", counter++);
  fs::remove_all(temp, error);
  // Removes the temporary directory on every early return.
  struct Cleanup {
    const fs::path& path;
    ~Cleanup() {
      std::error_code ignored;
      fs::remove_all(path, ignored);
    }
  } cleanup{temp};
  PAPERDB_ASSIGN_OR_RETURN(const uint64_t sequence,
                           store.CreateCheckpoint(temp.string()));
  const std::string identity = internal::ReadIdentity(store.path());
  // A newer checkpoint than the store itself, or one of the same sequence
  // number from another store, was published from another store (one made
  // afresh, or restored from a backup): published beside it, this one
  // would sort older or be taken for it, followers would keep serving the
  // other store, and pruning would remove this one.
  PAPERDB_ASSIGN_OR_RETURN(const std::vector<CheckpointInfo> published,
                           ListCompleteCheckpoints(publish_dir));
  if (!published.empty()) {
    const CheckpointInfo& newest = published.back();
    const bool other_store =
        !newest.store_identity.empty() && newest.store_identity != identity;
    if (newest.sequence > sequence ||
        (newest.sequence == sequence && other_store)) {
      return absl::FailedPreconditionError(absl::StrCat(
          publish_dir, " holds ", newest.name,
          newest.sequence > sequence ? ", newer than" : ", as new as",
          " this store (sequence number ", sequence,
          "): it was published from another store; publish to an empty "
          "directory and point the followers at it"));
    }
  }
  const fs::path final_path = fs::path(publish_dir) / CheckpointName(sequence);
  if (absl::StatusOr<CheckpointInfo> existing =
          ReadCompleteCheckpoint(final_path.string());
      existing.ok()) {
    return existing;
  }
  PAPERDB_ASSIGN_OR_RETURN(const uint64_t papers, CountPapers(temp.string()));
  PAPERDB_RETURN_IF_ERROR(WriteWholeFile(temp / kCheckpointStoreFile,
                                         absl::StrCat(identity, "\n")));
  PAPERDB_RETURN_IF_ERROR(WriteMarker(temp, sequence, papers));
  // An incomplete directory of the same name (a copy cut short) is
  // replaced.
  fs::remove_all(final_path, error);
  if (error) return FileError("removing", final_path, error);
  fs::rename(temp, final_path, error);
  if (error) return FileError("renaming into place", temp, error);
  PAPERDB_RETURN_IF_ERROR(Sync(publish_dir));
  CheckpointInfo info;
  info.name = final_path.filename().string();
  info.path = final_path.string();
  info.sequence = sequence;
  info.papers = papers;
  info.store_identity = identity;
  return info;
}

absl::Status PruneCheckpoints(const std::string& publish_dir, size_t keep) {
  if (keep < 1) return absl::InvalidArgumentError("keep must be >= 1");
  PAPERDB_ASSIGN_OR_RETURN(const std::vector<CheckpointInfo> complete,
                           ListCompleteCheckpoints(publish_dir));
  // Names sort in publish order; "" keeps every checkpoint.
  const std::string oldest_kept =
      complete.size() > keep ? complete[complete.size() - keep].name : "";
  std::error_code error;
  std::vector<fs::path> doomed;
  const auto stale_before =
      fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (const fs::directory_entry& entry :
       fs::directory_iterator(publish_dir, error)) {
    const std::string name = entry.path().filename().string();
    if (absl::StartsWith(name, kCheckpointPrefix) && name < oldest_kept) {
      doomed.push_back(entry.path());
    } else if (absl::StartsWith(name, kTempPrefix)) {
      std::error_code ignored;
      const auto changed = entry.last_write_time(ignored);
      if (!ignored && changed < stale_before) doomed.push_back(entry.path());
    }
  }
  if (error) return FileError("listing", publish_dir, error);
  for (const fs::path& path : doomed) {
    fs::remove_all(path, error);
    if (error) return FileError("removing", path, error);
  }
  return absl::OkStatus();
}

}  // namespace paperdb::storage
