// SPDX-License-Identifier: GPL-2.0
#include <array>

#include <linux/edgedma.h>

#include "test_support.hpp"

namespace edgedma::test {
namespace {

using detail::decode_stats;

std::string decode_error(detail::AttributeStream attributes)
{
	try {
		decode_stats(attributes);
		ADD_FAILURE() << "decoded without error";
	} catch (const Error &error) {
		EXPECT_EQ(error.context(), "GET_STATS reply");
		return error.message();
	}
	return {};
}

TEST(DecodeStats, RoundTripsCountersBetweenPadding)
{
	// nla_put_u64_64bit() in the kernel may put an empty PAD attribute
	// before a u64 to align it.
	const std::array<std::byte, 0> no_payload{};
	GenlMessage reply(EDGEDMA_CMD_GET_STATS);
	reply.put_bytes(EDGEDMA_A_STATS_PAD, no_payload)
		.put_u64(EDGEDMA_A_STATS_REQUESTS, 0x1'0000'0002)
		.put_bytes(EDGEDMA_A_STATS_PAD, no_payload)
		.put_u64(EDGEDMA_A_STATS_REJECTED, 3);
	EXPECT_EQ(decode_stats(reply.attributes()),
		  (Stats{.requests = 0x1'0000'0002, .rejected = 3}));
}

TEST(DecodeStats, NamesMissingCounter)
{
	GenlMessage reply(EDGEDMA_CMD_GET_STATS);
	reply.put_u64(EDGEDMA_A_STATS_REQUESTS, 1);
	EXPECT_EQ(decode_error(reply.attributes()), "missing EDGEDMA_A_STATS_REJECTED");
}

TEST(DecodeStats, RejectsU64SentAsU32)
{
	GenlMessage reply(EDGEDMA_CMD_GET_STATS);
	reply.put_u32(EDGEDMA_A_STATS_REQUESTS, 1).put_u64(EDGEDMA_A_STATS_REJECTED, 0);
	EXPECT_EQ(decode_error(reply.attributes()),
		  "EDGEDMA_A_STATS_REQUESTS has 4 bytes, expected 8 (u64)");
}

} // namespace
} // namespace edgedma::test
