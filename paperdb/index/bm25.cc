#include "paperdb/index/bm25.h"

#include <cmath>

namespace paperdb::index {

Bm25Scorer::Bm25Scorer(const CollectionStats& stats, Bm25Params params)
    : stats_(stats), params_(params) {
  scores_ = stats_.avg_doc_length > 0.0;
  k1_plus_1_ = params_.k1 + 1.0;
  norm_base_ = params_.k1 * (1.0 - params_.b);
  norm_per_term_ = scores_ ? params_.k1 * params_.b / stats_.avg_doc_length : 0;
}

double Bm25Scorer::Idf(uint64_t df) const {
  if (stats_.doc_count == 0) return 0.0;
  const double n = static_cast<double>(stats_.doc_count);
  const double d = static_cast<double>(df);
  return std::log(1.0 + (n - d + 0.5) / (d + 0.5));
}

}  // namespace paperdb::index
