// SPDX-License-Identifier: GPL-2.0
#include <array>
#include <optional>

#include <linux/edgedma.h>

#include "record_messages.hpp"
#include "test_support.hpp"

namespace edgedma::test {
namespace {

using detail::decode_finding;

constexpr std::string_view context = "FINDING notification";

std::string decode_error(detail::AttributeStream attributes)
{
	return error_message_of([&] { decode_finding(attributes, context); }, context);
}

#define NAMED(type) EDGEDMA_NAMED_ATTRIBUTE(type)
constexpr std::array required_attributes{
	NAMED(EDGEDMA_A_FINDING_SEQ),      NAMED(EDGEDMA_A_FINDING_TIME_NS),
	NAMED(EDGEDMA_A_FINDING_KIND),     NAMED(EDGEDMA_A_FINDING_CALL),
	NAMED(EDGEDMA_A_FINDING_DEVICE),   NAMED(EDGEDMA_A_FINDING_DRIVER),
	NAMED(EDGEDMA_A_FINDING_DMA_ADDR), NAMED(EDGEDMA_A_FINDING_SIZE),
	NAMED(EDGEDMA_A_FINDING_DIR),      NAMED(EDGEDMA_A_FINDING_CALLER),
	NAMED(EDGEDMA_A_FINDING_DETAIL),
};
#undef NAMED

TEST(DecodeFinding, RoundTripsEveryAttribute)
{
	Finding finding = folded_finding(7, 3, 250);
	finding.caller_name = "edu_dma_start+0x1c/0x80 [edgedma_test_edu]";
	finding.map_caller_name = "edu_dma_prepare+0x40/0x120 [edgedma_test_edu]";
	EXPECT_EQ(decode_finding(finding_message(finding).attributes(), context), finding);
}

TEST(DecodeFinding, OptionalAttributesMayBeAbsent)
{
	Finding finding = sample_finding(8);
	finding.cpu_phys.reset();
	finding.map_caller.reset();
	finding.driver.clear(); // unbound: sent as ""
	Finding decoded = decode_finding(finding_message(finding).attributes(), context);
	EXPECT_EQ(decoded, finding);
	EXPECT_FALSE(decoded.cpu_phys);
	EXPECT_FALSE(decoded.map_caller);
	EXPECT_EQ(decoded.driver, "");
}

TEST(DecodeFinding, RoundTripsTheKernelsCallerNames)
{
	Finding finding = sample_finding(11);
	finding.caller_name = "edu_dma_start+0x1c/0x80 [edgedma_test_edu]";
	finding.map_caller_name = "edu_dma_prepare+0x40/0x120 [edgedma_test_edu]";
	Finding decoded = decode_finding(finding_message(finding).attributes(), context);
	EXPECT_EQ(decoded, finding);
	EXPECT_EQ(decoded.caller_name, "edu_dma_start+0x1c/0x80 [edgedma_test_edu]");
	EXPECT_EQ(decoded.map_caller_name, "edu_dma_prepare+0x40/0x120 [edgedma_test_edu]");
}

TEST(DecodeFinding, CallerNamesAreEachOptional)
{
	// A module from before caller names sends neither (sample_finding()),
	// and a caller no symbol covers gets none: each may come alone.
	Finding only_caller = sample_finding(12);
	only_caller.caller_name = "dma_direct_map_page+0x8c/0x1a0";
	Finding decoded = decode_finding(finding_message(only_caller).attributes(), context);
	EXPECT_EQ(decoded, only_caller);
	EXPECT_FALSE(decoded.map_caller_name);

	Finding only_map_caller = sample_finding(13);
	only_map_caller.map_caller_name = "edu_dma_prepare+0x40/0x120 [edgedma_test_edu]";
	decoded = decode_finding(finding_message(only_map_caller).attributes(), context);
	EXPECT_EQ(decoded, only_map_caller);
	EXPECT_FALSE(decoded.caller_name);

	decoded = decode_finding(finding_message(sample_finding(14)).attributes(), context);
	EXPECT_FALSE(decoded.caller_name);
	EXPECT_FALSE(decoded.map_caller_name);
}

TEST(DecodeFinding, KeepsAnEmptyCallerNameApartFromAMissingOne)
{
	Finding finding = sample_finding(15);
	finding.caller_name = "";
	Finding decoded = decode_finding(finding_message(finding).attributes(), context);
	ASSERT_TRUE(decoded.caller_name);
	EXPECT_EQ(*decoded.caller_name, "");
}

TEST(DecodeFinding, RejectsCallerNameWithoutNul)
{
	auto message = finding_message(sample_finding(1));
	message.put_text_without_nul(EDGEDMA_A_FINDING_CALLER_NAME, "edu_dma_start+0x1c");
	EXPECT_EQ(decode_error(message.attributes()),
		  "EDGEDMA_A_FINDING_CALLER_NAME is not a NUL-terminated string");
}

TEST(DecodeFinding, RejectsRepeatedMapCallerName)
{
	Finding finding = sample_finding(1);
	finding.map_caller_name = "a+0x1/0x2";
	auto message = finding_message(finding);
	message.put_string(EDGEDMA_A_FINDING_MAP_CALLER_NAME, "b+0x1/0x2");
	EXPECT_EQ(decode_error(message.attributes()),
		  "EDGEDMA_A_FINDING_MAP_CALLER_NAME appears more than once");
}

TEST(DecodeFinding, RoundTripsTheCountOfAFoldedFinding)
{
	Finding finding = folded_finding(16, 4103, 2'100'000'000);
	Finding decoded = decode_finding(finding_message(finding).attributes(), context);
	EXPECT_EQ(decoded, finding);
	EXPECT_EQ(decoded.occurrences, std::optional<std::uint64_t>(4103));
	EXPECT_EQ(decoded.last_time_ns, std::optional<std::uint64_t>(finding.time_ns + 2'100'000'000));
}

TEST(DecodeFinding, TakesTheCountAboveFourBillion)
{
	Finding finding = folded_finding(17, 0x1'0000'0003, 1);
	EXPECT_EQ(decode_finding(finding_message(finding).attributes(), context).occurrences,
		  std::optional<std::uint64_t>(0x1'0000'0003));
}

TEST(DecodeFinding, TakesAFindingWithoutACount)
{
	// A module that predates folding, or a finding it did not count (no
	// caller, its site table full), sends neither.
	Finding decoded = decode_finding(finding_message(sample_finding(18)).attributes(), context);
	EXPECT_FALSE(decoded.occurrences);
	EXPECT_FALSE(decoded.last_time_ns);
}

TEST(DecodeFinding, RejectsOccurrencesWithoutLastTimeAndTheOtherWay)
{
	Finding finding = folded_finding(19, 5, 100);
	EXPECT_EQ(decode_error(finding_message(finding, EDGEDMA_A_FINDING_LAST_TIME_NS).attributes()),
		  "EDGEDMA_A_FINDING_OCCURRENCES without EDGEDMA_A_FINDING_LAST_TIME_NS");
	EXPECT_EQ(decode_error(finding_message(finding, EDGEDMA_A_FINDING_OCCURRENCES).attributes()),
		  "EDGEDMA_A_FINDING_LAST_TIME_NS without EDGEDMA_A_FINDING_OCCURRENCES");
}

TEST(DecodeFinding, RejectsOccurrencesSentAsU32)
{
	auto message = finding_message(folded_finding(20, 5, 100), EDGEDMA_A_FINDING_OCCURRENCES);
	message.put_u32(EDGEDMA_A_FINDING_OCCURRENCES, 5);
	EXPECT_EQ(decode_error(message.attributes()),
		  "EDGEDMA_A_FINDING_OCCURRENCES has 4 bytes, expected 8 (u64)");
}

TEST(DecodeFinding, RejectsRepeatedLastTime)
{
	auto message = finding_message(folded_finding(21, 5, 100));
	message.put_u64(EDGEDMA_A_FINDING_LAST_TIME_NS, 1);
	EXPECT_EQ(decode_error(message.attributes()),
		  "EDGEDMA_A_FINDING_LAST_TIME_NS appears more than once");
}

TEST(DecodeFinding, SkipsAttributesItDoesNotKnow)
{
	Finding finding = sample_finding(9);
	GenlMessage message(EDGEDMA_CMD_FINDING);
	message.put_string(EDGEDMA_A_FINDING_MAX + 1, "from a newer module")
		.put_u64(EDGEDMA_A_FINDING_MAX + 2, 1);
	put_finding(message, finding);
	message.put_u32(EDGEDMA_A_FINDING_MAX + 3, 3);
	EXPECT_EQ(decode_finding(message.attributes(), context), finding);
}

TEST(DecodeFinding, KeepsKindsAndCallsItHasNoNameFor)
{
	Finding finding = sample_finding(10);
	finding.kind = EDGEDMA_FINDING_FREE_IRQS_OFF + 1;
	finding.call = 200;
	finding.dir = 9;
	EXPECT_EQ(decode_finding(finding_message(finding).attributes(), context), finding);
}

TEST(DecodeFinding, NamesEachMissingRequiredAttribute)
{
	for (const auto &attribute : required_attributes) {
		SCOPED_TRACE(attribute.name);
		auto message = finding_message(sample_finding(1), attribute.type);
		EXPECT_EQ(decode_error(message.attributes()),
			  std::string("missing ") + attribute.name);
	}
}

TEST(DecodeFinding, RejectsU64SentAsU32)
{
	auto message = finding_message(sample_finding(1), EDGEDMA_A_FINDING_SEQ);
	message.put_u32(EDGEDMA_A_FINDING_SEQ, 1);
	EXPECT_EQ(decode_error(message.attributes()),
		  "EDGEDMA_A_FINDING_SEQ has 4 bytes, expected 8 (u64)");
}

TEST(DecodeFinding, RejectsOptionalU64OfWrongSize)
{
	auto message = finding_message(sample_finding(1), EDGEDMA_A_FINDING_CPU_PHYS);
	message.put_u32(EDGEDMA_A_FINDING_CPU_PHYS, 0x1000);
	EXPECT_EQ(decode_error(message.attributes()),
		  "EDGEDMA_A_FINDING_CPU_PHYS has 4 bytes, expected 8 (u64)");
}

TEST(DecodeFinding, RejectsRepeatedOptionalAttribute)
{
	auto message = finding_message(sample_finding(1));
	message.put_u64(EDGEDMA_A_FINDING_MAP_CALLER, 1);
	EXPECT_EQ(decode_error(message.attributes()),
		  "EDGEDMA_A_FINDING_MAP_CALLER appears more than once");
}

TEST(DecodeFinding, RejectsDetailWithoutNul)
{
	auto message = finding_message(sample_finding(1), EDGEDMA_A_FINDING_DETAIL);
	message.put_text_without_nul(EDGEDMA_A_FINDING_DETAIL, "cut");
	EXPECT_EQ(decode_error(message.attributes()),
		  "EDGEDMA_A_FINDING_DETAIL is not a NUL-terminated string");
}

TEST(GenlCommand, ReadsTheCommandOfAMessage)
{
	EXPECT_EQ(detail::genl_command(finding_message(sample_finding(1)).header(), "x"),
		  EDGEDMA_CMD_FINDING);
	GenlMessage dump_reply(EDGEDMA_CMD_FINDINGS_GET);
	EXPECT_EQ(detail::genl_command(dump_reply.header(), "x"), EDGEDMA_CMD_FINDINGS_GET);
}

} // namespace
} // namespace edgedma::test
