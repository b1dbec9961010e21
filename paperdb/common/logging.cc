#include "paperdb/common/logging.h"

#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace paperdb {

std::string JsonString(absl::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          absl::StrAppendFormat(&out, "\\u%04x", static_cast<int>(c));
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
  return out;
}

void LogEvent(absl::string_view severity, absl::string_view message,
              std::initializer_list<LogField> fields) {
  std::string line =
      absl::StrCat("{\"time\":\"",
                   absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::Now(),
                                    absl::UTCTimeZone()),
                   "\",\"severity\":", JsonString(severity),
                   ",\"message\":", JsonString(message));
  for (const LogField& field : fields) {
    absl::StrAppend(&line, ",", JsonString(field.key), ":",
                    field.number ? field.value : JsonString(field.value));
  }
  line += "}\n";
  // One fwrite per event, so concurrent lines do not interleave.
  std::fwrite(line.data(), 1, line.size(), stderr);
}

void LogInfo(absl::string_view message) { LogEvent("INFO", message); }
void LogWarning(absl::string_view message) { LogEvent("WARNING", message); }
void LogError(absl::string_view message) { LogEvent("ERROR", message); }

}  // namespace paperdb
