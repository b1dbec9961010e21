#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "paperdb/index/posting_cache.h"
#include "paperdb/search/evaluation.h"
#include "paperdb/search/top_k.h"

// Evaluation::TermConjunction(): an AND of plain terms over posting lists
// in memory, with block-max pruning and estimated totals.
namespace paperdb::search::internal {

absl::StatusOr<SearchHits> Evaluation::TermConjunction(
    const QueryNode& node, const SearchOptions& options) {
  struct Cursor {
    std::shared_ptr<const index::PostingList> list;
    uint32_t df = 0;
    double idf = 0.0;
    size_t block = 0;      // Current block.
    bool decoded = false;  // Its doc ids are in `postings`.
    index::PostingBlock postings;
    size_t i = 0;            // Posting within the block.
    double block_max = 0.0;  // Bound of the current block's scores.
    size_t scan = 0;         // First block that may overlap the lead's block.
  };
  SearchHits hits;
  std::vector<Cursor> cursors(node.children.size());
  for (size_t c = 0; c < cursors.size(); ++c) {
    const std::string& term = node.children[c].terms[0];
    PAPERDB_ASSIGN_OR_RETURN(cursors[c].df, Df(term));
    PAPERDB_ASSIGN_OR_RETURN(const uint32_t scoring_df, ScoringDf(term));
    if (cursors[c].df == 0 || scoring_df == 0) return hits;
    PAPERDB_RETURN_IF_ERROR(CheckCancelledNow());
    PAPERDB_ASSIGN_OR_RETURN(cursors[c].list,
                             index::PostingCache::Default().Get(store_, term));
    if (cursors[c].list->blocks.empty()) return hits;
    cursors[c].idf = scorer_.Idf(scoring_df);
  }
  // The order AndIterator sums its children's scores in.
  std::sort(cursors.begin(), cursors.end(),
            [](const Cursor& a, const Cursor& b) { return a.df < b.df; });
  auto load = [&](Cursor& c, size_t block) {
    c.block = block;
    c.decoded = false;
    c.i = 0;
    c.block_max = c.list->blocks[block].MaxScore(scorer_, c.idf);
  };
  // The lead's blocks are decoded whole; the others' only opened, and
  // their doc ids decoded as far as the lead's docs reach.
  auto decode = [&](Cursor& c, bool whole) -> absl::Status {
    if (c.decoded) return absl::OkStatus();
    const uint32_t first = c.list->blocks[c.block].first_doc;
    PAPERDB_RETURN_IF_ERROR(
        whole ? c.postings.DecodeInPlace(first, c.list->value(c.block))
              : c.postings.Open(first, c.list->value(c.block)));
    c.decoded = true;
    return absl::OkStatus();
  };
  // The best bound of `c`'s blocks over docs [first, last] (0 unless
  // `bounded`); negative if none of them overlaps it. Calls come in
  // increasing doc order.
  auto range_max = [&](Cursor& c, uint32_t first, uint32_t last, bool bounded) {
    const auto& blocks = c.list->blocks;
    while (c.scan < blocks.size() && blocks[c.scan].header.last_doc < first) {
      ++c.scan;
    }
    if (!bounded) {
      return c.scan < blocks.size() && blocks[c.scan].first_doc <= last ? 0.0
                                                                        : -1.0;
    }
    double best = -1.0;
    for (size_t i = c.scan; i < blocks.size() && blocks[i].first_doc <= last;
         ++i) {
      best = std::max(best, blocks[i].MaxScore(scorer_, c.idf));
    }
    return best;
  };
  // Makes the block of `c` that is the only one that can hold `doc`
  // current; false if `c`'s list ends before `doc`.
  auto to_block = [&](Cursor& c, uint32_t doc) {
    const auto& blocks = c.list->blocks;
    const auto next = std::partition_point(
        blocks.begin() + static_cast<std::ptrdiff_t>(c.block) + 1, blocks.end(),
        [doc](const index::PostingList::Block& block) {
          return block.header.last_doc < doc;
        });
    if (next == blocks.end()) return false;
    load(c, static_cast<size_t>(next - blocks.begin()));
    return true;
  };
  // Whether `c`'s current block, which ends at or after `doc`, holds it;
  // c.i is then its posting.
  auto seek = [&](Cursor& c, uint32_t doc) -> absl::StatusOr<bool> {
    const uint32_t first = c.list->blocks[c.block].first_doc;
    if (first > doc) return false;
    if (!c.list->doc_bits.empty() && c.list->Contains(doc)) {
      // A dense list: the posting's index is the number of its docs
      // before `doc` in the block, counted in the bitset; no doc gap is
      // decoded.
      PAPERDB_RETURN_IF_ERROR(decode(c, /*whole=*/false));
      c.i = c.list->Rank(first, doc);
      if (c.i < c.postings.size()) return true;
      return absl::DataLossError(
          "posting list: its bitset and its blocks disagree");
    }
    PAPERDB_RETURN_IF_ERROR(decode(c, /*whole=*/true));
    // Only a malformed block has no doc >= `doc`.
    c.i = c.postings.SeekDoc(c.i, doc);
    if (c.i == c.postings.size()) {
      return c.postings.status().ok()
                 ? absl::DataLossError("posting block: malformed doc gaps")
                 : c.postings.status();
    }
    return c.postings.doc(c.i) == doc;
  };
  for (Cursor& c : cursors) load(c, 0);
  // The dense lists (the lead's too), when two or more: a lead block whose
  // doc range holds no doc set in all their bitsets has no match, and is
  // skipped undecoded (a word-wise AND over the range, Culpepper & Moffat
  // 2010). Most 4-6 word conjunctions of common words end that way.
  std::vector<const std::vector<uint64_t>*> dense;
  for (const Cursor& c : cursors) {
    if (!c.list->doc_bits.empty()) dense.push_back(&c.list->doc_bits);
  }
  if (dense.size() < 2) dense.clear();
  auto dense_overlap = [&](uint32_t first, uint32_t last) {
    const size_t first_word = first >> 6;
    const size_t last_word = last >> 6;
    for (size_t w = first_word; w <= last_word; ++w) {
      uint64_t bits = ~uint64_t{0};
      if (w == first_word) bits &= ~uint64_t{0} << (first & 63);
      if (w == last_word && (last & 63) != 63) {
        bits &= (uint64_t{1} << ((last & 63) + 1)) - 1;
      }
      for (const std::vector<uint64_t>* d : dense) {
        bits &= w < d->size() ? (*d)[w] : 0;
        if (bits == 0) break;
      }
      if (bits != 0) return true;
    }
    return false;
  };
  // The order the other terms are matched in: the dense ones first (a
  // bit each), then the others by df. A paper that a dense word rules out
  // costs no seek, and no decoding, in the sparse lists: in `efficiently
  // nitpicker merging power reconstruct remains` (three dense words of
  // six) most of the sparse lists' blocks were decoded for lead docs the
  // bitsets then refused.
  std::vector<size_t> match_order;
  for (size_t c = 1; c < cursors.size(); ++c) {
    if (!cursors[c].list->doc_bits.empty()) match_order.push_back(c);
  }
  for (size_t c = 1; c < cursors.size(); ++c) {
    if (cursors[c].list->doc_bits.empty()) match_order.push_back(c);
  }
  TopK top(options.top_k, BetterScore, AfterIn(options, 0));
  Cursor& lead = cursors[0];
  const auto& lead_blocks = lead.list->blocks;
  // Lead blocks skipped uncounted, and the few walked as probes.
  SkipEstimator skips;
  for (size_t b = 0; b < lead_blocks.size(); ++b) {
    const index::PostingList::Block& ref = lead_blocks[b];
    const bool may_estimate =
        options.prune && top.full() && hits.total >= options.exact_total_up_to;
    double bound = may_estimate ? ref.MaxScore(scorer_, lead.idf) : 0.0;
    bool disjoint = false;
    for (size_t c = 1; c < cursors.size() && !disjoint; ++c) {
      const double other = range_max(cursors[c], ref.first_doc,
                                     ref.header.last_doc, may_estimate);
      disjoint = other < 0.0;
      bound += other;
    }
    if (disjoint) continue;  // No match in the block: the count stays exact.
    if (!dense.empty() && !dense_overlap(ref.first_doc, ref.header.last_doc)) {
      continue;  // No match in the block: the count stays exact.
    }
    // Ties go to the lower doc id, which came first.
    bool probe = false;
    if (may_estimate && bound <= top.threshold()) {
      if (!skips.ShouldProbe(bound, top.threshold(), ref.header.count)) {
        continue;
      }
      probe = true;
    }
    PAPERDB_RETURN_IF_ERROR(CheckCancelled());  // Once a block.
    load(lead, b);
    PAPERDB_RETURN_IF_ERROR(decode(lead, /*whole=*/true));
    for (size_t j = 0; j < lead.postings.size(); ++j) {
      const uint32_t doc = lead.postings.doc(j);
      lead.i = j;
      bool match = true;
      for (const size_t c : match_order) {
        if (!match) break;
        Cursor& other = cursors[c];
        if (!other.list->doc_bits.empty()) {
          match = other.list->Contains(doc);  // A dense list: its bitset.
          continue;
        }
        const auto& blocks = other.list->blocks;
        if (blocks[other.block].header.last_doc < doc) {
          if (!to_block(other, doc)) {  // Its list ended: no more matches.
            return Finish(WithSkipped(std::move(hits), skips), top);
          }
        }
        if (blocks[other.block].first_doc > doc) {
          match = false;  // Between blocks: no decoding needed.
          break;
        }
        PAPERDB_ASSIGN_OR_RETURN(match, seek(other, doc));
      }
      if (!match) continue;
      ++hits.total;
      if (probe) skips.AddProbeMatches(1);
      // Dense lists matched by their bitsets: their blocks, for the bound.
      for (size_t c = 1; c < cursors.size(); ++c) {
        Cursor& other = cursors[c];
        if (!other.list->doc_bits.empty() &&
            other.list->blocks[other.block].header.last_doc < doc &&
            !to_block(other, doc)) {
          return absl::DataLossError(
              "posting list: a doc of its bitset is in none of its blocks");
        }
      }
      const bool bounded = options.prune && top.full();
      if (bounded) {
        double bound = 0.0;
        for (const Cursor& c : cursors) bound += c.block_max;
        // Ties go to the lower doc id, which came first.
        if (bound <= top.threshold()) continue;
      }
      // Scored term by term, summed in the order AndIterator sums; once
      // the score so far with the other terms' block bounds cannot reach
      // the k-th score, the rest is neither read nor decoded.
      double score = 0.0;
      bool out = false;
      for (size_t c = 0; c < cursors.size(); ++c) {
        Cursor& cursor = cursors[c];
        if (c > 0 && !cursor.list->doc_bits.empty()) {
          PAPERDB_ASSIGN_OR_RETURN(const bool found, seek(cursor, doc));
          if (!found) {
            return absl::DataLossError(
                "posting list: a doc of its bitset is not in its block");
          }
        }
        if (!cursor.postings.DecodeTfsThrough(cursor.i) ||
            !cursor.postings.DecodeLengthsThrough(cursor.i)) {
          return cursor.postings.status();
        }
        score += scorer_.Score(cursor.idf, cursor.postings.tf(cursor.i),
                               cursor.postings.doc_length(cursor.i));
        if (bounded && c + 1 < cursors.size()) {
          double rest = score;
          for (size_t k = c + 1; k < cursors.size(); ++k) {
            rest += cursors[k].block_max;
          }
          if (rest <= top.threshold()) {
            out = true;
            break;
          }
        }
      }
      if (!out) top.Push({doc, score});
    }
  }
  return Finish(WithSkipped(std::move(hits), skips), top);
}

}  // namespace paperdb::search::internal
