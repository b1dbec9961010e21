#include "paperdb/storage/record_fields.h"

#include <string>

#include "gtest/gtest.h"

namespace paperdb::storage {
namespace {

v1::PaperRecord FullRecord() {
  v1::PaperRecord record;
  paperdb::v1::Paper* paper = record.mutable_paper();
  paper->set_name("ResNet-18 pruning");
  paper->set_id("ICLR2024-0001");
  paper->set_venue("ICLR");
  paper->set_year(2024);
  paper->set_abstract("We prune ResNet-18 on CIFAR-10.");
  paper->add_urls("https://github.com/x/y");
  paperdb::v1::Mention* method = paper->add_methods();
  method->set_name("ResNet-18");
  method->mutable_span()->set_start_byte(9);
  method->mutable_span()->set_end_byte(18);
  paper->add_datasets()->set_name("CIFAR-10");
  paper->set_has_code(true);
  record.set_doc_length_terms(7);
  record.set_token_spans(std::string("\x03\x02\x05\x09", 4));
  return record;
}

TEST(ParseRecordFieldsTest, AllParsesTheWholeRecord) {
  const v1::PaperRecord full = FullRecord();
  v1::PaperRecord out;
  ASSERT_TRUE(ParseRecordFields(full.SerializeAsString(), {}, &out).ok());
  EXPECT_EQ(out.SerializeAsString(), full.SerializeAsString());
}

TEST(ParseRecordFieldsTest, OnlyTheNamedPaperFieldsAreParsed) {
  const v1::PaperRecord full = FullRecord();
  v1::PaperRecord out;
  out.set_token_spans("left over from another record");
  const RecordFields fields{.all = false, .paper_fields = {1, 4, 3}};
  ASSERT_TRUE(ParseRecordFields(full.SerializeAsString(), fields, &out).ok());
  EXPECT_EQ(out.paper().name(), "ResNet-18 pruning");
  EXPECT_EQ(out.paper().venue(), "ICLR");
  EXPECT_EQ(out.paper().year(), 2024);
  EXPECT_EQ(out.paper().id(), "");
  EXPECT_EQ(out.paper().abstract(), "");
  EXPECT_EQ(out.paper().methods_size(), 0);
  EXPECT_EQ(out.paper().urls_size(), 0);
  EXPECT_FALSE(out.paper().has_code());
  EXPECT_EQ(out.doc_length_terms(), 7u);
  EXPECT_EQ(out.token_spans(), "");
}

TEST(ParseRecordFieldsTest, TokenSpansAndRepeatedMessagesWhenAsked) {
  const v1::PaperRecord full = FullRecord();
  v1::PaperRecord out;
  const RecordFields fields{
      .all = false, .paper_fields = {5, 12}, .token_spans = true};
  ASSERT_TRUE(ParseRecordFields(full.SerializeAsString(), fields, &out).ok());
  EXPECT_EQ(out.paper().abstract(), "We prune ResNet-18 on CIFAR-10.");
  ASSERT_EQ(out.paper().methods_size(), 1);
  EXPECT_EQ(out.paper().methods(0).name(), "ResNet-18");
  EXPECT_EQ(out.paper().methods(0).span().end_byte(), 18u);
  EXPECT_EQ(out.paper().datasets_size(), 0);
  EXPECT_EQ(out.token_spans(), std::string("\x03\x02\x05\x09", 4));
  EXPECT_EQ(out.paper().name(), "");
}

TEST(ParseRecordFieldsTest, APaperWrittenInTwoPiecesMerges) {
  // Protobuf merges a message field that occurs twice; so does the reader.
  v1::PaperRecord first;
  first.mutable_paper()->set_name("first name");
  first.mutable_paper()->set_year(2023);
  v1::PaperRecord second;
  second.mutable_paper()->set_year(2024);
  second.mutable_paper()->set_venue("ICLR");
  const std::string bytes =
      first.SerializeAsString() + second.SerializeAsString();
  v1::PaperRecord out;
  const RecordFields fields{.all = false, .paper_fields = {1, 4}};
  ASSERT_TRUE(ParseRecordFields(bytes, fields, &out).ok());
  EXPECT_EQ(out.paper().name(), "first name");
  EXPECT_EQ(out.paper().year(), 2024);
  EXPECT_EQ(out.paper().venue(), "");
}

TEST(ParseRecordFieldsTest, MalformedBytesAreDataLoss) {
  const std::string full = FullRecord().SerializeAsString();
  const RecordFields slim{.all = false, .paper_fields = {1}};
  v1::PaperRecord out;
  // Cut inside the paper: its length runs past the record.
  EXPECT_EQ(ParseRecordFields(full.substr(0, 20), slim, &out).code(),
            absl::StatusCode::kDataLoss);
  EXPECT_EQ(ParseRecordFields(full.substr(0, 20), {}, &out).code(),
            absl::StatusCode::kDataLoss);
  // A field number 0 tag.
  EXPECT_EQ(ParseRecordFields(std::string("\x00\x01", 2), slim, &out).code(),
            absl::StatusCode::kDataLoss);
  // A wanted string field that is not UTF-8.
  v1::PaperRecord bad;
  bad.mutable_paper()->set_venue("ok");
  std::string bytes = bad.SerializeAsString();
  bytes.back() = '\xff';
  const RecordFields venue{.all = false, .paper_fields = {3}};
  EXPECT_EQ(ParseRecordFields(bytes, venue, &out).code(),
            absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace paperdb::storage
