// SPDX-License-Identifier: GPL-2.0
#include <linux/edgedma.h>

#include "test_support.hpp"

namespace edgedma::test {
namespace decode_crash_test {

using detail::decode_crash_record_entry;
using detail::decode_crash_region;

constexpr std::string_view region_context = "CRASH_REGION_GET reply";
constexpr std::string_view record_context = "CRASH_RECORDS_GET reply";

TEST(DecodeCrash, ReadsAValidRegionAsTheKernelPadsIt)
{
	GenlMessage message(EDGEDMA_CMD_CRASH_REGION_GET);
	message.put_u32(EDGEDMA_A_CRASH_REGION_STATE, EDGEDMA_CRASH_REGION_VALID)
		.put_u64_padded(EDGEDMA_A_CRASH_REGION_PHYS, 0x30000000, EDGEDMA_A_CRASH_PAD)
		.put_u64_padded(EDGEDMA_A_CRASH_REGION_SIZE, 1 << 20, EDGEDMA_A_CRASH_PAD)
		.put_u64_padded(EDGEDMA_A_CRASH_BOOT_ID, 0x9f3c00000000abcdULL, EDGEDMA_A_CRASH_PAD)
		.put_u64_padded(EDGEDMA_A_CRASH_WRITTEN_NS, 1'764'950'000'000'000'000ULL,
				EDGEDMA_A_CRASH_PAD)
		.put_u32(EDGEDMA_A_CRASH_RECORDS, 3)
		.put_u32(EDGEDMA_A_CRASH_INTACT, 2)
		.put_u32(EDGEDMA_A_CRASH_CORRUPT, 1)
		.put_string(EDGEDMA_A_CRASH_REASON, "record 0 (snapshot 3): CRC mismatch");
	const CrashRegion region = decode_crash_region(message.attributes(), region_context);
	EXPECT_EQ(region.state, EDGEDMA_CRASH_REGION_VALID);
	EXPECT_EQ(region.phys, 0x30000000u);
	EXPECT_EQ(region.size, 1u << 20);
	EXPECT_EQ(region.boot_id, 0x9f3c00000000abcdULL);
	EXPECT_EQ(region.written_ns, 1'764'950'000'000'000'000ULL);
	EXPECT_EQ(region.records, 3u);
	EXPECT_EQ(region.intact, 2u);
	EXPECT_EQ(region.corrupt, 1u);
	EXPECT_EQ(region.reason, "record 0 (snapshot 3): CRC mismatch");
}

TEST(DecodeCrash, ReadsAModuleWithoutARegion)
{
	GenlMessage message(EDGEDMA_CMD_CRASH_REGION_GET);
	message.put_u32(EDGEDMA_A_CRASH_REGION_STATE, EDGEDMA_CRASH_REGION_OFF);
	CrashRegion want;
	want.state = EDGEDMA_CRASH_REGION_OFF;
	EXPECT_EQ(decode_crash_region(message.attributes(), region_context), want);
}

TEST(DecodeCrash, RegionNeedsItsState)
{
	GenlMessage message(EDGEDMA_CMD_CRASH_REGION_GET);
	message.put_u64(EDGEDMA_A_CRASH_REGION_SIZE, 65536);
	EXPECT_EQ(error_message_of([&] { decode_crash_region(message.attributes(), region_context); },
				   region_context),
		  "missing EDGEDMA_A_CRASH_REGION_STATE");
}

TEST(DecodeCrash, ReadsACorruptRecordWithItsReason)
{
	GenlMessage message(EDGEDMA_CMD_CRASH_RECORDS_GET);
	message.put_u32(EDGEDMA_A_CRASH_INDEX, 1)
		.put_u64_padded(EDGEDMA_A_CRASH_SEQ, 7, EDGEDMA_A_CRASH_PAD)
		.put_u32(EDGEDMA_A_CRASH_RECORD_STATE, EDGEDMA_CRASH_RECORD_CORRUPT)
		.put_u32(EDGEDMA_A_CRASH_LENGTH, 1312)
		.put_string(EDGEDMA_A_CRASH_REASON, "record 1 (snapshot 7): CRC mismatch")
		.put_u32(EDGEDMA_A_CRASH_MAX + 1, 5); // a newer module's: skipped
	const CrashRecordEntry entry =
		decode_crash_record_entry(message.attributes(), record_context);
	EXPECT_EQ(entry, (CrashRecordEntry{1, 7, EDGEDMA_CRASH_RECORD_CORRUPT, 1312,
					   "record 1 (snapshot 7): CRC mismatch"}));
}

TEST(DecodeCrash, NamesEachMissingRecordAttribute)
{
	const NamedAttribute required[] = {
		EDGEDMA_NAMED_ATTRIBUTE(EDGEDMA_A_CRASH_INDEX),
		EDGEDMA_NAMED_ATTRIBUTE(EDGEDMA_A_CRASH_SEQ),
		EDGEDMA_NAMED_ATTRIBUTE(EDGEDMA_A_CRASH_RECORD_STATE),
		EDGEDMA_NAMED_ATTRIBUTE(EDGEDMA_A_CRASH_LENGTH),
	};
	for (const NamedAttribute &missing : required) {
		SCOPED_TRACE(missing.name);
		GenlMessage message(EDGEDMA_CMD_CRASH_RECORDS_GET);
		if (missing.type != EDGEDMA_A_CRASH_INDEX)
			message.put_u32(EDGEDMA_A_CRASH_INDEX, 0);
		if (missing.type != EDGEDMA_A_CRASH_SEQ)
			message.put_u64(EDGEDMA_A_CRASH_SEQ, 2);
		if (missing.type != EDGEDMA_A_CRASH_RECORD_STATE)
			message.put_u32(EDGEDMA_A_CRASH_RECORD_STATE, EDGEDMA_CRASH_RECORD_INTACT);
		if (missing.type != EDGEDMA_A_CRASH_LENGTH)
			message.put_u32(EDGEDMA_A_CRASH_LENGTH, 100);
		EXPECT_EQ(error_message_of(
				  [&] { decode_crash_record_entry(message.attributes(), record_context); },
				  record_context),
			  std::string("missing ") + missing.name);
	}
}

TEST(DecodeCrash, RejectsALengthOfTheWrongSize)
{
	GenlMessage message(EDGEDMA_CMD_CRASH_RECORDS_GET);
	message.put_u32(EDGEDMA_A_CRASH_INDEX, 0)
		.put_u64(EDGEDMA_A_CRASH_SEQ, 2)
		.put_u32(EDGEDMA_A_CRASH_RECORD_STATE, EDGEDMA_CRASH_RECORD_INTACT)
		.put_u64(EDGEDMA_A_CRASH_LENGTH, 100);
	EXPECT_TRUE(contains(error_message_of(
				     [&] {
					     decode_crash_record_entry(message.attributes(),
								       record_context);
				     },
				     record_context),
			     "EDGEDMA_A_CRASH_LENGTH"));
}

} // namespace decode_crash_test
} // namespace edgedma::test
