// SPDX-License-Identifier: GPL-2.0
#include <linux/edgedma.h>
#include <nlohmann/json.hpp>

#include <edgedma/names.hpp>

#include "format.hpp"
#include "policy_render.hpp"
#include "record_messages.hpp"
#include "test_support.hpp"

namespace edgedma::test {
namespace render_policy_test {

using cli::checks_text;
using cli::parse_check_list;
using cli::parse_trigger_list;
using cli::triggers_text;

constexpr std::uint32_t trigger_bit(std::uint32_t trigger)
{
	return std::uint32_t{1} << (trigger - 1);
}

TEST(CheckList, ReadsKindNamesAllAndNone)
{
	EXPECT_EQ(parse_check_list("addr-misaligned"), 1u);
	EXPECT_EQ(parse_check_list("addr-misaligned,leak"),
		  1u | check_bit(EDGEDMA_FINDING_LEAK));
	EXPECT_EQ(parse_check_list("leak, bounced"),
		  check_bit(EDGEDMA_FINDING_LEAK) | check_bit(EDGEDMA_FINDING_BOUNCED));
	EXPECT_EQ(parse_check_list("all"), all_checks());
	EXPECT_EQ(parse_check_list("none"), 0u);
}

TEST(CheckList, RefusesAnUnknownWordListingTheKnownOnes)
{
	try {
		parse_check_list("leak,misalignment");
		FAIL() << "accepted";
	} catch (const cli::UsageError &error) {
		std::string message = error.what();
		EXPECT_TRUE(contains(message, "unknown check 'misalignment'"));
		EXPECT_TRUE(contains(message, "addr-misaligned, len-misaligned"));
	}
	EXPECT_THROW(parse_check_list(""), cli::UsageError);
	EXPECT_THROW(parse_check_list("leak,"), cli::UsageError);
}

TEST(TriggerList, ReadsTriggerNamesAllAndNone)
{
	EXPECT_EQ(parse_trigger_list("iommu-fault"), trigger_bit(EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT));
	EXPECT_EQ(parse_trigger_list("panic, finding"),
		  trigger_bit(EDGEDMA_SNAPSHOT_TRIGGER_PANIC) |
			  trigger_bit(EDGEDMA_SNAPSHOT_TRIGGER_FINDING));
	EXPECT_EQ(parse_trigger_list("all"), all_snapshot_triggers());
	EXPECT_EQ(all_snapshot_triggers(), (1u << EDGEDMA_SNAPSHOT_TRIGGER_FINDING) - 1);
	EXPECT_EQ(parse_trigger_list("none"), 0u);
	try {
		parse_trigger_list("iommu-fault,oom");
		FAIL() << "accepted";
	} catch (const cli::UsageError &error) {
		std::string message = error.what();
		EXPECT_TRUE(contains(message, "unknown snapshot trigger 'oom'"));
		EXPECT_TRUE(contains(message, "manual, iommu-fault, controller-error, oops, panic, finding"));
	}
	EXPECT_THROW(parse_trigger_list(""), cli::UsageError);
}

TEST(TriggersText, SaysAllNoneAllButOrTheList)
{
	EXPECT_EQ(triggers_text(all_snapshot_triggers()), "all");
	EXPECT_EQ(triggers_text(0), "none");
	EXPECT_EQ(triggers_text(all_snapshot_triggers() & ~trigger_bit(EDGEDMA_SNAPSHOT_TRIGGER_FINDING)),
		  "all but finding");
	EXPECT_EQ(triggers_text(trigger_bit(EDGEDMA_SNAPSHOT_TRIGGER_OOPS)), "oops");
}

TEST(ChecksText, SaysAllNoneAllButOrTheList)
{
	EXPECT_EQ(checks_text(all_checks()), "all");
	EXPECT_EQ(checks_text(0), "none");
	EXPECT_EQ(checks_text(all_checks() & ~check_bit(EDGEDMA_FINDING_LEAK) &
			      ~check_bit(EDGEDMA_FINDING_STACK_BUFFER)),
		  "all but stack-buffer, leak");
	EXPECT_EQ(checks_text(check_bit(EDGEDMA_FINDING_BOUNCED) | 1u),
		  "addr-misaligned, bounced");
}

TEST(PolicyJson, CarriesTheDevicesFacts)
{
	auto parsed = nlohmann::json::parse(cli::policy_json(sample_device_policy()).dump());
	EXPECT_EQ(parsed["target"], "device");
	EXPECT_EQ(parsed["device"], "0000:00:04.0");
	EXPECT_TRUE(parsed["driver"].is_null());
	EXPECT_EQ(parsed["addr_align"], 64);
	EXPECT_EQ(parsed["coherency"], "auto");
	EXPECT_EQ(parsed["checks"].size(), std::size_t{EDGEDMA_FINDING_FREE_IRQS_OFF});
	EXPECT_EQ(parsed["checks_mask"], default_checks());
	EXPECT_EQ(parsed["dev_coherent"], true);
	EXPECT_EQ(parsed["dma_mask"], "0xfffffff");
	EXPECT_EQ(parsed["seg_boundary"], "0xffffffff");
	EXPECT_EQ(parsed["max_seg_size"], 65536);
	EXPECT_EQ(parsed["cache_line"], 64);
	EXPECT_EQ(parsed["snapshot_triggers"].size(), std::size_t{EDGEDMA_SNAPSHOT_TRIGGER_FINDING});
	EXPECT_TRUE(parsed["snapshot_findings"].is_array());
	EXPECT_TRUE(parsed["snapshot_findings"].empty());
	EXPECT_EQ(parsed["owned_hash_max"], 16384);
}

TEST(PolicyJson, FieldsAnOverrideLeavesOutAreNull)
{
	Policy rule;
	rule.target = {PolicyTarget::Kind::driver, "nvme"};
	rule.len_align = 512;
	auto parsed = nlohmann::json::parse(cli::policy_json(rule).dump());
	EXPECT_EQ(parsed["target"], "driver");
	EXPECT_EQ(parsed["driver"], "nvme");
	EXPECT_TRUE(parsed["device"].is_null());
	EXPECT_EQ(parsed["len_align"], 512);
	EXPECT_TRUE(parsed["addr_align"].is_null());
	EXPECT_TRUE(parsed["checks"].is_null());
	EXPECT_TRUE(parsed["dma_mask"].is_null());
	EXPECT_TRUE(parsed["snapshot_triggers"].is_null());
	EXPECT_TRUE(parsed["snapshot_findings"].is_null());
	EXPECT_TRUE(parsed["owned_hash_max"].is_null());
}

TEST(PolicyText, ShowsThePolicyInForce)
{
	EXPECT_EQ(cli::policy_text(sample_device_policy()),
		  "device:            0000:00:04.0\n"
		  "address alignment: 64 bytes\n"
		  "length alignment:  none\n"
		  "coherency:         auto (the kernel says coherent)\n"
		  "checks:            all but cpu-write-while-device-owned\n"
		  "snapshots on:      all\n"
		  "snapshot findings: none\n"
		  "owned hash max:    16384 bytes\n"
		  "DMA mask:          0xfffffff\n"
		  "segment boundary:  0xffffffff\n"
		  "max segment size:  65536 bytes\n"
		  "cache line:        64 bytes\n");
}

TEST(PolicyRuleText, NamesTheTargetAndWhatItSets)
{
	Policy rule;
	rule.target = {PolicyTarget::Kind::driver, "nvme"};
	rule.coherency = EDGEDMA_COHERENCY_NONCOHERENT;
	rule.checks = all_checks() & ~check_bit(EDGEDMA_FINDING_LEAK);
	EXPECT_EQ(cli::policy_rule_text(rule),
		  "driver nvme: coherency noncoherent, checks all but leak\n");
	rule.snapshot_triggers = trigger_bit(EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT);
	rule.snapshot_findings = check_bit(EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED);
	EXPECT_EQ(cli::policy_rule_text(rule),
		  "driver nvme: coherency noncoherent, checks all but leak, snapshots on "
		  "iommu-fault, snapshot findings cpu-write-while-device-owned\n");
	rule = {};
	rule.target = {PolicyTarget::Kind::device, "0000:00:04.0"};
	rule.owned_hash_max = 64;
	EXPECT_EQ(cli::policy_rule_text(rule), "device 0000:00:04.0: owned hash max 64 bytes\n");
}

} // namespace render_policy_test
} // namespace edgedma::test
