// The log's building blocks: CRC-32C, records, the block format.

#include <string>
#include <vector>

#include "durable/crc32c.h"
#include "durable/log_format.h"
#include "durable/log_reader.h"
#include "durable/log_writer.h"
#include "durable/record.h"
#include "gtest/gtest.h"
#include "kvlab/testing/fault_env.h"

namespace kvlab::durable {
namespace {

TEST(Crc32cTest, StandardCheckValue) {
  EXPECT_EQ(Crc32c("123456789"), 0xE3069283u);
  EXPECT_EQ(Crc32c(""), 0u);
  EXPECT_EQ(Crc32cExtend(Crc32c("1234"), "56789"), Crc32c("123456789"));
}

TEST(RecordTest, RoundTripsEveryOp) {
  std::string payload;
  const std::string long_value(300, 'v');  // outlives the views below
  Record in;
  in.op = Op::kPut;
  in.seq = 0x0102030405060708;
  in.key = std::string_view("k\0y", 3);
  in.value = long_value;
  EncodeRecord(in, &payload);
  Record out;
  ASSERT_TRUE(DecodeRecord(payload, &out));
  EXPECT_EQ(out.seq, in.seq);
  EXPECT_EQ(out.key, in.key);
  EXPECT_EQ(out.value, in.value);
  in.op = Op::kCheckpointBegin;
  in.file = 77;
  in.offset = 1234567;
  EncodeRecord(in, &payload);
  ASSERT_TRUE(DecodeRecord(payload, &out));
  EXPECT_EQ(out.file, 77u);
  EXPECT_EQ(out.offset, 1234567u);
  // A record with a byte too many or too few is not a record.
  EXPECT_FALSE(DecodeRecord(payload + "x", &out));
  EXPECT_FALSE(DecodeRecord(payload.substr(0, payload.size() - 1), &out));
  EXPECT_FALSE(DecodeRecord("", &out));
}

class LogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(env_.CreateDir("d").ok());
    file_ = *env_.Open("d/log", true);
  }

  // Writes payloads of the given sizes, each filled with a letter.
  std::vector<std::string> WriteRecords(const std::vector<size_t>& sizes) {
    LogWriter writer(file_.get(), 7, 0);
    std::vector<std::string> payloads;
    for (size_t i = 0; i < sizes.size(); ++i) {
      payloads.push_back(
          std::string(sizes[i], static_cast<char>('a' + i % 26)));
      writer.Add(payloads.back());
      offsets_.push_back(writer.end_offset());  // the end of record i
    }
    EXPECT_TRUE(writer.WriteAndSync().ok());
    return payloads;
  }

  testing::FaultEnv env_;
  std::unique_ptr<File> file_;
  std::vector<uint64_t> offsets_;
};

TEST_F(LogTest, RecordsSpanBlocksAndReadBack) {
  // Sizes chosen to need fragments, a trailer of fewer than kHeaderSize
  // bytes, and an empty payload.
  const std::vector<size_t> sizes = {
      10,   kBlockSize - 2 * kHeaderSize - 10 - 3,
      0,    3 * kBlockSize + 5,
      1000, kBlockSize - kHeaderSize};
  const std::vector<std::string> payloads = WriteRecords(sizes);
  LogReader reader(file_.get(), 7, 0);
  std::string payload;
  for (size_t i = 0; i < payloads.size(); ++i) {
    ASSERT_EQ(reader.Read(&payload), LogReader::Result::kRecord) << i;
    EXPECT_EQ(payload, payloads[i]) << i;
  }
  EXPECT_EQ(reader.Read(&payload), LogReader::Result::kEnd);
  EXPECT_EQ(reader.record_offset(), offsets_.back());
  // FramedSize predicts what the writer used.
  EXPECT_EQ(FramedSize(0, sizes[0]), offsets_[0]);
}

TEST_F(LogTest, RecordsOfAnotherFileNumberAreStale) {
  WriteRecords({10, 20});
  LogReader reader(file_.get(), 8, 0);
  std::string payload;
  EXPECT_EQ(reader.Read(&payload), LogReader::Result::kEnd);
  EXPECT_NE(reader.reason().find("stale"), std::string::npos);
}

TEST_F(LogTest, AFlippedByteStopsReadingAtItsRecord) {
  WriteRecords({100, 100, 2 * kBlockSize, 100});
  // Damage each record in turn; the reader keeps exactly those before it.
  for (size_t damaged = 0; damaged < 4; ++damaged) {
    const uint64_t start = damaged == 0 ? 0 : offsets_[damaged - 1];
    const uint64_t at = start + (offsets_[damaged] - start) / 2;
    env_.FlipByte("d/log", at);
    LogReader reader(file_.get(), 7, 0);
    std::string payload;
    for (size_t i = 0; i < damaged; ++i) {
      ASSERT_EQ(reader.Read(&payload), LogReader::Result::kRecord);
    }
    EXPECT_EQ(reader.Read(&payload), LogReader::Result::kCorrupt) << damaged;
    EXPECT_EQ(reader.record_offset(), start) << damaged;
    EXPECT_FALSE(reader.reason().empty());
    env_.FlipByte("d/log", at);  // repaired for the next round
  }
}

TEST_F(LogTest, ATornFragmentedRecordIsCorrupt) {
  WriteRecords({50, 2 * kBlockSize});
  // Zero the record's last fragment, as if the write stopped at a block.
  std::string zeros(offsets_[1] - 2 * kBlockSize, '\0');
  ASSERT_TRUE(file_->Write(2 * kBlockSize, zeros).ok());
  LogReader reader(file_.get(), 7, 0);
  std::string payload;
  ASSERT_EQ(reader.Read(&payload), LogReader::Result::kRecord);
  EXPECT_EQ(reader.Read(&payload), LogReader::Result::kCorrupt);
  EXPECT_EQ(reader.record_offset(), offsets_[0]);
  EXPECT_NE(reader.reason().find("torn"), std::string::npos);
}

}  // namespace
}  // namespace kvlab::durable
