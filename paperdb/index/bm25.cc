#include "paperdb/index/bm25.h"

#include <cmath>

namespace paperdb::index {

Bm25Scorer::Bm25Scorer(const CollectionStats& stats, Bm25Params params)
    : stats_(stats), params_(params) {}

double Bm25Scorer::Idf(uint64_t df) const {
  if (stats_.doc_count == 0) return 0.0;
  const double n = static_cast<double>(stats_.doc_count);
  const double d = static_cast<double>(df);
  return std::log(1.0 + (n - d + 0.5) / (d + 0.5));
}

double Bm25Scorer::Score(double idf, uint32_t tf, uint32_t doc_length) const {
  if (stats_.avg_doc_length <= 0.0 || tf == 0) return 0.0;
  const double norm =
      params_.k1 *
      (1.0 - params_.b + params_.b * doc_length / stats_.avg_doc_length);
  return idf * tf * (params_.k1 + 1.0) / (tf + norm);
}

}  // namespace paperdb::index
