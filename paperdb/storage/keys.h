// Key layout of the paperdb RocksDB store. The on-disk format is defined here
// and only here; bump kSchemaVersion for any incompatible change. Do not
// change an existing layout: it is on disk.
//
//   column family  key                          value
//   "meta"         "schema_version"             decimal kSchemaVersion
//   "meta"         "stats"                      paperdb.storage.v1.CorpusStats
//   "papers"       PaperKey(doc_id)             paperdb.storage.v1.PaperRecord
//   "paper_ids"    external paper id            PaperKey(doc_id)
//   "postings"     PostingKey(term, first_doc)  a posting block
//                                               (posting_block.h)
//   "terms"        term                         varint32 document frequency
//   "sources"      file name (a label)          paperdb.storage.v1.SourceRecord
//   every family   kBatchStampKey               8 bytes: the last batch's stamp
//
// doc_id is the dense internal number postings use, assigned in ingest order
// from 0 and never reused: a deleted paper's number stays unused, and a
// paper deleted and ingested again gets a new one. It is encoded big-endian, so
// RocksDB's bytewise order is numeric order and a scan of "papers" or of one
// term's postings runs in doc order. Terms never contain NUL, so
// PostingPrefix(term) cannot be a prefix of another term's keys.

#ifndef PAPERDB_STORAGE_KEYS_H_
#define PAPERDB_STORAGE_KEYS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace paperdb::storage {

// Version 2 added the "sources" family (updates and deletes). Version 3
// changed the terms (diacritics folded, joined hyphenated compounds), so
// older postings would not match new queries. Version 4 added common grams
// (paperdb/index/common_grams.h), which phrase queries rely on. Version 5
// added surface-form terms (paperdb/text/word_forms.h), which tell a typed
// word from the other words of its stem, and concept terms
// (paperdb/semantic/concept_lexicon.h), the semantic side's index.
// Version 6 indexes the 1,027-concept thesaurus and keeps zero-width
// characters inside words. Version 7 indexes the 1,030-concept thesaurus
// and reads markdown emphasis inside a word as part of it ("**S**parse");
// a concept's words in an abstract must be parted only by the stopwords of
// its term (concept_lexicon.h). Version 8 drops general-English synonyms
// that carry another, technical sense in machine-learning abstracts
// ("query" for question, "error" for mistake, "streaming" for real-time).
// Version 9 indexes the 1,013-concept thesaurus, without terms whose stem
// also spells an unrelated word ("is-a relations" shrinks to "relations",
// "discrimination" shares a stem with "discriminator") and without terms
// broader than their concept ("inverse problems" for image restoration),
// and indexes Han and Kana one character per position. Version 10 adds a
// next-word mask to every posting (paperdb/index/next_words.h) and indexes
// the 1,208-concept thesaurus. Version 11 splits letters from digits
// inside hyphen chains too ("FLAN-MoE-32B" holds "32 b") and reads each
// letter-digit part as a word alone ("gmlwns2000" holds "gmlwn"), spells
// British words the American way before stemming them ("quantisation" is
// "quantization"), gives a word hyphened to a particle the compound as its
// form term ("trade-off" holds "tradeoff"), and indexes the 1,208-concept
// thesaurus without opposites. Version 12 indexes the 1,381-concept
// thesaurus (lay and cross-subfield descriptions, general-English groups)
// and hashes a venue of other characters than ASCII letters and digits
// into its papers' ids (ingest_service/paper_builder.h). Version 13 reads
// full-width decimal marks between digits as '.' and ',' ("９５．３" is the
// number 95.3), and its thesaurus drops "language model" from large
// language models and the bare "convolution" from convolutional networks
// ("masked language modeling" is no LLM, a graph convolution no CNN).
// Version 14 indexes 42 more concepts: techniques and phenomena of recent
// research (grouped-query attention, JEPA, the reversal curse, ...); and
// an acronym or mixed-case name spelling an English word names its concept
// only as written ("ZeRO", not the "zero" of "non-zero"); and method and
// dataset keys drop U+2010 and U+2011 as they drop '-'.
// What an abstract indexes to (analyzer, stemmer, thesaurus) is part of the
// format: queries and `verify` analyze text the same way, so a change there
// is a new version.
inline constexpr int kSchemaVersion = 14;

// Hash64 (paperdb/common/hash.h) of semantic::IndexedThesaurus() of
// paperdb/semantic/concepts.txt (its concept lines without narrower marks),
// the thesaurus version kSchemaVersion indexes. A test compares it with the
// compiled-in thesaurus, so that editing the thesaurus without a new schema
// version fails the build's tests.
inline constexpr uint64_t kIndexedThesaurusHash = 0xd2cc4ef1731865f6;

// Column families, in the order they are created.
enum class Column {
  kMeta = 0,
  kPapers,
  kPaperIds,
  kPostings,
  kTerms,
  kSources
};
inline constexpr int kColumnCount = 6;

// RocksDB name of `column`, e.g. "papers".
const char* ColumnName(Column column);

inline constexpr absl::string_view kSchemaVersionKey = "schema_version";
inline constexpr absl::string_view kStatsKey = "stats";

// Every WriteBatch puts one fresh random stamp under this key in every
// family, so that a reader can tell whether it sees every family at the same
// write (Store::CatchUp()). It sorts after every other key (0xFF never occurs
// in UTF-8, and paper keys are 4 bytes), and StoreIterator skips it. Stores
// written before it have no stamps, which agree.
inline constexpr absl::string_view kBatchStampKey =
    "\xff\xff\xff\xff\xff"
    "batch_stamp";

// The 4-byte big-endian key of paper `doc_id`.
std::string PaperKey(uint32_t doc_id);

// Inverse of PaperKey(). INVALID_ARGUMENT unless `key` is exactly 4 bytes.
absl::StatusOr<uint32_t> DocIdFromPaperKey(absl::string_view key);

// `term` + '\0': every posting block key of `term` starts with this.
std::string PostingPrefix(absl::string_view term);

// Key of the posting block of `term` whose first doc id is `first_doc`.
// REQUIRES: `term` contains no NUL byte.
std::string PostingKey(absl::string_view term, uint32_t first_doc);

// The first doc id of the posting block with key `key`. INVALID_ARGUMENT if
// `key` is shorter than 5 bytes or lacks the NUL separator.
absl::StatusOr<uint32_t> FirstDocFromPostingKey(absl::string_view key);

}  // namespace paperdb::storage

#endif  // PAPERDB_STORAGE_KEYS_H_
