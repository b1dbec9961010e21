#include "paperdb/common/flags_usage.h"

#include <cstdlib>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace paperdb {
namespace {

// Flags of these files are paperdb's: listed by --help, settable from the
// environment. The benchmark programs define theirs in bench/*.cc.
bool IsPaperdbFlagFile(absl::string_view path) {
  return absl::EndsWith(path, "/main.cc") ||
         absl::EndsWith(path, "/security_flags.cc") ||
         absl::StartsWith(path, "bench/") || absl::StrContains(path, "/bench/");
}

// "/work/src/paperdb/query_service/main.cc" -> "query_service/main.cc".
std::string RelativeToSourceTree(absl::string_view path) {
  for (absl::string_view top :
       {"/ingest_service/", "/query_service/", "/paperdb/", "/bench/"}) {
    if (const size_t at = path.rfind(top); at != absl::string_view::npos) {
      return std::string(path.substr(at + 1));
    }
  }
  return std::string(path);
}

}  // namespace

std::string FlagEnvironmentVariable(absl::string_view name) {
  return absl::StrCat("PAPERDB_", absl::AsciiStrToUpper(name));
}

void SetUpFlagsUsage(absl::string_view usage) {
  absl::SetProgramUsageMessage(absl::StrCat(
      usage,
      "\n\n  Every flag below can also be set by an environment variable: "
      "PAPERDB_ and its name in upper case (--db: PAPERDB_DB). The command "
      "line wins."));
  absl::FlagsUsageConfig config;
  config.contains_help_flags = IsPaperdbFlagFile;
  config.contains_helpshort_flags = IsPaperdbFlagFile;
  config.normalize_filename = RelativeToSourceTree;
  config.version_string = [] {
    return std::string("paperdb " PAPERDB_VERSION "\n");
  };
  absl::SetFlagsUsageConfig(config);
}

absl::Status ApplyFlagsFromEnvironment() {
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (!IsPaperdbFlagFile(flag->Filename())) continue;
    const std::string variable = FlagEnvironmentVariable(name);
    const char* value = std::getenv(variable.c_str());
    if (value == nullptr) continue;
    std::string error;
    if (!flag->ParseFrom(value, &error)) {
      return absl::InvalidArgumentError(
          absl::StrCat("environment variable ", variable, ": ", error));
    }
  }
  return absl::OkStatus();
}

}  // namespace paperdb
