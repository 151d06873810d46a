// SPDX-License-Identifier: GPL-2.0
#include <linux/edgedma.h>

#include "record_messages.hpp"
#include "test_support.hpp"

namespace edgedma::test {
namespace decode_policy_test {

using detail::decode_policy;

constexpr std::string_view context = "POLICY_GET reply";

std::string decode_error(detail::AttributeStream attributes)
{
	return error_message_of([&] { decode_policy(attributes, context); }, context);
}

TEST(DecodePolicy, RoundTripsTheEffectivePolicyOfADevice)
{
	Policy policy = sample_device_policy();
	EXPECT_EQ(decode_policy(policy_message(policy).attributes(), context), policy);
}

TEST(DecodePolicy, RoundTripsADriverOverrideWithOnlyTheFieldsItSets)
{
	Policy rule;
	rule.target = {PolicyTarget::Kind::driver, "nvme"};
	rule.coherency = EDGEDMA_COHERENCY_NONCOHERENT;
	Policy decoded = decode_policy(policy_message(rule).attributes(), context);
	EXPECT_EQ(decoded, rule);
	EXPECT_FALSE(decoded.addr_align);
	EXPECT_FALSE(decoded.dma_mask);
}

TEST(DecodePolicy, SkipsAttributesItDoesNotKnow)
{
	Policy policy = sample_device_policy();
	auto message = policy_message(policy);
	message.put_u32(EDGEDMA_A_POLICY_MAX + 1, 1);
	EXPECT_EQ(decode_policy(message.attributes(), context), policy);
}

TEST(DecodePolicy, NeedsADeviceOrADriver)
{
	auto message = policy_message(sample_device_policy(), EDGEDMA_A_POLICY_DEVICE);
	EXPECT_EQ(decode_error(message.attributes()),
		  "missing EDGEDMA_A_POLICY_DEVICE or EDGEDMA_A_POLICY_DRIVER");
}

TEST(DecodePolicy, RejectsBothADeviceAndADriver)
{
	auto message = policy_message(sample_device_policy());
	message.put_string(EDGEDMA_A_POLICY_DRIVER, "nvme");
	EXPECT_EQ(decode_error(message.attributes()),
		  "both EDGEDMA_A_POLICY_DEVICE and EDGEDMA_A_POLICY_DRIVER");
}

TEST(DecodePolicy, RejectsDmaMaskSentAsU32)
{
	auto message = policy_message(sample_device_policy(), EDGEDMA_A_POLICY_DMA_MASK);
	message.put_u32(EDGEDMA_A_POLICY_DMA_MASK, 0xffffffff);
	EXPECT_EQ(decode_error(message.attributes()),
		  "EDGEDMA_A_POLICY_DMA_MASK has 4 bytes, expected 8 (u64)");
}

} // namespace decode_policy_test
} // namespace edgedma::test
