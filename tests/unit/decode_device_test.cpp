// SPDX-License-Identifier: GPL-2.0
#include <array>

#include <linux/edgedma.h>

#include "record_messages.hpp"
#include "test_support.hpp"

namespace edgedma::test {
namespace decode_device_test {

using detail::decode_device;

constexpr std::string_view context = "DEVICES_GET reply";

std::string decode_error(detail::AttributeStream attributes)
{
	return error_message_of([&] { decode_device(attributes, context); }, context);
}

#define NAMED(type) EDGEDMA_NAMED_ATTRIBUTE(type)
constexpr std::array required_attributes{
	NAMED(EDGEDMA_A_DEVICE_NAME),     NAMED(EDGEDMA_A_DEVICE_DRIVER),
	NAMED(EDGEDMA_A_DEVICE_CALLS),    NAMED(EDGEDMA_A_DEVICE_MAPPINGS_LIVE),
	NAMED(EDGEDMA_A_DEVICE_FINDINGS), NAMED(EDGEDMA_A_DEVICE_COMPLETE),
	NAMED(EDGEDMA_A_DEVICE_SYNC_KEPT),
};
#undef NAMED

TEST(DecodeDevice, RoundTripsEveryAttribute)
{
	Device device = sample_device();
	Device decoded = decode_device(device_message(device).attributes(), context);
	EXPECT_EQ(decoded, device);
	EXPECT_EQ(decoded.calls, 0x1'0000'0007u);
}

TEST(DecodeDevice, ReadsAnIncompleteUnboundDevice)
{
	Device device = sample_device();
	device.driver.clear(); // unbound: sent as ""
	device.complete = false;
	device.mappings_live = 0;
	device.sync_kept = false;
	Device decoded = decode_device(device_message(device).attributes(), context);
	EXPECT_EQ(decoded, device);
	EXPECT_FALSE(decoded.complete);
	EXPECT_EQ(decoded.driver, "");
}

TEST(DecodeDevice, TakesAnyNonZeroCompleteAsYes)
{
	Device decoded = decode_device(device_message(sample_device(), std::nullopt, 2).attributes(),
				       context);
	EXPECT_TRUE(decoded.complete);
	decoded = decode_device(device_message(sample_device(), std::nullopt, 0).attributes(),
				context);
	EXPECT_FALSE(decoded.complete);
}

TEST(DecodeDevice, SkipsAttributesItDoesNotKnow)
{
	Device device = sample_device();
	auto message = device_message(device);
	message.put_u64(EDGEDMA_A_DEVICE_MAX + 1, 5).put_string(EDGEDMA_A_DEVICE_MAX + 2, "new");
	EXPECT_EQ(decode_device(message.attributes(), context), device);
}

TEST(DecodeDevice, NamesEachMissingRequiredAttribute)
{
	for (const auto &attribute : required_attributes) {
		SCOPED_TRACE(attribute.name);
		auto message = device_message(sample_device(), attribute.type);
		EXPECT_EQ(decode_error(message.attributes()),
			  std::string("missing ") + attribute.name);
	}
}

TEST(DecodeDevice, RejectsCountersOfTheWrongSize)
{
	auto message = device_message(sample_device(), EDGEDMA_A_DEVICE_CALLS);
	message.put_u32(EDGEDMA_A_DEVICE_CALLS, 7);
	EXPECT_EQ(decode_error(message.attributes()),
		  "EDGEDMA_A_DEVICE_CALLS has 4 bytes, expected 8 (u64)");

	message = device_message(sample_device(), EDGEDMA_A_DEVICE_COMPLETE);
	message.put_u64(EDGEDMA_A_DEVICE_COMPLETE, 1);
	EXPECT_EQ(decode_error(message.attributes()),
		  "EDGEDMA_A_DEVICE_COMPLETE has 8 bytes, expected 4 (u32)");
}

TEST(DecodeDevice, RejectsANameWithoutNul)
{
	auto message = device_message(sample_device(), EDGEDMA_A_DEVICE_NAME);
	message.put_text_without_nul(EDGEDMA_A_DEVICE_NAME, "0000:00:04.0");
	EXPECT_EQ(decode_error(message.attributes()),
		  "EDGEDMA_A_DEVICE_NAME is not a NUL-terminated string");
}

TEST(DecodeDevice, RejectsARepeatedCounter)
{
	auto message = device_message(sample_device());
	message.put_u64(EDGEDMA_A_DEVICE_FINDINGS, 1);
	EXPECT_EQ(decode_error(message.attributes()),
		  "EDGEDMA_A_DEVICE_FINDINGS appears more than once");
}

} // namespace decode_device_test
} // namespace edgedma::test
