// SPDX-License-Identifier: GPL-2.0
#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <linux/edgedma.h>

#include "record_messages.hpp"
#include "test_support.hpp"

namespace edgedma::test {
namespace decode_finding_test {

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

// ---- call chain and driver module ----------------------------------------

std::vector<std::byte> chain_bytes(std::size_t count)
{
	std::vector<std::uint64_t> addresses(count, 0xffffffff81000000);
	auto bytes = std::as_bytes(std::span(addresses));
	return {bytes.begin(), bytes.end()};
}

TEST(DecodeFinding, RoundTripsTheCallChainItsNamesAndTheDriverModule)
{
	Finding finding = scsi_finding(30);
	Finding decoded = decode_finding(finding_message(finding).attributes(), context);
	EXPECT_EQ(decoded, finding);
	ASSERT_EQ(decoded.call_chain.size(), 5u);
	EXPECT_EQ(decoded.call_chain[0], decoded.caller);
	EXPECT_EQ(decoded.call_chain[2], 0xffffffffc0a011a4u);
	ASSERT_EQ(decoded.call_chain_names.size(), 5u);
	EXPECT_EQ(decoded.call_chain_names[1], "?");
	EXPECT_EQ(decoded.call_chain_names[2], "megasas_build_io_fusion+0x1a4/0x300 [megaraid_sas]");
	EXPECT_EQ(decoded.driver_module, std::optional<std::string>("megaraid_sas"));
}

TEST(DecodeFinding, TakesAFindingFromAModuleThatPredatesCallChains)
{
	Finding decoded = decode_finding(finding_message(sample_finding(31)).attributes(), context);
	EXPECT_TRUE(decoded.call_chain.empty());
	EXPECT_TRUE(decoded.call_chain_names.empty());
	EXPECT_FALSE(decoded.driver_module);
}

TEST(DecodeFinding, KeepsABuiltInDriversEmptyModuleApartFromAMissingOne)
{
	Finding finding = sample_finding(32);
	finding.driver_module = "";
	Finding decoded = decode_finding(finding_message(finding).attributes(), context);
	ASSERT_TRUE(decoded.driver_module);
	EXPECT_EQ(*decoded.driver_module, "");
}

TEST(DecodeFinding, TakesTheCallerAloneAsAChain)
{
	// arm64, a call hooked at its entry: the unwinder does not get past
	// the caller.
	Finding finding = sample_finding(33);
	finding.call_chain = {finding.caller};
	finding.call_chain_names = {"edu_run_mode+0x234/0x800 [edgedma_test_edu]"};
	finding.driver_module = "edgedma_test_edu";
	EXPECT_EQ(decode_finding(finding_message(finding).attributes(), context), finding);
}

TEST(DecodeFinding, TakesFewerNamesThanFrames)
{
	// The module cuts the names' text at a bound: the last frames may go
	// unnamed.
	Finding finding = scsi_finding(34);
	finding.call_chain_names.resize(2);
	Finding decoded = decode_finding(finding_message(finding).attributes(), context);
	EXPECT_EQ(decoded.call_chain.size(), 5u);
	EXPECT_EQ(decoded.call_chain_names,
		  (std::vector<std::string>{"scsi_dma_map+0x40/0x60 [scsi_mod]", "?"}));
}

TEST(DecodeFinding, TakesAChainWithoutNames)
{
	Finding finding = scsi_finding(35);
	finding.call_chain_names.clear();
	Finding decoded = decode_finding(finding_message(finding).attributes(), context);
	EXPECT_EQ(decoded.call_chain.size(), 5u);
	EXPECT_TRUE(decoded.call_chain_names.empty());
}

TEST(DecodeFinding, SplitsTheNamesAtEachNewlineKeepingEmptyLines)
{
	auto message = finding_message(sample_finding(36));
	message.put_bytes(EDGEDMA_A_FINDING_CALL_CHAIN, chain_bytes(4));
	message.put_string(EDGEDMA_A_FINDING_CALL_CHAIN_NAMES, "a+0x1/0x2\n\n?\n");
	EXPECT_EQ(decode_finding(message.attributes(), context).call_chain_names,
		  (std::vector<std::string>{"a+0x1/0x2", "", "?", ""}));
}

TEST(DecodeFinding, TakesTheLongestChainItAllowsAndRefusesALongerOne)
{
	auto message = finding_message(sample_finding(37));
	message.put_bytes(EDGEDMA_A_FINDING_CALL_CHAIN, chain_bytes(call_chain_frames_max));
	EXPECT_EQ(decode_finding(message.attributes(), context).call_chain.size(),
		  call_chain_frames_max);

	auto longer = finding_message(sample_finding(37));
	longer.put_bytes(EDGEDMA_A_FINDING_CALL_CHAIN, chain_bytes(call_chain_frames_max + 1));
	EXPECT_EQ(decode_error(longer.attributes()),
		  "EDGEDMA_A_FINDING_CALL_CHAIN has 65 return addresses, more than the 64 a "
		  "call chain may have");
}

TEST(DecodeFinding, RefusesAChainThatIsNotAWholeNumberOfU64)
{
	auto message = finding_message(sample_finding(38));
	auto bytes = chain_bytes(2);
	bytes.resize(13);
	message.put_bytes(EDGEDMA_A_FINDING_CALL_CHAIN, bytes);
	EXPECT_EQ(decode_error(message.attributes()),
		  "EDGEDMA_A_FINDING_CALL_CHAIN has 13 bytes, not a whole number of u64");
	auto u32 = finding_message(sample_finding(38));
	u32.put_u32(EDGEDMA_A_FINDING_CALL_CHAIN, 1);
	EXPECT_EQ(decode_error(u32.attributes()),
		  "EDGEDMA_A_FINDING_CALL_CHAIN has 4 bytes, not a whole number of u64");
}

TEST(DecodeFinding, RefusesMoreNamesThanFrames)
{
	auto message = finding_message(sample_finding(39));
	message.put_bytes(EDGEDMA_A_FINDING_CALL_CHAIN, chain_bytes(2));
	message.put_string(EDGEDMA_A_FINDING_CALL_CHAIN_NAMES, "a\nb\nc");
	EXPECT_EQ(decode_error(message.attributes()),
		  "EDGEDMA_A_FINDING_CALL_CHAIN_NAMES names 3 frames, "
		  "EDGEDMA_A_FINDING_CALL_CHAIN has 2");
	auto without_chain = finding_message(sample_finding(39));
	without_chain.put_string(EDGEDMA_A_FINDING_CALL_CHAIN_NAMES, "a");
	EXPECT_EQ(decode_error(without_chain.attributes()),
		  "EDGEDMA_A_FINDING_CALL_CHAIN_NAMES names 1 frames, "
		  "EDGEDMA_A_FINDING_CALL_CHAIN has 0");
}

TEST(DecodeFinding, RefusesNamesWithoutNulAndARepeatedChain)
{
	auto message = finding_message(sample_finding(40));
	message.put_bytes(EDGEDMA_A_FINDING_CALL_CHAIN, chain_bytes(1));
	message.put_text_without_nul(EDGEDMA_A_FINDING_CALL_CHAIN_NAMES, "a");
	EXPECT_EQ(decode_error(message.attributes()),
		  "EDGEDMA_A_FINDING_CALL_CHAIN_NAMES is not a NUL-terminated string");

	auto twice = finding_message(scsi_finding(40));
	twice.put_bytes(EDGEDMA_A_FINDING_CALL_CHAIN, chain_bytes(1));
	EXPECT_EQ(decode_error(twice.attributes()),
		  "EDGEDMA_A_FINDING_CALL_CHAIN appears more than once");

	auto module_twice = finding_message(scsi_finding(40));
	module_twice.put_string(EDGEDMA_A_FINDING_DRIVER_MODULE, "other");
	EXPECT_EQ(decode_error(module_twice.attributes()),
		  "EDGEDMA_A_FINDING_DRIVER_MODULE appears more than once");
}

TEST(DecodeFinding, EncodesWhatItDecodes)
{
	// The recordings keep findings in encode_finding()'s form.
	for (Finding finding : {scsi_finding(41), sample_finding(42), folded_finding(43, 9, 5)}) {
		SCOPED_TRACE(finding.seq);
		std::vector<std::byte> encoded;
		detail::encode_finding(finding, encoded);
		EXPECT_EQ(decode_finding(encoded, context), finding);
	}
	// One empty name is a name: it survives as one.
	Finding unnamed = sample_finding(44);
	unnamed.call_chain = {unnamed.caller};
	unnamed.call_chain_names = {""};
	std::vector<std::byte> encoded;
	detail::encode_finding(unnamed, encoded);
	EXPECT_EQ(decode_finding(encoded, context), unnamed);
}

// ---- FINDING_REPEATS -------------------------------------------------------

constexpr std::string_view repeats_context = "FINDING_REPEATS notification";

TEST(DecodeFindingRepeats, TakesEveryAttributeTheModuleSends)
{
	FindingRepeats repeats = sample_repeats(12, 4103, 99'000'000'017);
	EXPECT_EQ(detail::decode_finding_repeats(repeats_message(repeats).attributes(),
						 repeats_context),
		  repeats);
}

TEST(DecodeFindingRepeats, NamesEachMissingAttribute)
{
	using detail::decode_finding_repeats;
#define NAMED(type) EDGEDMA_NAMED_ATTRIBUTE(type)
	for (const auto &attribute :
	     {NAMED(EDGEDMA_A_FINDING_SEQ), NAMED(EDGEDMA_A_FINDING_KIND),
	      NAMED(EDGEDMA_A_FINDING_DEVICE), NAMED(EDGEDMA_A_FINDING_DRIVER),
	      NAMED(EDGEDMA_A_FINDING_OCCURRENCES), NAMED(EDGEDMA_A_FINDING_LAST_TIME_NS)}) {
#undef NAMED
		SCOPED_TRACE(attribute.name);
		auto message = repeats_message(sample_repeats(12, 5, 100), attribute.type);
		EXPECT_EQ(error_message_of(
				  [&] { decode_finding_repeats(message.attributes(), repeats_context); },
				  repeats_context),
			  std::string("missing ") + attribute.name);
	}
}

TEST(DecodeFindingRepeats, SkipsWhatItDoesNotKnowAndRoundTrips)
{
	FindingRepeats repeats = sample_repeats(7, 2, 3);
	repeats.driver.clear(); // unbound since
	auto message = repeats_message(repeats);
	message.put_string(EDGEDMA_A_FINDING_DETAIL, "not sent with repeats, but harmless")
		.put_u32(EDGEDMA_A_FINDING_MAX + 1, 1);
	FindingRepeats decoded = detail::decode_finding_repeats(message.attributes(), repeats_context);
	EXPECT_EQ(decoded, repeats);
	std::vector<std::byte> encoded;
	detail::encode_finding_repeats(decoded, encoded);
	EXPECT_EQ(detail::decode_finding_repeats(encoded, repeats_context), repeats);
}

TEST(DecodeFindingRepeats, RefusesACountSentAsU32)
{
	auto message = repeats_message(sample_repeats(7, 2, 3), EDGEDMA_A_FINDING_OCCURRENCES);
	message.put_u32(EDGEDMA_A_FINDING_OCCURRENCES, 2);
	EXPECT_EQ(error_message_of(
			  [&] {
				  detail::decode_finding_repeats(message.attributes(),
								 repeats_context);
			  },
			  repeats_context),
		  "EDGEDMA_A_FINDING_OCCURRENCES has 4 bytes, expected 8 (u64)");
}

TEST(GenlCommand, ReadsTheCommandOfAMessage)
{
	EXPECT_EQ(detail::genl_command(finding_message(sample_finding(1)).header(), "x"),
		  EDGEDMA_CMD_FINDING);
	GenlMessage dump_reply(EDGEDMA_CMD_FINDINGS_GET);
	EXPECT_EQ(detail::genl_command(dump_reply.header(), "x"), EDGEDMA_CMD_FINDINGS_GET);
}

} // namespace decode_finding_test
} // namespace edgedma::test
