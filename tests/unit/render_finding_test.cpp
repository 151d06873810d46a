// SPDX-License-Identifier: GPL-2.0
#include <set>

#include <nlohmann/json.hpp>

#include <edgedma/names.hpp>
#include <edgedma/report.hpp>

#include "finding_render.hpp"
#include "record_messages.hpp"
#include "test_support.hpp"

namespace edgedma::test {
namespace render_finding_test {

using cli::finding_text;

const Symbolizer symbols = Symbolizer::parse(
	"ffffffffc0a01000 t edu_run_mode\t[edgedma_test_edu]\n"
	"ffffffffc0a01800 t edu_unmap\t[edgedma_test_edu]\n"
	"ffffffffc0a00000 t edu_map\t[edgedma_test_edu]\n");

std::set<std::string> keys_of(const nlohmann::json &object)
{
	std::set<std::string> keys;
	for (const auto &item : object.items())
		keys.insert(item.key());
	return keys;
}

TEST(FindingJson, ParsesBackWithEveryRequiredKey)
{
	Finding finding = sample_finding(42);
	auto parsed = nlohmann::json::parse(render_finding_json(finding, symbols));
	EXPECT_EQ(keys_of(parsed),
		  (std::set<std::string>{"seq", "time_ns", "kind", "call", "device", "driver",
					 "dma_addr", "size", "dir", "cpu_phys", "caller",
					 "caller_addr", "map_caller", "map_caller_addr",
					 "detail", "occurrences", "last_time_ns", "call_chain",
					 "driver_module", "culprit"}));
	EXPECT_EQ(parsed["seq"], 42);
	EXPECT_EQ(parsed["time_ns"], finding.time_ns);
	EXPECT_EQ(parsed["kind"], "addr-misaligned");
	EXPECT_EQ(parsed["call"], "dma_map_page");
	EXPECT_EQ(parsed["device"], "0000:00:04.0");
	EXPECT_EQ(parsed["driver"], "edgedma_test_edu");
	EXPECT_EQ(parsed["dma_addr"], "0xfffff001");
	EXPECT_EQ(parsed["size"], 128);
	EXPECT_EQ(parsed["dir"], "to-device");
	EXPECT_EQ(parsed["cpu_phys"], "0x123456001");
	EXPECT_EQ(parsed["caller"], "edu_run_mode+0x234/0x800 [edgedma_test_edu]");
	EXPECT_EQ(parsed["caller_addr"], "0xffffffffc0a01234");
	EXPECT_EQ(parsed["map_caller"], "edu_map+0x100/0x1000 [edgedma_test_edu]");
	EXPECT_EQ(parsed["map_caller_addr"], "0xffffffffc0a00100");
	EXPECT_EQ(parsed["detail"], finding.detail);
	// Not counted by the module (sample_finding()): null.
	EXPECT_TRUE(parsed["occurrences"].is_null());
	EXPECT_TRUE(parsed["last_time_ns"].is_null());
	// From a module that predates call chains: no chain, no module, and
	// the caller is the culprit.
	EXPECT_EQ(parsed["call_chain"], nlohmann::json::array());
	EXPECT_TRUE(parsed["driver_module"].is_null());
	EXPECT_EQ(parsed["culprit"], parsed["caller"]);
}

TEST(FindingJson, CarriesTheCallChainTheDriverModuleAndTheCulprit)
{
	Finding finding = scsi_finding(8);
	finding.call_chain_names.pop_back(); // the last frame went unnamed
	auto parsed = nlohmann::json::parse(render_finding_json(finding, symbols));
	ASSERT_EQ(parsed["call_chain"].size(), 5u);
	EXPECT_EQ(parsed["call_chain"][0],
		  nlohmann::json::parse(R"({"addr":"0xffffffffc0300040",)"
					R"("name":"scsi_dma_map+0x40/0x60 [scsi_mod]"})"));
	EXPECT_TRUE(parsed["call_chain"][1]["name"].is_null()); // "?"
	EXPECT_EQ(parsed["call_chain"][2]["addr"], "0xffffffffc0a011a4");
	EXPECT_TRUE(parsed["call_chain"][4]["name"].is_null()); // no name sent
	EXPECT_EQ(parsed["driver_module"], "megaraid_sas");
	EXPECT_EQ(parsed["caller"], "scsi_dma_map+0x40/0x60 [scsi_mod]");
	EXPECT_EQ(parsed["culprit"], "megasas_build_io_fusion+0x1a4/0x300 [megaraid_sas]");

	// A built-in driver: "".
	finding.driver_module = "";
	parsed = nlohmann::json::parse(render_finding_json(finding, symbols));
	EXPECT_EQ(parsed["driver_module"], "");
	// No caller, no name: no culprit either.
	Finding unknown = sample_finding(9);
	unknown.caller = 0;
	parsed = nlohmann::json::parse(render_finding_json(unknown, symbols));
	EXPECT_TRUE(parsed["culprit"].is_null());
}

TEST(FindingJson, CarriesTheCountOfAFoldedFinding)
{
	Finding finding = folded_finding(42, 4103, 2'100'000'000);
	auto parsed = nlohmann::json::parse(render_finding_json(finding, symbols));
	EXPECT_EQ(parsed["occurrences"], 4103);
	EXPECT_EQ(parsed["last_time_ns"], finding.time_ns + 2'100'000'000);
	EXPECT_EQ(parsed["time_ns"], finding.time_ns);
	// Counted once so far is still a count.
	parsed = nlohmann::json::parse(render_finding_json(folded_finding(43, 1, 0), symbols));
	EXPECT_EQ(parsed["occurrences"], 1);
}

TEST(FindingJson, AbsentValuesAreNull)
{
	Finding finding = sample_finding(1);
	finding.cpu_phys.reset();
	finding.map_caller.reset();
	finding.caller = 0; // the hook could not tell
	auto parsed = nlohmann::json::parse(render_finding_json(finding, symbols));
	EXPECT_TRUE(parsed["cpu_phys"].is_null());
	EXPECT_TRUE(parsed["map_caller"].is_null());
	EXPECT_TRUE(parsed["map_caller_addr"].is_null());
	EXPECT_TRUE(parsed["caller"].is_null());
	EXPECT_TRUE(parsed["caller_addr"].is_null());
}

TEST(FindingJson, CallerIsTheRawAddressWithoutSymbols)
{
	auto parsed = nlohmann::json::parse(render_finding_json(sample_finding(1), Symbolizer()));
	EXPECT_EQ(parsed["caller"], "0xffffffffc0a01234");
}

TEST(FindingJson, UnknownKindsKeepTheirNumber)
{
	Finding finding = sample_finding(1);
	finding.kind = 40;
	finding.call = 41;
	finding.dir = 7;
	auto parsed = nlohmann::json::parse(render_finding_json(finding, symbols));
	EXPECT_EQ(parsed["kind"], "kind-40");
	EXPECT_EQ(parsed["call"], "call-41");
	EXPECT_EQ(parsed["dir"], "dir-7");
}

TEST(FindingJson, EscapesTheDetailSentence)
{
	Finding finding = sample_finding(1);
	finding.detail = "quote \" backslash \\ newline \n";
	auto parsed = nlohmann::json::parse(render_finding_json(finding, symbols));
	EXPECT_EQ(parsed["detail"], finding.detail);
}

TEST(FindingText, OneLineThenTheDetailIndented)
{
	EXPECT_EQ(finding_text(sample_finding(42), symbols),
		  "#42 addr-misaligned 0000:00:04.0 (edgedma_test_edu) dma_map_page by "
		  "edu_run_mode+0x234/0x800 [edgedma_test_edu]\n"
		  "    DMA address 0xfffff001 is not aligned to the 64 bytes the device "
		  "needs\n");
}

TEST(FindingText, SaysHowOftenAndWhenLastForAFoldedFinding)
{
	EXPECT_EQ(finding_text(folded_finding(42, 4103, 2'100'000'000), symbols),
		  "#42 addr-misaligned 0000:00:04.0 (edgedma_test_edu) dma_map_page by "
		  "edu_run_mode+0x234/0x800 [edgedma_test_edu] (x4103, last 2.100 s later)\n"
		  "    DMA address 0xfffff001 is not aligned to the 64 bytes the device "
		  "needs\n");
	EXPECT_TRUE(contains(finding_text(folded_finding(7, 12, 3'500'000), symbols),
			     "[edgedma_test_edu] (x12, last 3.50 ms later)\n"));
}

TEST(FindingText, SaysNothingOfACountOfOneOrNone)
{
	const std::string plain = finding_text(sample_finding(42), symbols);
	EXPECT_EQ(finding_text(folded_finding(42, 1, 0), symbols), plain);
	EXPECT_FALSE(contains(plain, "(x"));
}

TEST(FindingText, LeavesOutALastTimeNoLaterThanTheFindings)
{
	// The module takes the two times apart: the latest may read earlier.
	Finding finding = folded_finding(5, 9, 0);
	finding.last_time_ns = finding.time_ns - 40;
	EXPECT_TRUE(contains(finding_text(finding, symbols), "[edgedma_test_edu] (x9)\n"));
	EXPECT_EQ(describe_occurrences(folded_finding(5, 9, 0)), "x9");
}

TEST(FindingText, NamesTheCulpritWhenItIsNotTheCaller)
{
	Finding finding = scsi_finding(12);
	EXPECT_EQ(finding_text(finding, symbols),
		  "#12 addr-misaligned 0000:03:00.0 (megaraid_sas) dma_map_page by "
		  "scsi_dma_map+0x40/0x60 [scsi_mod]\n"
		  "    culprit: megasas_build_io_fusion+0x1a4/0x300 [megaraid_sas] "
		  "(via scsi_dma_map+0x40/0x60 [scsi_mod])\n"
		  "    DMA address 0xfffff001 is not aligned to the 64 bytes the device "
		  "needs\n");
	// The caller to blame (no other frame is named): no culprit line.
	for (std::size_t frame = 1; frame < finding.call_chain_names.size(); frame++)
		finding.call_chain_names[frame] = "?";
	EXPECT_FALSE(contains(finding_text(finding, symbols), "culprit"));
}

TEST(RepeatsText, SaysTheSiteItsCountAndHowLongAgo)
{
	FindingRepeats repeats = sample_repeats(12, 4103, 50'000'000'000);
	EXPECT_EQ(cli::repeats_text(repeats, 50'120'000'000),
		  "finding 12 addr-misaligned on 0000:00:04.0 (edgedma_test_edu): x4103 so far, "
		  "last 120.00 ms ago\n");
	// No clock, or one behind the latest: no "ago".
	EXPECT_EQ(cli::repeats_text(repeats, std::nullopt),
		  "finding 12 addr-misaligned on 0000:00:04.0 (edgedma_test_edu): x4103 so far\n");
	EXPECT_EQ(cli::repeats_text(repeats, 1),
		  "finding 12 addr-misaligned on 0000:00:04.0 (edgedma_test_edu): x4103 so far\n");
	repeats.driver.clear();
	EXPECT_TRUE(contains(cli::repeats_text(repeats, std::nullopt), "(no driver): x4103"));
}

TEST(RepeatsJson, IsOneObjectUnderRepeats)
{
	auto parsed = nlohmann::json::parse(
		cli::repeats_json(sample_repeats(12, 4103, 50'000'000'000)).dump());
	EXPECT_EQ(parsed, nlohmann::json::parse(
				  R"({"repeats":{"seq":12,"kind":"addr-misaligned",)"
				  R"("device":"0000:00:04.0","driver":"edgedma_test_edu",)"
				  R"("occurrences":4103,"last_time_ns":50000000000}})"));
	// Never taken for a finding's or a loss's line.
	const std::string line = cli::repeats_json(sample_repeats(1, 2, 3)).dump();
	EXPECT_FALSE(line.starts_with(R"({"seq")"));
	EXPECT_FALSE(line.starts_with(R"({"lost")"));
}

TEST(FindingText, SaysWhenThereIsNoDriverOrCaller)
{
	Finding finding = sample_finding(3);
	finding.driver.clear();
	finding.caller = 0;
	std::string text = finding_text(finding, symbols);
	EXPECT_TRUE(contains(text, "0000:00:04.0 (no driver)"));
	EXPECT_TRUE(contains(text, "by unknown\n"));
}

TEST(LossJson, CarriesCountRangeAndCause)
{
	auto parsed = nlohmann::json::parse(
		cli::loss_json({17, 19, Loss::Cause::overflow}).dump());
	EXPECT_EQ(parsed, nlohmann::json::parse(R"({"lost":3,"first_seq":17,"last_seq":19,)"
						R"("cause":"overflow"})"));
}

TEST(LossText, SaysHowManyWhichAndWhy)
{
	EXPECT_EQ(describe(Loss{17, 19, Loss::Cause::gap}),
		  "lost 3 findings (seq 17..19): not received, and no longer in the "
		  "module's log");
	EXPECT_EQ(describe(Loss{5, 5, Loss::Cause::overflow}),
		  "lost 1 finding (seq 5): the socket overflowed, and the module's log no "
		  "longer holds them");
}

} // namespace render_finding_test
} // namespace edgedma::test
