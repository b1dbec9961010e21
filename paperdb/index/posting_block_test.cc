#include "paperdb/index/posting_block.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "paperdb/index/next_words.h"
#include "paperdb/index/varint.h"
#include "tests/testing/status_matchers.h"

namespace paperdb::index {
namespace {

using ::paperdb::testing::IsOk;
using ::paperdb::testing::StatusIs;
using ::testing::ElementsAre;

std::string ThreePostings() {
  PostingBlockBuilder builder;
  builder.Add(100, 40, {3}, 0x01);
  builder.Add(105, 12, {0, 7, 9}, 0x82);
  builder.Add(300, 90, {88, 89}, 0x00);
  return builder.Finish();
}

// EncodeVarint32() writes the bytes PutVarint32() appends, at each length's
// bounds.
TEST(VarintTest, EncodeWritesWhatPutAppends) {
  for (const uint32_t v : {0u, 1u, 127u, 128u, 300u, 16383u, 16384u, 2097151u,
                           2097152u, 268435455u, 268435456u, UINT32_MAX}) {
    std::string put;
    PutVarint32(v, &put);
    char buffer[5];
    const char* end = EncodeVarint32(v, buffer);
    EXPECT_EQ(std::string(static_cast<const char*>(buffer), end), put) << v;
  }
  char buffer[5];
  EXPECT_EQ(EncodeVarint32(UINT32_MAX, buffer) - buffer, 5);
  ASSERT_EQ(EncodeVarint32(300, buffer) - buffer, 2);
  EXPECT_EQ(static_cast<unsigned char>(buffer[0]), 0xACu);
  EXPECT_EQ(static_cast<unsigned char>(buffer[1]), 0x02u);
}

// SkipVarints() lands exactly where decoding n varints one by one does, for
// every n, over varints of 1 to 5 bytes in runs that straddle its 8-byte
// words; past the end it fails.
TEST(VarintTest, SkipVarintsLandsWhereDecodingDoes) {
  std::string data;
  std::vector<uint32_t> values;
  for (uint32_t i = 0; i < 300; ++i) {
    const uint32_t v = i % 7 == 0 ? (1u << (7 * (i % 5))) + i : i % 100;
    values.push_back(v);
    PutVarint32(v, &data);
  }
  const char* const limit = data.data() + data.size();
  const char* decoded = data.data();
  for (size_t n = 0; n <= values.size(); ++n) {
    SCOPED_TRACE(n);
    const char* skipped = data.data();
    ASSERT_TRUE(SkipVarints(&skipped, limit, n));
    EXPECT_EQ(skipped - data.data(), decoded - data.data());
    if (n < values.size()) {
      uint32_t value = 0;
      ASSERT_TRUE(GetVarint32(&decoded, limit, &value));
      EXPECT_EQ(value, values[n]);
    }
  }
  const char* p = data.data();
  EXPECT_FALSE(SkipVarints(&p, limit, values.size() + 1));
}

// GetVarints32() decodes what GetVarint32() does one by one, through runs
// of one-byte and two-byte varints (its word-at-a-time paths) and longer
// ones, and fails on input cut anywhere inside the last varint.
TEST(VarintTest, GetVarints32DecodesAsOneByOne) {
  std::vector<uint32_t> values;
  for (uint32_t i = 0; i < 64; ++i) values.push_back(i);             // 1 byte
  for (uint32_t i = 0; i < 63; ++i) values.push_back(128 + 37 * i);  // 2
  values.push_back(16383);  // The largest of two bytes.
  for (uint32_t i = 0; i < 50; ++i) {
    values.push_back(i % 3 == 0 ? 5 : i % 3 == 1 ? 300 : 70000 + i);
  }
  values.push_back(UINT32_MAX);  // 5 bytes.
  std::string data;
  for (uint32_t v : values) PutVarint32(v, &data);
  const char* const limit = data.data() + data.size();
  for (size_t n : {size_t{0}, size_t{3}, size_t{8}, size_t{64}, size_t{100},
                   size_t{128}, values.size()}) {
    SCOPED_TRACE(n);
    std::vector<uint32_t> bulk(n), one(n);
    const char* a = data.data();
    const char* b = data.data();
    ASSERT_TRUE(GetVarints32(&a, limit, bulk.data(), n));
    for (size_t i = 0; i < n; ++i) ASSERT_TRUE(GetVarint32(&b, limit, &one[i]));
    EXPECT_EQ(bulk, one);
    EXPECT_EQ(a, b);
  }
  std::vector<uint32_t> out(values.size());
  for (size_t cut = data.size() - 5; cut < data.size(); ++cut) {
    const char* p = data.data();
    EXPECT_FALSE(GetVarints32(&p, data.data() + cut, out.data(), values.size()))
        << cut;
  }
}

// SumPositiveVarints() adds what decoding one by one finds, through runs of
// one-byte varints (eight at a time) and longer ones; a 0 or input cut
// short fails.
TEST(VarintTest, SumPositiveVarintsAddsWhatDecodingFinds) {
  std::vector<uint32_t> values;
  for (uint32_t i = 0; i < 40; ++i) values.push_back(1 + i % 127);
  values.push_back(300);
  for (uint32_t i = 0; i < 20; ++i) values.push_back(i % 5 == 0 ? 70000 : 3);
  std::string data;
  for (uint32_t v : values) PutVarint32(v, &data);
  const char* const limit = data.data() + data.size();
  for (size_t n = 0; n <= values.size(); ++n) {
    const char* p = data.data();
    uint64_t sum = 7;  // Added to.
    ASSERT_TRUE(SumPositiveVarints(&p, limit, n, &sum)) << n;
    uint64_t expected = 7;
    const char* q = data.data();
    for (size_t i = 0; i < n; ++i) {
      expected += values[i];
      uint32_t v = 0;
      ASSERT_TRUE(GetVarint32(&q, limit, &v));
    }
    EXPECT_EQ(sum, expected) << n;
    EXPECT_EQ(p, q) << n;
  }
  uint64_t sum = 0;
  const char* p = data.data();
  EXPECT_FALSE(SumPositiveVarints(&p, limit, values.size() + 1, &sum));
  for (const size_t zero_at : {size_t{0}, size_t{5}, size_t{12}}) {
    std::string zeros(16, '\x01');
    zeros[zero_at] = '\0';
    const char* z = zeros.data();
    EXPECT_FALSE(SumPositiveVarints(&z, zeros.data() + zeros.size(), 16, &sum))
        << zero_at;
  }
}

// A block opened lazily gives each posting's positions whatever was
// decoded before: term frequencies summed from their bytes (none decoded),
// partly decoded, or all, in any order of postings.
TEST(PostingBlockTest, PositionsAreTheSameHoweverFarTfsAreDecoded) {
  PostingBlockBuilder builder;
  std::vector<std::vector<uint32_t>> expected;
  for (uint32_t k = 0; k < 100; ++k) {
    std::vector<uint32_t> positions;
    // Mostly one to three positions; every 23rd posting 130 (a two-byte tf).
    const uint32_t tf = k % 23 == 22 ? 130 : 1 + k % 3;
    for (uint32_t j = 0; j < tf; ++j) positions.push_back(5 * j + k % 4);
    builder.Add(1000 + 2 * k, 200, positions, kAnyNextWord);
    expected.push_back(positions);
  }
  const std::string value = builder.Finish();
  for (const std::vector<size_t>& order :
       std::vector<std::vector<size_t>>{{0, 1, 2},
                                        {50, 51, 99},
                                        {22, 70, 10, 45},
                                        {99},
                                        {3, 40, 41, 44, 98}}) {
    for (const size_t decode_through : {size_t{0}, size_t{31}, size_t{60}}) {
      PostingBlock block;
      ASSERT_THAT(block.Open(1000, value), IsOk());
      if (decode_through > 0) {
        ASSERT_TRUE(block.DecodeTfsThrough(decode_through));
      }
      for (const size_t i : order) {
        if (i == 45) {  // Tfs decoded in between.
          ASSERT_TRUE(block.DecodeTfsThrough(47));
        }
        absl::StatusOr<std::vector<uint32_t>> positions = block.Positions(i);
        ASSERT_THAT(positions, IsOk());
        EXPECT_EQ(*positions, expected[i])
            << "posting " << i << " after decoding through " << decode_through;
      }
    }
  }
}

// Lengths decoded as far as asked, with the term frequencies before them
// decoded to any point or not at all, are the builder's.
TEST(PostingBlockTest, LengthsAreTheSameHoweverFarTfsAreDecoded) {
  PostingBlockBuilder builder;
  std::vector<uint32_t> tfs;
  std::vector<uint32_t> lengths;
  for (uint32_t k = 0; k < 128; ++k) {
    // One- and two-byte tfs; lengths from 100 to 327 (two bytes), and 7.
    const uint32_t tf = k % 19 == 5 ? 200 : 1 + k % 4;
    const uint32_t length = k % 11 == 3 ? 7 : 100 + (k * 37) % 228;
    std::vector<uint32_t> positions(tf);
    for (uint32_t j = 0; j < tf; ++j) positions[j] = 2 * j;
    builder.Add(500 + 3 * k, length, positions, kAnyNextWord);
    tfs.push_back(tf);
    lengths.push_back(length);
  }
  const std::string value = builder.Finish();
  for (const size_t tfs_through :
       {size_t{0}, size_t{5}, size_t{64}, size_t{127}}) {
    for (const size_t i : {size_t{0}, size_t{31}, size_t{32}, size_t{90}}) {
      PostingBlock block;
      ASSERT_THAT(block.Open(500, value), IsOk());
      if (tfs_through > 0) {
        ASSERT_TRUE(block.DecodeTfsThrough(tfs_through));
      }
      ASSERT_TRUE(block.DecodeLengthsThrough(i));
      EXPECT_EQ(block.doc_length(i), lengths[i])
          << "posting " << i << ", tfs through " << tfs_through;
      EXPECT_FALSE(block.frequencies_decoded());
      // Then the tfs past those decoded, and the rest of the lengths.
      ASSERT_TRUE(block.DecodeTfsThrough(127));
      ASSERT_THAT(block.DecodeFrequencies(), IsOk());
      EXPECT_TRUE(block.frequencies_decoded());
      for (size_t k = 0; k < 128; ++k) {
        ASSERT_EQ(block.tf(k), tfs[k]) << k;
        ASSERT_EQ(block.doc_length(k), lengths[k]) << k;
      }
    }
  }
}

// Lengths that run past their section, or stop short of it, are malformed
// once the last one is decoded.
TEST(PostingBlockTest, LengthsNotEndingTheSectionAreDataLoss) {
  PostingBlockBuilder builder;
  builder.Add(100, 40, {3}, kAnyNextWord);
  builder.Add(105, 12, {1, 2}, kAnyNextWord);
  std::string value = builder.Finish();
  // The header's fifth varint is the byte length of next-word masks, docs,
  // tfs and lengths (8 bytes here: every value fits one byte); one more or
  // one fewer.
  ASSERT_EQ(value[4], 8);
  for (const char bytes : {char{7}, char{9}}) {
    std::string changed = value;
    changed[4] = bytes;
    PostingBlock block;
    ASSERT_THAT(block.Open(100, changed), IsOk());
    EXPECT_FALSE(block.DecodeLengthsThrough(1)) << int{bytes};
    EXPECT_THAT(block.status(), StatusIs(absl::StatusCode::kDataLoss))
        << int{bytes};
  }
}

TEST(PostingBlockTest, RoundTripsDocsTfsLengthsAndPositions) {
  absl::StatusOr<PostingBlock> block =
      PostingBlock::Decode(100, ThreePostings());
  ASSERT_THAT(block, IsOk());

  ASSERT_EQ(block->size(), 3u);
  EXPECT_EQ(block->doc(1), 105u);
  EXPECT_EQ(block->doc(2), 300u);
  EXPECT_EQ(block->tf(1), 3u);
  EXPECT_EQ(block->doc_length(2), 90u);
  EXPECT_THAT(*block->Positions(2), ElementsAre(88, 89));
  EXPECT_THAT(*block->Positions(1), ElementsAre(0, 7, 9));  // Going back works.
  EXPECT_EQ(block->next_words(0), 0x01);
  EXPECT_EQ(block->next_words(1), 0x82);
  EXPECT_EQ(block->next_words(2), 0x00);
}

// Next-word masks are read in place from an opened block, before any doc
// id is decoded, and survive a moved Decode()d block.
TEST(PostingBlockTest, NextWordsReadWithoutDecoding) {
  const std::string value = ThreePostings();
  PostingBlock opened;
  ASSERT_THAT(opened.Open(100, value), IsOk());
  EXPECT_EQ(opened.next_words(1), 0x82);
  absl::StatusOr<PostingBlock> decoded = PostingBlock::Decode(100, value);
  ASSERT_THAT(decoded, IsOk());
  const PostingBlock moved = *std::move(decoded);
  EXPECT_EQ(moved.next_words(1), 0x82);
  EXPECT_EQ(moved.doc(1), 105u);
}

TEST(PostingBlockTest, HeaderBoundsTheBlock) {
  absl::StatusOr<PostingBlockHeader> header =
      DecodePostingBlockHeader(100, ThreePostings());
  ASSERT_THAT(header, IsOk());

  EXPECT_EQ(header->count, 3u);
  EXPECT_EQ(header->last_doc, 300u);
  EXPECT_EQ(header->max_tf, 3u);
  EXPECT_EQ(header->min_doc_length, 12u);
}

// A term frequency of 0, or one past 2^31 (more positions than any paper
// holds), is malformed: no posting has it.
TEST(PostingBlockTest, ImpossibleTermFrequencyIsDataLoss) {
  for (const uint32_t tf : {0u, (1u << 31) + 1, UINT32_MAX}) {
    PostingBlockBuilder builder;
    builder.Add(100, 40, {3}, kAnyNextWord);
    builder.AddEncoded(105, 12, tf, "", kAnyNextWord);
    EXPECT_THAT(PostingBlock::Decode(100, builder.Finish()),
                StatusIs(absl::StatusCode::kDataLoss,
                         ::testing::HasSubstr("term frequencies")))
        << tf;
  }
}

TEST(PostingBlockTest, TruncatedBlockIsDataLoss) {
  const std::string value = ThreePostings();
  for (size_t cut : {size_t{0}, size_t{3}, value.size() / 2}) {
    std::string truncated = value.substr(0, cut);
    absl::StatusOr<PostingBlock> block = PostingBlock::Decode(100, truncated);
    if (block.ok()) {
      // Only the positions section was cut: asking for them must fail.
      EXPECT_THAT(block->Positions(2), StatusIs(absl::StatusCode::kDataLoss))
          << cut;
    } else {
      EXPECT_THAT(block, StatusIs(absl::StatusCode::kDataLoss)) << cut;
    }
  }
}

}  // namespace
}  // namespace paperdb::index
