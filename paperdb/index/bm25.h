// Okapi BM25 term weighting.
//
// Source: S. Robertson and H. Zaragoza, "The Probabilistic Relevance
// Framework: BM25 and Beyond", Foundations and Trends in IR 3(4), 2009, with
// Lucene's non-negative idf, ln(1 + (N - df + 0.5) / (df + 0.5))
// (org.apache.lucene.search.similarities.BM25Similarity).
//
// Thread safety: a Bm25Scorer is immutable; share one across query threads.

#ifndef PAPERDB_INDEX_BM25_H_
#define PAPERDB_INDEX_BM25_H_

#include <cstdint>

namespace paperdb::index {

// Free parameters of BM25, defaults as in Lucene.
struct Bm25Params {
  double k1 = 1.2;  // Term-frequency saturation; 0 means tf is ignored.
  double b = 0.75;  // Length normalisation; 0 = none, 1 = full.
};

// Collection-wide statistics the scorer needs.
struct CollectionStats {
  uint64_t doc_count = 0;       // Number of indexed papers (N).
  double avg_doc_length = 0.0;  // Mean abstract length, in terms.
};

class Bm25Scorer {
 public:
  // A doc_count or avg_doc_length of 0 (an empty store) is allowed; every
  // score is then 0.
  explicit Bm25Scorer(const CollectionStats& stats, Bm25Params params = {});

  // Inverse document frequency of a term found in `df` papers; never negative.
  double Idf(uint64_t df) const;

  // The collection's number of papers (N).
  uint64_t doc_count() const { return stats_.doc_count; }

  // Weight of a term with inverse document frequency `idf` that occurs `tf`
  // times in a paper of `doc_length` terms:
  // idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * doc_length /
  // avg_doc_length)).
  // Upper bound on Score(idf, tf, doc_length) over every tf and length: the
  // limit as tf grows, idf * (k1 + 1).
  double MaxScore(double idf) const { return scores_ ? idf * k1_plus_1_ : 0; }

  // Inline: it runs once per matching posting.
  double Score(double idf, uint32_t tf, uint32_t doc_length) const {
    if (tf == 0 || !scores_) return 0.0;
    return idf * tf * k1_plus_1_ /
           (tf + norm_base_ + norm_per_term_ * doc_length);
  }
  // Score() of a weighted term frequency (occurrences counted in part).
  double WeightedScore(double idf, double tf, uint32_t doc_length) const {
    if (tf <= 0.0 || !scores_) return 0.0;
    return idf * tf * k1_plus_1_ /
           (tf + norm_base_ + norm_per_term_ * doc_length);
  }

 private:
  CollectionStats stats_;
  Bm25Params params_;
  // Score() rewritten as idf * tf * (k1 + 1) / (tf + base + per_term * dl).
  bool scores_ = false;  // avg_doc_length > 0.
  double k1_plus_1_ = 0.0;
  double norm_base_ = 0.0;      // k1 * (1 - b).
  double norm_per_term_ = 0.0;  // k1 * b / avg_doc_length.
};

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_BM25_H_
