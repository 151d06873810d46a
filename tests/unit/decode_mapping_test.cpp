// SPDX-License-Identifier: GPL-2.0
#include <array>

#include <linux/edgedma.h>

#include "record_messages.hpp"
#include "test_support.hpp"

namespace edgedma::test {
namespace decode_mapping_test {

using detail::decode_mapping;

constexpr std::string_view context = "MAPPINGS_GET reply";

std::string decode_error(detail::AttributeStream attributes)
{
	return error_message_of([&] { decode_mapping(attributes, context); }, context);
}

#define NAMED(type) EDGEDMA_NAMED_ATTRIBUTE(type)
constexpr std::array required_attributes{
	NAMED(EDGEDMA_A_MAPPING_DEVICE), NAMED(EDGEDMA_A_MAPPING_DRIVER),
	NAMED(EDGEDMA_A_MAPPING_CALL),   NAMED(EDGEDMA_A_MAPPING_DMA_ADDR),
	NAMED(EDGEDMA_A_MAPPING_SIZE),   NAMED(EDGEDMA_A_MAPPING_DIR),
	NAMED(EDGEDMA_A_MAPPING_ATTRS),  NAMED(EDGEDMA_A_MAPPING_CALLER),
	NAMED(EDGEDMA_A_MAPPING_TIME_NS),
};
#undef NAMED

TEST(DecodeMapping, RoundTripsASingleMapping)
{
	Mapping mapping = sample_mapping();
	EXPECT_EQ(decode_mapping(mapping_message(mapping).attributes(), context), mapping);
}

TEST(DecodeMapping, RoundTripsAScatterGatherSegment)
{
	Mapping segment = sample_segment(2, 3, 77, 0x10000);
	Mapping decoded = decode_mapping(mapping_message(segment).attributes(), context);
	EXPECT_EQ(decoded, segment);
	EXPECT_EQ(decoded.sg_index, 2u);
	EXPECT_EQ(decoded.sg_count, 3u);
	EXPECT_FALSE(decoded.cpu_virt);
}

TEST(DecodeMapping, OptionalAddressesMayBeAbsent)
{
	Mapping mapping = sample_mapping();
	mapping.cpu_phys.reset();
	mapping.cpu_virt.reset();
	EXPECT_EQ(decode_mapping(mapping_message(mapping).attributes(), context), mapping);
}

TEST(DecodeMapping, SkipsAttributesItDoesNotKnow)
{
	Mapping mapping = sample_mapping();
	auto message = mapping_message(mapping);
	message.put_u64(EDGEDMA_A_MAPPING_MAX + 1, 99).put_string(EDGEDMA_A_MAPPING_MAX + 2, "x");
	EXPECT_EQ(decode_mapping(message.attributes(), context), mapping);
}

TEST(DecodeMapping, NamesEachMissingRequiredAttribute)
{
	for (const auto &attribute : required_attributes) {
		SCOPED_TRACE(attribute.name);
		auto message = mapping_message(sample_mapping(), attribute.type);
		EXPECT_EQ(decode_error(message.attributes()),
			  std::string("missing ") + attribute.name);
	}
}

TEST(DecodeMapping, RejectsSegmentIndexWithoutCount)
{
	auto message = mapping_message(sample_segment(0, 2, 1, 0x1000),
				       EDGEDMA_A_MAPPING_SG_COUNT);
	EXPECT_EQ(decode_error(message.attributes()),
		  "EDGEDMA_A_MAPPING_SG_INDEX 0 is not below EDGEDMA_A_MAPPING_SG_COUNT 0");
}

TEST(DecodeMapping, RejectsSegmentCountWithoutIndex)
{
	auto message = mapping_message(sample_segment(0, 2, 1, 0x1000),
				       EDGEDMA_A_MAPPING_SG_INDEX);
	EXPECT_EQ(decode_error(message.attributes()),
		  "EDGEDMA_A_MAPPING_SG_COUNT without EDGEDMA_A_MAPPING_SG_INDEX");
}

TEST(DecodeMapping, RejectsSegmentIndexPastCount)
{
	auto message = mapping_message(sample_segment(3, 3, 1, 0x1000));
	EXPECT_EQ(decode_error(message.attributes()),
		  "EDGEDMA_A_MAPPING_SG_INDEX 3 is not below EDGEDMA_A_MAPPING_SG_COUNT 3");
}

} // namespace decode_mapping_test
} // namespace edgedma::test
