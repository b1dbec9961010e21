#include "paperdb/index/inverted_run.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "paperdb/index/varint.h"

namespace paperdb::index {
namespace {

// The first 8 bytes of `s` (zeros past its end) as a big-endian number:
// numbers compare as the strings' prefixes do.
uint64_t BytePrefix(absl::string_view s) {
  uint64_t key = 0;
  for (size_t i = 0; i < 8; ++i) {
    key = (key << 8) | (i < s.size() ? static_cast<unsigned char>(s[i]) : 0);
  }
  return key;
}

}  // namespace

std::unique_ptr<InvertedRun> InvertedRun::Build(
    std::vector<AnalyzedPaper>& papers) {
  std::unique_ptr<InvertedRun> run(new InvertedRun());
  run->paper_count_ = papers.size();
  size_t occurrences = 0;
  for (const AnalyzedPaper& paper : papers) occurrences += paper.terms.size();

  // Pass 1, in paper order: a dense id per distinct term, and each
  // posting with its positions encoded.
  struct Raw {
    uint32_t term_id;
    Posting posting;
  };
  std::vector<Raw> raw;
  raw.reserve(occurrences);
  // Terms the analyzer numbered in one term epoch (analyzer.h) are told
  // apart by their ids, without hashing strings; the rest (common grams,
  // typed fields, or all when the papers span epochs) by a hash map.
  const uint64_t epoch = papers.empty() ? 0 : papers.front().term_epoch;
  bool by_id = epoch != 0;
  uint32_t id_limit = 0;
  for (const AnalyzedPaper& paper : papers) {
    by_id &= paper.term_epoch == epoch;
    for (const AnalyzedPaper::Term& term : paper.terms) {
      if (term.term_id != text::kNoTermId) {
        id_limit = std::max(id_limit, term.term_id + 1);
      }
    }
  }
  constexpr uint32_t kNone = UINT32_MAX;
  std::vector<uint32_t> local_of(by_id ? id_limit : 0, kNone);
  absl::flat_hash_map<absl::string_view, uint32_t> ids;
  ids.reserve(by_id ? papers.size() * 8 : occurrences / 4);
  std::vector<absl::string_view> names;  // By id.
  std::vector<uint32_t> counts;          // By id.
  for (size_t i = 0; i < papers.size(); ++i) {
    for (const AnalyzedPaper::Term& term : papers[i].terms) {
      uint32_t id;
      if (by_id && term.term_id != text::kNoTermId) {
        uint32_t& local = local_of[term.term_id];
        if (local == kNone) {
          local = static_cast<uint32_t>(names.size());
          names.push_back(term.term);
          counts.push_back(0);
        }
        id = local;
      } else {
        auto [it, added] =
            ids.try_emplace(term.term, static_cast<uint32_t>(names.size()));
        if (added) {
          names.push_back(term.term);
          counts.push_back(0);
        }
        id = it->second;
      }
      ++counts[id];
      Raw& r = raw.emplace_back();
      r.term_id = id;
      r.posting.paper = static_cast<uint32_t>(i);
      r.posting.tf = static_cast<uint32_t>(term.positions.size());
      r.posting.next_words = term.next_words;
      r.posting.positions_begin = static_cast<uint32_t>(run->positions_.size());
      uint32_t previous = 0;
      for (const uint32_t position : term.positions) {
        PutVarint32(position - previous, &run->positions_);
        previous = position;
      }
      r.posting.positions_end = static_cast<uint32_t>(run->positions_.size());
    }
  }

  // The terms in byte order, and where each one's postings start. Sorted
  // by their first 8 bytes as a number first: most terms differ there, and
  // comparing strings was 8% of a bulk ingest.
  std::vector<std::pair<uint64_t, uint32_t>> keys(names.size());
  for (uint32_t id = 0; id < names.size(); ++id) {
    keys[id] = {BytePrefix(names[id]), id};
  }
  std::sort(keys.begin(), keys.end(), [&](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    return names[a.second] < names[b.second];
  });
  std::vector<uint32_t> order(names.size());
  for (size_t i = 0; i < keys.size(); ++i) order[i] = keys[i].second;
  std::vector<uint32_t> next(names.size());  // By id: next posting slot.
  size_t term_bytes = 0;
  for (const absl::string_view name : names) term_bytes += name.size();
  run->terms_.reserve(term_bytes);
  run->term_offsets_.reserve(names.size() + 1);
  run->posting_offsets_.reserve(names.size() + 1);
  uint32_t offset = 0;
  for (const uint32_t id : order) {
    run->term_offsets_.push_back(static_cast<uint32_t>(run->terms_.size()));
    run->terms_.append(names[id].data(), names[id].size());
    run->posting_offsets_.push_back(offset);
    next[id] = offset;
    offset += counts[id];
  }
  run->term_offsets_.push_back(static_cast<uint32_t>(run->terms_.size()));
  run->posting_offsets_.push_back(offset);

  // Pass 2: each posting into its term's range, keeping paper order.
  run->postings_.resize(raw.size());
  for (const Raw& r : raw) run->postings_[next[r.term_id]++] = r.posting;

  for (AnalyzedPaper& paper : papers) {
    std::vector<AnalyzedPaper::Term>().swap(paper.terms);
  }
  return run;
}

size_t InvertedRun::ByteSize() const {
  return terms_.size() + positions_.size() +
         postings_.size() * sizeof(Posting) +
         (term_offsets_.size() + posting_offsets_.size()) * sizeof(uint32_t);
}

}  // namespace paperdb::index
