// SPDX-License-Identifier: GPL-2.0
#include <nlohmann/json.hpp>

#include "mapping_render.hpp"
#include "record_messages.hpp"
#include "test_support.hpp"

namespace edgedma::test {
namespace render_mapping_test {

using cli::group_mappings;
using cli::MappingGroup;

std::vector<std::uint32_t> indices(const MappingGroup &group)
{
	std::vector<std::uint32_t> found;
	for (const auto &segment : group.segments)
		found.push_back(segment.sg_index.value_or(UINT32_MAX));
	return found;
}

TEST(GroupMappings, KeepsSingleMappingsAlone)
{
	auto groups = group_mappings({sample_mapping(), sample_mapping()});
	ASSERT_EQ(groups.size(), 2u);
	EXPECT_FALSE(groups[0].scatter_gather());
	EXPECT_TRUE(groups[0].complete());
}

TEST(GroupMappings, JoinsTheSegmentsOfOneSgMappingInIndexOrder)
{
	// As the dump sends them: in hash order.
	auto groups = group_mappings({sample_segment(2, 3, 102, 0x3000),
				      sample_segment(0, 3, 100, 0x1000),
				      sample_segment(1, 3, 101, 0x2000)});
	ASSERT_EQ(groups.size(), 1u);
	EXPECT_EQ(indices(groups[0]), (std::vector<std::uint32_t>{0, 1, 2}));
	EXPECT_TRUE(groups[0].complete());
	EXPECT_EQ(groups[0].total_size(), 3 * 2048u);
}

TEST(GroupMappings, SeparatesInterleavedSgMappingsOfOneCaller)
{
	// Two CPUs mapping lists of two through the same call site at once.
	auto groups = group_mappings({sample_segment(0, 2, 100, 0xa000),
				      sample_segment(0, 2, 101, 0xb000),
				      sample_segment(1, 2, 102, 0xa800),
				      sample_segment(1, 2, 103, 0xb800)});
	ASSERT_EQ(groups.size(), 2u);
	EXPECT_EQ(groups[0].first().dma_addr, 0xa000u);
	EXPECT_EQ(groups[0].segments[1].dma_addr, 0xa800u);
	EXPECT_EQ(groups[1].first().dma_addr, 0xb000u);
	EXPECT_EQ(groups[1].segments[1].dma_addr, 0xb800u);
}

TEST(GroupMappings, SegmentsOfDifferentCallersStayApart)
{
	Mapping other = sample_segment(1, 2, 101, 0x2000);
	other.caller = 0xffffffffc0a0ffff;
	auto groups = group_mappings({sample_segment(0, 2, 100, 0x1000), other});
	ASSERT_EQ(groups.size(), 2u);
	EXPECT_FALSE(groups[0].complete());
	EXPECT_FALSE(groups[1].complete());
}

TEST(GroupMappings, AMissingSegmentLeavesAnIncompleteGroup)
{
	// Segment 1 was not tracked (the pool ran out).
	auto groups = group_mappings({sample_segment(0, 3, 100, 0x1000),
				      sample_segment(2, 3, 102, 0x3000)});
	ASSERT_EQ(groups.size(), 2u);
	EXPECT_EQ(indices(groups[0]), std::vector<std::uint32_t>{0});
	EXPECT_FALSE(groups[0].complete());
	EXPECT_EQ(indices(groups[1]), std::vector<std::uint32_t>{2});
}

TEST(GroupMappings, SortsByDeviceThenTime)
{
	Mapping late = sample_mapping();
	late.time_ns = 9;
	Mapping early = sample_mapping();
	early.time_ns = 1;
	Mapping other_device = sample_mapping();
	other_device.device = "0000:00:03.0";
	other_device.time_ns = 50;
	auto groups = group_mappings({late, early, other_device});
	ASSERT_EQ(groups.size(), 3u);
	EXPECT_EQ(groups[0].first().device, "0000:00:03.0");
	EXPECT_EQ(groups[1].first().time_ns, 1u);
	EXPECT_EQ(groups[2].first().time_ns, 9u);
}

TEST(MappingJson, ParsesBackWithSegments)
{
	auto groups = group_mappings({sample_segment(1, 2, 101, 0x2000),
				      sample_segment(0, 2, 100, 0x1000)});
	ASSERT_EQ(groups.size(), 1u);
	auto parsed = nlohmann::json::parse(cli::mapping_json(groups[0], Symbolizer()).dump());
	EXPECT_EQ(parsed["call"], "dma_map_sg");
	EXPECT_EQ(parsed["dir"], "from-device");
	EXPECT_EQ(parsed["dma_addr"], "0x1000");
	EXPECT_EQ(parsed["size"], 4096);
	EXPECT_EQ(parsed["sg_count"], 2);
	EXPECT_EQ(parsed["complete"], true);
	ASSERT_EQ(parsed["segments"].size(), 2u);
	EXPECT_EQ(parsed["segments"][1]["index"], 1);
	EXPECT_EQ(parsed["segments"][1]["dma_addr"], "0x2000");
	EXPECT_TRUE(parsed["segments"][1]["cpu_virt"].is_null());
	EXPECT_EQ(parsed["caller"], "0xffffffffc0a01234");
}

TEST(MappingJson, SingleMappingHasNoSegments)
{
	auto groups = group_mappings({sample_mapping()});
	auto parsed = nlohmann::json::parse(cli::mapping_json(groups[0], Symbolizer()).dump());
	EXPECT_EQ(parsed["sg_count"], 0);
	EXPECT_TRUE(parsed["segments"].empty());
	EXPECT_EQ(parsed["cpu_virt"], "0xffff888012345000");
	EXPECT_EQ(parsed["attrs"], "0x20");
}

TEST(MappingText, ShowsDevicesMappingsAndSegments)
{
	auto groups = group_mappings({sample_mapping(), sample_segment(1, 2, 101, 0x2000),
				      sample_segment(0, 2, 100, 0x1000)});
	EXPECT_EQ(cli::mappings_text(groups, Symbolizer()),
		  "0000:00:04.0 (edgedma_test_edu)\n"
		  "  dma_map_sg from-device 2 of 2 segments, 4096 bytes attrs 0x20 by "
		  "0xffffffffc0a01234\n"
		  "      [0] 2048 bytes at 0x1000 phys 0x123456000\n"
		  "      [1] 2048 bytes at 0x2000 phys 0x123456000\n"
		  "  dma_map_page from-device 4096 bytes at 0xfffff000 phys 0x123456000 attrs "
		  "0x20 by 0xffffffffc0a01234\n");
}

} // namespace render_mapping_test
} // namespace edgedma::test
