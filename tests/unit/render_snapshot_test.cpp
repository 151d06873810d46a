// SPDX-License-Identifier: GPL-2.0
//
// `edgedma snapshot`: the JSON and text it makes of snapshots.
#include <set>

#include <linux/edgedma.h>
#include <nlohmann/json.hpp>

#include "decode.hpp"
#include "format.hpp"
#include "snapshot_records.hpp"
#include "snapshot_render.hpp"
#include "test_support.hpp"

namespace edgedma::test {
namespace render_snapshot_test {

using cli::snapshot_announcement_text;
using cli::snapshot_header_json;
using cli::snapshot_json;
using cli::snapshot_list_text;
using cli::snapshot_summary;
using cli::snapshot_text;

// Symbols for the callers the kernel did not name (the sg segment's, the
// coherent allocation's); the named ones must not be looked up here.
const Symbolizer symbols = Symbolizer::parse(
	"ffffffffc0a01000 t edu_map\t[edgedma_test_edu]\n"
	"ffffffffc0a01280 t edu_map_sg\t[edgedma_test_edu]\n"
	"ffffffffc0a01380 t edu_other\t[edgedma_test_edu]\n"
	"ffffffffc0a01480 t edu_alloc\t[edgedma_test_edu]\n"
	"ffffffffc0a01580 t edu_end\t[edgedma_test_edu]\n");

std::set<std::string> keys_of(const nlohmann::json &object)
{
	std::set<std::string> keys;
	for (const auto &item : object.items())
		keys.insert(item.key());
	return keys;
}

nlohmann::json parsed_json(const Snapshot &snapshot)
{
	return nlohmann::json::parse(snapshot_json(snapshot, symbols).dump());
}

// ---- show --json -----------------------------------------------------------

TEST(SnapshotJson, HasTheKeysTheIssueAsksForAndTheRest)
{
	auto parsed = parsed_json(sample_snapshot());
	const std::set<std::string> keys = keys_of(parsed);
	for (const char *required : {"seq", "time_ns", "trigger", "device", "driver", "registers",
				     "descriptors", "views", "mappings", "history", "verdicts",
				     "headline"})
		EXPECT_TRUE(keys.contains(required)) << required;
	EXPECT_EQ(keys, (std::set<std::string>{
				"seq", "time_ns", "real_time_ns", "cpu", "trigger", "trigger_addr",
				"trigger_access", "trigger_reason", "trigger_symbol", "finding_seq", "finding_kind",
				"device", "driver", "record_size", "kernel_release", "hook_mode",
				"truncated", "capture_ns", "profile", "registers", "iommu", "descriptors", "views",
				"headline", "verdicts",
				"cache_line", "coherent", "line_sharers", "mappings",
				"mappings_left_out", "history", "skipped"}));
}

TEST(SnapshotJson, CarriesTheHeader)
{
	const Snapshot snapshot = sample_snapshot();
	auto parsed = parsed_json(snapshot);
	EXPECT_EQ(parsed["seq"], 7);
	EXPECT_EQ(parsed["time_ns"], sample_snapshot_time_ns);
	EXPECT_EQ(parsed["real_time_ns"], sample_snapshot_real_time_ns);
	EXPECT_EQ(parsed["cpu"], 1);
	EXPECT_EQ(parsed["trigger"], "manual");
	EXPECT_EQ(parsed["trigger_addr"], "0xfffff040");
	EXPECT_TRUE(parsed["trigger_access"].is_null());
	EXPECT_TRUE(parsed["trigger_reason"].is_null());
	EXPECT_TRUE(parsed["trigger_symbol"].is_null());
	EXPECT_TRUE(parsed["finding_seq"].is_null());
	EXPECT_EQ(parsed["device"], "0000:00:04.0");
	EXPECT_EQ(parsed["driver"], "edgedma_test_edu");
	EXPECT_EQ(parsed["record_size"], snapshot.record.size());
	EXPECT_EQ(parsed["kernel_release"], "6.1.0-28-amd64");
	EXPECT_EQ(parsed["hook_mode"], "kprobe");
	EXPECT_EQ(parsed["truncated"], true);
	EXPECT_EQ(parsed["mappings_left_out"], 2);
}

TEST(SnapshotJson, HasEmptyArraysForThePartsNotCapturedYet)
{
	auto parsed = parsed_json(sample_snapshot());
	for (const char *part : {"registers", "descriptors", "views"}) {
		EXPECT_TRUE(parsed[part].is_array()) << part;
		EXPECT_TRUE(parsed[part].empty()) << part;
	}
}

TEST(SnapshotJson, ListsTheMappingsMarkingTheOneHoldingTheAddress)
{
	auto mappings = parsed_json(sample_snapshot())["mappings"];
	ASSERT_EQ(mappings.size(), 2u);
	EXPECT_EQ(keys_of(mappings[0]),
		  (std::set<std::string>{"dma_addr", "size", "dir", "call", "attrs", "cpu_phys",
					 "cpu_virt", "caller", "caller_addr", "time_ns",
					 "sg_index", "sg_count", "holds_trigger_addr"}));
	EXPECT_EQ(mappings[0]["dma_addr"], "0xfffff000");
	EXPECT_EQ(mappings[0]["size"], 4096);
	EXPECT_EQ(mappings[0]["dir"], "to-device");
	EXPECT_EQ(mappings[0]["call"], "dma_map_page");
	EXPECT_EQ(mappings[0]["cpu_phys"], "0x123456000");
	EXPECT_TRUE(mappings[0]["cpu_virt"].is_null());
	// The kernel's name for the caller, made when it took the snapshot.
	EXPECT_EQ(mappings[0]["caller"], "edu_map+0x44/0x100 [edgedma_test_edu]");
	EXPECT_EQ(mappings[0]["caller_addr"], "0xffffffffc0a01234");
	EXPECT_TRUE(mappings[0]["sg_index"].is_null());
	EXPECT_EQ(mappings[0]["holds_trigger_addr"], true);
	// No kernel name: the symbols name it.
	EXPECT_EQ(mappings[1]["caller"], "edu_map_sg+0x80/0x100 [edgedma_test_edu]");
	EXPECT_EQ(mappings[1]["call"], "dma_map_sg");
	EXPECT_EQ(mappings[1]["sg_index"], 1);
	EXPECT_EQ(mappings[1]["sg_count"], 2);
	EXPECT_EQ(mappings[1]["attrs"], "0x100");
	EXPECT_EQ(mappings[1]["holds_trigger_addr"], false);
}

TEST(SnapshotJson, ListsTheRecentUnmapsAsHistory)
{
	auto history = parsed_json(sample_snapshot())["history"];
	ASSERT_EQ(history.size(), 2u);
	EXPECT_EQ(keys_of(history[0]),
		  (std::set<std::string>{"dma_addr", "size", "dir", "call", "cpu_phys",
					 "map_time_ns", "unmap_time_ns", "map_caller", "map_caller_addr",
					 "unmap_caller", "unmap_caller_addr",
					 "covers_trigger_addr"}));
	EXPECT_EQ(history[0]["dma_addr"], "0xfffff000");
	EXPECT_EQ(history[0]["cpu_phys"], "0x123456000");
	EXPECT_TRUE(history[1]["cpu_phys"].is_null());
	EXPECT_EQ(history[0]["unmap_time_ns"], sample_snapshot_time_ns - 3'000'000);
	EXPECT_EQ(history[0]["map_caller"], "edu_map+0x44/0x100 [edgedma_test_edu]");
	EXPECT_EQ(history[0]["unmap_caller"], "edu_unmap+0x20/0x80 [edgedma_test_edu]");
	EXPECT_EQ(history[0]["covers_trigger_addr"], true);
	EXPECT_EQ(history[1]["call"], "dma_alloc_coherent");
	EXPECT_EQ(history[1]["map_caller"], "edu_alloc+0x80/0x100 [edgedma_test_edu]");
	// Unknown to the module (0): null, not a made-up name.
	EXPECT_TRUE(history[1]["unmap_caller"].is_null());
	EXPECT_TRUE(history[1]["unmap_caller_addr"].is_null());
	EXPECT_EQ(history[1]["covers_trigger_addr"], false);
}

TEST(SnapshotJson, NamesTheSkippedPartsAndTheirReasons)
{
	Snapshot snapshot = sample_snapshot();
	snapshot.skipped.push_back({EDGEDMA_SNAPSHOT_PART_MAPPINGS, 99});
	auto skipped = parsed_json(snapshot)["skipped"];
	EXPECT_EQ(skipped, nlohmann::json::parse(R"([{"part": "unmapped", "reason": "lock-busy"},
						      {"part": "mappings", "reason": "reason-99"}])"));
}

TEST(SnapshotJson, SaysNullForWhatARecordCutShortLacks)
{
	Snapshot snapshot = sample_snapshot();
	snapshot.kernel_release.reset();
	snapshot.hook_mode.reset();
	snapshot.header.trigger_addr.reset();
	auto parsed = parsed_json(snapshot);
	EXPECT_TRUE(parsed["kernel_release"].is_null());
	EXPECT_TRUE(parsed["hook_mode"].is_null());
	EXPECT_TRUE(parsed["trigger_addr"].is_null());
	EXPECT_EQ(parsed["mappings"][0]["holds_trigger_addr"], false);
}

TEST(SnapshotJson, LeadsWithTheHeadlineAndKeepsEveryVerdict)
{
	// An IOMMU fault in the page of the first recent unmap, nothing live
	// holding it: device-after-unmap, with its evidence.
	Snapshot snapshot = sample_snapshot();
	snapshot.mappings.clear();
	snapshot.header.trigger = EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT;
	snapshot.header.trigger_access = EDGEDMA_ACCESS_WRITE;
	snapshot.header.trigger_addr = snapshot.unmaps.front().dma_addr;
	auto parsed = parsed_json(snapshot);
	ASSERT_TRUE(parsed["headline"].is_object());
	EXPECT_EQ(parsed["headline"]["rule"], "device-after-unmap");
	EXPECT_EQ(parsed["headline"]["severity"], "error");
	EXPECT_TRUE(contains(parsed["headline"]["sentence"].get<std::string>(),
			     "0000:00:04.0 wrote IOVA 0xfffff000 after"));
	ASSERT_TRUE(parsed["verdicts"].is_array());
	ASSERT_GE(parsed["verdicts"].size(), 1u);
	EXPECT_EQ(parsed["verdicts"][0], parsed["headline"]);
	const auto &evidence = parsed["headline"]["evidence"];
	ASSERT_TRUE(evidence.is_array());
	ASSERT_GE(evidence.size(), 3u);
	EXPECT_EQ(keys_of(evidence[0]),
		  (std::set<std::string>{"view", "subject", "value", "dma_addr"}));
	EXPECT_EQ(evidence[0]["view"], "device");
	EXPECT_EQ(evidence[0]["dma_addr"], "0xfffff000");
}

TEST(SnapshotText, ShowsTheIommusRegistersOrThatItHasNoProfile)
{
	Snapshot snapshot = sample_snapshot();
	snapshot.iommu = IommuRegisters{
		"9050000.smmuv3",
		"arm-smmu-v3",
		{Register{"evtq-prod", 0, 0x100a8, 4, 0, {{"overflow", 31, 1}}, 0x80000003,
			  std::nullopt}}};
	std::string text = snapshot_text(snapshot, symbols);
	EXPECT_TRUE(contains(text, "IOMMU 9050000.smmuv3 registers (profile arm-smmu-v3):\n"
				   "  NAME       WHERE                WIDTH  VALUE\n"
				   "  evtq-prod  window 0 +0x100a8  4 bytes  0x80000003\n"
				   "    overflow=1\n"))
		<< text;
	auto parsed = nlohmann::json::parse(snapshot_json(snapshot, symbols).dump());
	EXPECT_EQ(parsed["iommu"]["device"], "9050000.smmuv3");
	EXPECT_EQ(parsed["iommu"]["registers"][0]["value"], "0x80000003");

	snapshot.iommu = IommuRegisters{"9050000.smmuv3", std::nullopt, {}};
	text = snapshot_text(snapshot, symbols);
	EXPECT_TRUE(contains(text, "IOMMU 9050000.smmuv3: no profile bound")) << text;
	snapshot.iommu.reset();
	parsed = nlohmann::json::parse(snapshot_json(snapshot, symbols).dump());
	EXPECT_TRUE(parsed["iommu"].is_null());
}

TEST(SnapshotText, LeadsWithTheHeadlineAndListsTheEvidence)
{
	Snapshot snapshot = sample_snapshot();
	snapshot.mappings.clear();
	snapshot.header.trigger = EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT;
	snapshot.header.trigger_access = EDGEDMA_ACCESS_READ;
	snapshot.header.trigger_addr = snapshot.unmaps.front().dma_addr;
	const std::string text = snapshot_text(snapshot, symbols);
	const auto headline_at = text.find("  ERROR device-after-unmap: ");
	ASSERT_NE(headline_at, std::string::npos) << text;
	EXPECT_LT(headline_at, text.find("  taken:"));
	EXPECT_TRUE(contains(text, "verdicts (cross-view comparison):\n"
				   "  ERROR device-after-unmap: "));
	EXPECT_TRUE(contains(text, "      device: IOMMU fault: read 0xfffff000\n"));
}

// The fault snapshot of the two tests above, with the faulting page viewed:
// the IOMMU translates it to nothing, no live mapping holds it.
Snapshot fault_snapshot_with_page()
{
	Snapshot snapshot = sample_snapshot();
	snapshot.mappings.clear();
	snapshot.header.trigger = EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT;
	snapshot.header.trigger_access = EDGEDMA_ACCESS_READ;
	snapshot.header.trigger_addr = snapshot.unmaps.front().dma_addr;
	PageView page;
	page.dma_addr = snapshot.unmaps.front().dma_addr;
	page.iommu_domain = EDGEDMA_IOMMU_DOMAIN_DMA;
	page.iommu_unmapped = true;
	snapshot.pages.push_back(page);
	return snapshot;
}

TEST(SnapshotJson, ViewsSayWhereTheyDisagree)
{
	auto parsed = parsed_json(fault_snapshot_with_page());
	ASSERT_EQ(parsed["views"].size(), 1u);
	EXPECT_EQ(parsed["views"][0]["disagree"],
		  (nlohmann::json{"device", "history", "mappings", "iommu"}));
}

TEST(SnapshotText, ShowsTheViewsSideBySideMarkingDisagreement)
{
	const std::string text = snapshot_text(fault_snapshot_with_page(), symbols);
	EXPECT_TRUE(contains(text, "views side by side (IOMMU domain dma):\n"
				   "  PAGE        DEVICE          TABLE       IOMMU      CPU PTE  "
				   "PHYSICAL  CACHE\n"
				   "  0xfffff000  fault (read) !  unmapped !  nothing !  -        -"));
	EXPECT_TRUE(contains(text, "(! where the views disagree"));
	EXPECT_LT(text.find("views side by side"), text.find("verdicts (cross-view"));
}

// ---- show ------------------------------------------------------------------

TEST(SnapshotText, ShowsTheHeader)
{
	const Snapshot snapshot = sample_snapshot();
	std::string text = snapshot_text(snapshot, symbols);
	EXPECT_TRUE(contains(text, "snapshot 7\n"
				   "  TRUNCATED: the record ran out of room (snapshot_size); what "
				   "did not fit is missing\n"
				   "  NOTE consistent: the views of edgedma_test_edu 0000:00:04.0 "
				   "agree: compared the address 0xfffff040 (against 2 live mappings, "
				   "2 recent unmaps)\n\n"
				   "  taken:         2026-12-04 20:44:43.123 UTC on CPU 1 (kernel "
				   "clock 5.000000 s)\n"
				   "  trigger:       manual\n"
				   "  address:       0xfffff040\n"
				   "  device:        0000:00:04.0 (edgedma_test_edu)\n"
				   "  kernel:        6.1.0-28-amd64\n"
				   "  hook mode:     kprobe\n"
				   "  record:        " +
					   std::to_string(snapshot.record.size()) + " bytes\n"))
		<< text;
}

TEST(SnapshotText, ShowsWhatTheTriggerKnew)
{
	Snapshot snapshot = sample_snapshot();
	snapshot.header.trigger = EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT;
	snapshot.header.trigger_access = EDGEDMA_ACCESS_WRITE;
	snapshot.header.trigger_reason = 5;
	snapshot.header.trigger_symbol = "edu_irq_error";
	snapshot.header.finding_seq = 12;
	snapshot.header.finding_kind = EDGEDMA_FINDING_LEAK;
	snapshot.header.driver.clear();
	std::string text = snapshot_text(snapshot, symbols);
	EXPECT_TRUE(contains(text, "  trigger:       iommu-fault\n"
				   "  handler:       edu_irq_error\n"
				   "  fault reason:  5\n"
				   "  finding:       #12 (leak)\n"
				   "  address:       0xfffff040 (write)\n"
				   "  device:        0000:00:04.0 (no driver)\n"))
		<< text;
}

TEST(SnapshotText, ShowsTheMappingsWithTheOneHoldingTheAddressMarked)
{
	std::string text = snapshot_text(sample_snapshot(), symbols);
	EXPECT_TRUE(contains(
		text,
		"live mappings: 2 listed, 2 left out (snapshot_mappings, or no room)\n"
		"     DMA ADDRESS  SIZE  DIR          CALL              MAPPED           CALLER\n"
		"  *  0xfffff000   4096  to-device    dma_map_page      12.30 ms before  "
		"edu_map+0x44/0x100 [edgedma_test_edu]\n"
		"     0xffffe000    512  from-device  dma_map_sg [1/2]  1.000 s before   "
		"edu_map_sg+0x80/0x100 [edgedma_test_edu]\n"
		"  (* holds the snapshot's address 0xfffff040)\n"))
		<< text;
}

TEST(SnapshotText, ShowsTheRecentUnmapsWithWhenAndByWhom)
{
	std::string text = snapshot_text(sample_snapshot(), symbols);
	EXPECT_TRUE(contains(text, "recent unmaps: 2 listed\n"
				   "  * 0xfffff000  4096 bytes  to-device  dma_map_page\n"
				   "      mapped   1.200 s before by edu_map+0x44/0x100 "
				   "[edgedma_test_edu]\n"
				   "      unmapped 3.00 ms before by edu_unmap+0x20/0x80 "
				   "[edgedma_test_edu]\n"
				   "    0xffffd000  8192 bytes  bidirectional  dma_alloc_coherent\n"
				   "      mapped   3.000 s before by edu_alloc+0x80/0x100 "
				   "[edgedma_test_edu]\n"
				   "      unmapped 500.00 ms before by unknown\n"
				   "  (* covered the snapshot's address 0xfffff040, or was the "
				   "latest unmap in its page)\n"))
		<< text;
}

TEST(SnapshotText, ShowsTheSkippedPartsWithTheirReasons)
{
	Snapshot snapshot = sample_snapshot();
	snapshot.skipped.push_back({EDGEDMA_SNAPSHOT_PART_MAPPINGS, EDGEDMA_SKIP_DEVICE_UNSEEN});
	std::string text = snapshot_text(snapshot, symbols);
	EXPECT_TRUE(contains(text, "skipped parts:\n"
				   "  unmapped: lock-busy (a lock was held; at panic its holder "
				   "may be a stopped CPU)\n"
				   "  mappings: device-unseen (the device made no DMA-API call "
				   "edgedma saw)\n"))
		<< text;
}

TEST(SnapshotText, SaysNothingOfTruncationOrSkipsWhenThereWereNone)
{
	Snapshot snapshot = sample_snapshot();
	snapshot.truncated = false;
	snapshot.skipped.clear();
	snapshot.mappings_left_out = 0;
	std::string text = snapshot_text(snapshot, symbols);
	EXPECT_FALSE(contains(text, "TRUNCATED")) << text;
	EXPECT_FALSE(contains(text, "skipped")) << text;
	EXPECT_FALSE(contains(text, "left out")) << text;
	EXPECT_TRUE(contains(text, "live mappings: 2 listed\n")) << text;
}

TEST(SnapshotText, ShowsEmptyPartsAndNoAddress)
{
	Snapshot snapshot = sample_snapshot();
	snapshot.header.trigger_addr.reset();
	snapshot.mappings.clear();
	snapshot.unmaps.clear();
	snapshot.kernel_release.reset();
	snapshot.hook_mode.reset();
	std::string text = snapshot_text(snapshot, symbols);
	EXPECT_TRUE(contains(text, "  address:       none given\n")) << text;
	EXPECT_TRUE(contains(text, "  kernel:        unknown (not in the record)\n")) << text;
	EXPECT_TRUE(contains(text, "live mappings: 0 listed, 2 left out")) << text;
	EXPECT_TRUE(contains(text, "recent unmaps: 0 listed\n")) << text;
	EXPECT_FALSE(contains(text, "*")) << text;
}

// ---- take ------------------------------------------------------------------

TEST(SnapshotSummary, SaysWhereTheAddressWas)
{
	Snapshot snapshot = sample_snapshot();
	EXPECT_EQ(snapshot_summary(snapshot),
		  "snapshot 7 of 0000:00:04.0 (edgedma_test_edu): 2 live mappings, 2 recent "
		  "unmaps; 0xfffff040 is in a live mapping; 1 part skipped; TRUNCATED\n");

	snapshot.mappings.erase(snapshot.mappings.begin());
	snapshot.truncated = false;
	snapshot.skipped.clear();
	EXPECT_EQ(snapshot_summary(snapshot),
		  "snapshot 7 of 0000:00:04.0 (edgedma_test_edu): 1 live mapping, 2 recent "
		  "unmaps; 0xfffff040 was unmapped 3.00 ms before\n");

	snapshot.unmaps.erase(snapshot.unmaps.begin());
	EXPECT_EQ(snapshot_summary(snapshot),
		  "snapshot 7 of 0000:00:04.0 (edgedma_test_edu): 1 live mapping, 1 recent "
		  "unmap; 0xfffff040 is in no live mapping or recent unmap\n");

	snapshot.header.trigger_addr.reset();
	snapshot.header.driver.clear();
	EXPECT_EQ(snapshot_summary(snapshot),
		  "snapshot 7 of 0000:00:04.0 (no driver): 1 live mapping, 1 recent unmap\n");
}

TEST(SnapshotTakeAddress, ReadsHexWith0xAndDecimalWithout)
{
	using cli::parse_dma_address;
	EXPECT_EQ(parse_dma_address("0xfffff000", "--addr"), 0xfffff000u);
	EXPECT_EQ(parse_dma_address("0XFFFFF000", "--addr"), 0xfffff000u);
	EXPECT_EQ(parse_dma_address("4096", "--addr"), 4096u);
	// Not octal, as C and CLI11 would read it.
	EXPECT_EQ(parse_dma_address("010", "--addr"), 10u);
	EXPECT_EQ(parse_dma_address("0xffffffffffffffff", "--addr"), UINT64_MAX);
}

TEST(SnapshotTakeAddress, RefusesWhatIsNoAddress)
{
	for (const char *text : {"", "0x", "-1", "+1", "12z", "0x12z", "1 ", "0xffffffffffffffff0",
				 "18446744073709551616", "0b101"}) {
		SCOPED_TRACE(text);
		try {
			cli::parse_dma_address(text, "--addr");
			ADD_FAILURE() << "took it";
		} catch (const cli::UsageError &error) {
			EXPECT_EQ(std::string(error.what()),
				  std::string("--addr ") + text +
					  ": not a DMA address (0x and hex digits, or decimal)");
		}
	}
}

// ---- list ------------------------------------------------------------------

TEST(SnapshotList, IsATableOfTheHeaders)
{
	SnapshotHeader first = sample_snapshot().header;
	SnapshotHeader second = first;
	second.seq = 12;
	second.real_time_ns += 61'000'000'000;
	second.trigger = EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT;
	second.trigger_addr.reset();
	second.device = "fe2c0000.dma-controller";
	second.driver.clear();
	second.record_size = 32768;
	EXPECT_EQ(snapshot_list_text({first, second}),
		  "SEQ  TAKEN                        TRIGGER      DEVICE                   "
		  "DRIVER            ADDRESS     BYTES\n"
		  "  7  2026-12-04 20:44:43.123 UTC  manual       0000:00:04.0             "
		  "edgedma_test_edu  0xfffff040    " +
			  std::to_string(first.record_size) +
			  "\n"
			  " 12  2026-12-04 20:45:44.123 UTC  iommu-fault  fe2c0000.dma-controller  "
			  "-                 -           32768\n");
}

TEST(SnapshotList, JsonHasEveryHeaderField)
{
	SnapshotHeader header = sample_snapshot().header;
	header.trigger_access = EDGEDMA_ACCESS_READ;
	auto parsed = nlohmann::json::parse(snapshot_header_json(header).dump());
	EXPECT_EQ(keys_of(parsed),
		  (std::set<std::string>{"seq", "time_ns", "real_time_ns", "cpu", "trigger",
					 "trigger_addr", "trigger_access", "trigger_reason",
					 "trigger_symbol", "finding_seq", "finding_kind", "device", "driver",
					 "record_size"}));
	EXPECT_EQ(parsed["seq"], 7);
	EXPECT_EQ(parsed["trigger_access"], "read");
	EXPECT_EQ(parsed["record_size"], header.record_size);
}

// `edgedma watch` of a SNAPSHOT notification: one line, with what the
// trigger knew and the command that shows the record.
TEST(SnapshotAnnouncement, OneLineWithTheCommandToShowIt)
{
	SnapshotHeader header = sample_snapshot().header;
	header.trigger = EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT;
	header.trigger_addr = 0xfff5000;
	header.trigger_access = EDGEDMA_ACCESS_READ;
	header.record_size = 4012;
	EXPECT_EQ(snapshot_announcement_text(header),
		  "snapshot 7 of 0000:00:04.0 (edgedma_test_edu): iommu-fault at 0xfff5000 "
		  "(read), 4012 bytes: edgedma snapshot show 7\n");
	header.trigger = EDGEDMA_SNAPSHOT_TRIGGER_CONTROLLER_ERROR;
	header.trigger_addr.reset();
	header.trigger_access.reset();
	header.trigger_symbol = "pl330_irq_handler";
	header.driver.clear();
	EXPECT_EQ(snapshot_announcement_text(header),
		  "snapshot 7 of 0000:00:04.0 (no driver): controller-error in "
		  "pl330_irq_handler, 4012 bytes: edgedma snapshot show 7\n");
}

// VT-d reports the page of a fault alone: the latest unmap in that page is
// the one that left it unmapped, though it does not hold the page's start.
TEST(SnapshotSummary, NamesTheUnmapInTheFaultingPage)
{
	Snapshot snapshot = sample_snapshot();
	snapshot.mappings.clear();
	snapshot.skipped.clear();
	snapshot.truncated = false;
	snapshot.header.trigger_addr = 0xfffff000;
	snapshot.unmaps.front().dma_addr = 0xfffff800;
	snapshot.unmaps.front().size = 256;
	EXPECT_EQ(snapshot_summary(snapshot),
		  "snapshot 7 of 0000:00:04.0 (edgedma_test_edu): 0 live mappings, 2 recent "
		  "unmaps; 0xfffff000 was unmapped 3.00 ms before (0xfffff800, in its page)\n");
}

// A list of two descriptors as the module writes it: layout, start, walk,
// then each descriptor with its bytes and its buffer resolved.
std::vector<std::byte> chain_record()
{
	Snapshot snapshot = sample_snapshot();
	RecordBuilder record;
	put_header(record, snapshot.header);
	RecordBuilder chain;
	chain.string(EDGEDMA_A_CHAIN_NAME, "test-list")
		.u32(EDGEDMA_A_CHAIN_KIND, EDGEDMA_CHAIN_LIST)
		.string(EDGEDMA_A_CHAIN_START_REG, "DMA_SRC")
		.u32(EDGEDMA_A_CHAIN_DESC_SIZE, 16);
	auto field = [](const char *name, std::uint32_t offset, std::uint32_t width,
			std::uint32_t role) {
		RecordBuilder f;
		f.string(EDGEDMA_A_DFIELD_NAME, name)
			.u32(EDGEDMA_A_DFIELD_OFFSET, offset)
			.u32(EDGEDMA_A_DFIELD_WIDTH, width)
			.u32(EDGEDMA_A_DFIELD_ROLE, role);
		return f;
	};
	chain.nest(EDGEDMA_A_CHAIN_DFIELD, field("addr", 0, 8, EDGEDMA_DESC_ROLE_ADDRESS))
		.nest(EDGEDMA_A_CHAIN_DFIELD, field("next", 8, 4, EDGEDMA_DESC_ROLE_NEXT))
		.nest(EDGEDMA_A_CHAIN_DFIELD, field("len", 12, 4, EDGEDMA_DESC_ROLE_LENGTH))
		.u64(EDGEDMA_A_CHAIN_START, 0xffbf000)
		.u32(EDGEDMA_A_CHAIN_WALK, EDGEDMA_WALK_LOOP);
	// addr 0xfee01000, next 0xffbf010, len 256: little-endian bytes.
	const std::array<unsigned char, 16> bytes{0x00, 0x10, 0xe0, 0xfe, 0, 0, 0, 0,
						  0x10, 0xf0, 0xfb, 0x0f, 0x00, 0x01, 0, 0};
	std::vector<std::byte> raw;
	for (unsigned char b : bytes)
		raw.push_back(std::byte{b});
	RecordBuilder buffer;
	buffer.u32(EDGEDMA_A_BUFFER_FIELD, 0)
		.u64(EDGEDMA_A_BUFFER_ADDR, 0xfee01000)
		.u64(EDGEDMA_A_BUFFER_LENGTH, 256)
		.u32(EDGEDMA_A_BUFFER_STATE, EDGEDMA_BUFFER_UNMAPPED)
		.u64(EDGEDMA_A_BUFFER_MAPPING_ADDR, 0xfee01000)
		.u64(EDGEDMA_A_BUFFER_MAPPING_SIZE, 256);
	RecordBuilder first;
	first.u32(EDGEDMA_A_DESC_INDEX, 0)
		.u64(EDGEDMA_A_DESC_DMA_ADDR, 0xffbf000)
		.u32(EDGEDMA_A_DESC_STATE, EDGEDMA_DESC_READ)
		.raw(EDGEDMA_A_DESC_BYTES, raw)
		.nest(EDGEDMA_A_DESC_BUFFER, buffer);
	RecordBuilder second;
	second.u32(EDGEDMA_A_DESC_INDEX, 1)
		.u64(EDGEDMA_A_DESC_DMA_ADDR, 0xffbf010)
		.u32(EDGEDMA_A_DESC_STATE, EDGEDMA_DESC_NO_MAPPING)
		.u32(EDGEDMA_A_DESC_OWNER, EDGEDMA_OWNER_DEVICE);
	chain.nest(EDGEDMA_A_CHAIN_DESCRIPTOR, first).nest(EDGEDMA_A_CHAIN_DESCRIPTOR, second);
	record.nest(EDGEDMA_A_SNAPSHOT_CHAIN, chain);
	// The page of the first descriptor's buffer, viewed for it.
	RecordBuilder page;
	page.u64(EDGEDMA_A_PAGE_DMA_ADDR, 0xfee01000)
		.u32(EDGEDMA_A_PAGE_IOMMU_DOMAIN, EDGEDMA_IOMMU_DOMAIN_DMA)
		.u32(EDGEDMA_A_PAGE_IOMMU_UNMAPPED, 1);
	record.nest(EDGEDMA_A_SNAPSHOT_PAGE, page);
	return record.bytes();
}

TEST(SnapshotChains, DecodedAndShownWithFieldsAndBuffers)
{
	const auto bytes = chain_record();
	const Snapshot snapshot = detail::decode_snapshot(bytes, "test");
	ASSERT_EQ(snapshot.chains.size(), 1u);
	const DescriptorChain &chain = snapshot.chains[0];
	EXPECT_EQ(chain.name, "test-list");
	ASSERT_EQ(chain.fields.size(), 3u);
	ASSERT_EQ(chain.descriptors.size(), 2u);
	EXPECT_EQ(descriptor_field_value(chain, chain.descriptors[0], 0), 0xfee01000u);
	EXPECT_EQ(descriptor_field_value(chain, chain.descriptors[0], 1), 0xffbf010u);
	EXPECT_EQ(descriptor_field_value(chain, chain.descriptors[0], 2), 256u);
	EXPECT_EQ(descriptor_field_value(chain, chain.descriptors[1], 0), std::nullopt);

	const std::string text = snapshot_text(snapshot, symbols);
	EXPECT_TRUE(contains(text, "descriptors: test-list (list, 16 bytes each), start "
				   "0xffbf000\n"
				   "  [0] 0xffbf000  addr=0xfee01000 next=0xffbf010 len=0x100\n"
				   "      buffer 0xfee01000+256: UNMAPPED (recent unmap 0xfee01000+256)\n"
				   "  [1] 0xffbf010  device's  NOT READ: no-mapping\n"
				   "  walk ended: loop\n"))
		<< text;
	const auto json = snapshot_json(snapshot, symbols);
	ASSERT_EQ(json["descriptors"].size(), 1u);
	EXPECT_EQ(json["descriptors"][0]["walk"][0], "loop");
	EXPECT_EQ(json["descriptors"][0]["descriptors"][0]["fields"]["len"], "0x100");
	EXPECT_EQ(json["descriptors"][0]["descriptors"][0]["buffers"][0]["state"], "unmapped");
	EXPECT_EQ(json["descriptors"][0]["descriptors"][0]["bytes"],
		  "0010e0fe0000000010f0fb0f00010000");
	EXPECT_EQ(json["descriptors"][0]["descriptors"][1]["state"], "no-mapping");
	EXPECT_EQ(json["descriptors"][0]["descriptors"][0]["owner"], nullptr);
	ASSERT_EQ(json["views"].size(), 1u);
	EXPECT_EQ(json["views"][0]["buffer_of"].dump(), R"(["test-list[0] unmapped"])");
	EXPECT_TRUE(contains(text, "  0xfee01000\n    buffer of: test-list[0] unmapped\n"))
		<< text;
	ASSERT_EQ(snapshot.pages.size(), 1u);
	const auto held = buffers_in_page(snapshot, snapshot.pages[0]);
	ASSERT_EQ(held.size(), 1u);
	EXPECT_EQ(held[0].descriptor, &chain.descriptors[0]);
	EXPECT_EQ(json["descriptors"][0]["descriptors"][1]["owner"], "device");
	EXPECT_EQ(chain.descriptors[1].owner, static_cast<std::uint32_t>(EDGEDMA_OWNER_DEVICE));
}

// Big-endian fields and bit fields of a descriptor.
TEST(SnapshotChains, FieldValuesFollowByteOrderAndBits)
{
	DescriptorChain chain;
	chain.flags = EDGEDMA_CHAIN_BIG_ENDIAN;
	chain.fields = {{"word", 0, 4, 0, std::nullopt, std::nullopt},
			{"code", 0, 2, 4, 8, std::nullopt},
			{"past", 2, 8, 0, std::nullopt, std::nullopt}};
	Descriptor descriptor;
	descriptor.bytes = {std::byte{0x12}, std::byte{0x34}, std::byte{0x56}, std::byte{0x78}};
	EXPECT_EQ(descriptor_field_value(chain, descriptor, 0), 0x12345678u);
	EXPECT_EQ(descriptor_field_value(chain, descriptor, 1), 0x23u);
	EXPECT_EQ(descriptor_field_value(chain, descriptor, 2), std::nullopt);
	chain.flags = 0;
	EXPECT_EQ(descriptor_field_value(chain, descriptor, 0), 0x78563412u);
}

} // namespace render_snapshot_test
} // namespace edgedma::test
