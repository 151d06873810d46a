// SPDX-License-Identifier: GPL-2.0
#include <linux/edgedma.h>
#include <nlohmann/json.hpp>

#include "crash_render.hpp"
#include "test_support.hpp"

namespace edgedma::test {
namespace render_crash_test {

using cli::collect_json;
using cli::collected_record_text;
using cli::CollectedRecord;
using cli::crash_region_text;

CrashRegion valid_region()
{
	CrashRegion region;
	region.state = EDGEDMA_CRASH_REGION_VALID;
	region.phys = 0x30000000;
	region.size = 1 << 20;
	region.boot_id = 0x9f3c;
	region.written_ns = 1'764'950'400'000'000'000ULL; // 2025-12-05 16:00:00 UTC
	region.records = 2;
	region.intact = 1;
	region.corrupt = 1;
	region.reason = "record 0 (snapshot 3): CRC mismatch";
	return region;
}

TEST(CrashRegionText, SaysEachState)
{
	CrashRegion region;
	region.state = EDGEDMA_CRASH_REGION_OFF;
	EXPECT_TRUE(contains(crash_region_text(region), "no crash region (load edgedma with "
							"crash_region=SIZE@PHYS"));

	region.state = EDGEDMA_CRASH_REGION_EMPTY;
	region.phys = 0x30000000;
	region.size = 1 << 20;
	EXPECT_EQ(crash_region_text(region),
		  "crash region of 1024 KiB at 0x30000000: no records from an earlier boot");

	region.state = EDGEDMA_CRASH_REGION_CORRUPT;
	region.reason = "its header is corrupt (CRC 0x1, the bytes give 0x2)";
	EXPECT_EQ(crash_region_text(region),
		  "crash region of 1024 KiB at 0x30000000: corrupt: its header is corrupt (CRC "
		  "0x1, the bytes give 0x2)");

	EXPECT_EQ(crash_region_text(valid_region()),
		  "crash region of 1024 KiB at 0x30000000: written 2025-12-05 16:00:00.000 UTC "
		  "by load 0x9f3c: 2 records, 1 intact, 1 corrupt: record 0 (snapshot 3): CRC "
		  "mismatch");

	region.state = 9; // a newer module's
	EXPECT_TRUE(contains(crash_region_text(region), "state-9"));
}

TEST(CollectedRecordText, SaysWhereAnIntactOneWentAndWhyACorruptOneDidNot)
{
	CollectedRecord corrupt;
	corrupt.entry = {0, 3, EDGEDMA_CRASH_RECORD_CORRUPT, 1312,
			 "record 0 (snapshot 3): CRC mismatch"};
	EXPECT_EQ(collected_record_text(corrupt),
		  "record 0 (snapshot 3): not collected: record 0 (snapshot 3): CRC mismatch");

	CollectedRecord intact;
	intact.entry = {1, 2, EDGEDMA_CRASH_RECORD_INTACT, 900, std::nullopt};
	Snapshot snapshot;
	snapshot.header.seq = 2;
	snapshot.header.device = "0000:00:04.0";
	snapshot.header.driver = "edgedma_test_edu";
	snapshot.header.trigger = EDGEDMA_SNAPSHOT_TRIGGER_PANIC;
	intact.snapshot = snapshot;
	intact.file = "/c/crash-0000000000009f3c-2.snap";
	EXPECT_EQ(collected_record_text(intact),
		  "snapshot 2 of 0000:00:04.0 (edgedma_test_edu), panic -> "
		  "/c/crash-0000000000009f3c-2.snap");
	Verdict verdict;
	verdict.rule = "device-after-unmap";
	verdict.severity = Severity::error;
	verdict.sentence = "the device read after the unmap";
	intact.headline = verdict;
	EXPECT_TRUE(contains(collected_record_text(intact),
			     "panic: ERROR device-after-unmap: the device read after the unmap -> "
			     "/c/crash-0000000000009f3c-2.snap"));

	const auto parsed =
		nlohmann::json::parse(collect_json(valid_region(), {corrupt, intact}, true).dump());
	EXPECT_EQ(parsed["region"]["state"], "valid");
	EXPECT_EQ(parsed["region"]["phys"], "0x30000000");
	EXPECT_EQ(parsed["region"]["boot_id"], "0x9f3c");
	EXPECT_EQ(parsed["region"]["intact"], 1);
	EXPECT_EQ(parsed["records"].size(), 2u);
	EXPECT_EQ(parsed["records"][0]["state"], "corrupt");
	EXPECT_TRUE(parsed["records"][0]["file"].is_null());
	EXPECT_TRUE(parsed["records"][0]["headline"].is_null());
	EXPECT_EQ(parsed["records"][1]["file"], "/c/crash-0000000000009f3c-2.snap");
	EXPECT_EQ(parsed["records"][1]["trigger"], "panic");
	EXPECT_EQ(parsed["records"][1]["headline"]["rule"], "device-after-unmap");
	EXPECT_EQ(parsed["cleared"], true);
}

} // namespace render_crash_test
} // namespace edgedma::test
