// SPDX-License-Identifier: GPL-2.0
#include <set>

#include <linux/edgedma.h>
#include <nlohmann/json.hpp>

#include "status_render.hpp"
#include "test_support.hpp"

namespace edgedma::test {
namespace status_render_test {

using cli::status_json;
using cli::status_text;

const Info sample_info{
	.module_version = "0.1.0",
	.kernel_release = "6.1.0-28-amd64",
	.arch = "x86_64",
	.record_format = 1, // rendering only: any value will do
	.hook_modes = EDGEDMA_HOOK_MODE_TRACEPOINT | EDGEDMA_HOOK_MODE_KPROBE,
	.page_size = 4096,
	.cache_line = 64,
	.dma_alignment = 1,
	.hook_mode = EDGEDMA_HOOK_MODE_TRACEPOINT,
	.iommu_fault_hooks = std::nullopt, // a module from before they were caught
	.dt_node = std::nullopt,
	.dt_policies = std::nullopt,
	.dt_refused = std::nullopt,
	.dt_profiles = std::nullopt,
	.hooks_skipped = {},
	.hook_kretprobes = std::nullopt,
	.hook_ftrace_entries = std::nullopt,
	.hook_kprobe_entries = std::nullopt,
};

std::set<std::string> keys_of(const nlohmann::json &object)
{
	std::set<std::string> keys;
	for (const auto &item : object.items())
		keys.insert(item.key());
	return keys;
}

TEST(StatusJson, ParsesBackWithEveryKeyAndValue)
{
	auto parsed = nlohmann::json::parse(status_json(sample_info, std::nullopt).dump());

	EXPECT_EQ(keys_of(parsed),
		  (std::set<std::string>{"module_version", "kernel_release", "arch",
					 "record_format", "hook_modes", "hook_mode",
					 "page_size", "cache_line", "dma_alignment"}));
	EXPECT_EQ(parsed["module_version"], "0.1.0");
	EXPECT_EQ(parsed["kernel_release"], "6.1.0-28-amd64");
	EXPECT_EQ(parsed["arch"], "x86_64");
	EXPECT_EQ(parsed["record_format"], 1);
	EXPECT_EQ(parsed["hook_modes"], nlohmann::json::array({"tracepoint", "kprobe"}));
	EXPECT_EQ(parsed["hook_mode"], "tracepoint");
	EXPECT_EQ(parsed["page_size"], 4096);
	EXPECT_EQ(parsed["cache_line"], 64);
	EXPECT_EQ(parsed["dma_alignment"], 1);
}

TEST(StatusJson, HookModesIsAnEmptyArrayWhenNoneAreOffered)
{
	Info without_hooks = sample_info;
	without_hooks.hook_modes = 0;
	auto parsed = nlohmann::json::parse(status_json(without_hooks, std::nullopt).dump());
	EXPECT_TRUE(parsed["hook_modes"].is_array());
	EXPECT_TRUE(parsed["hook_modes"].empty());
}

const Stats sample_stats{
	.requests = 12,
	.rejected = 0x1'0000'0000,
	.calls = 5000,
	.mappings_live = 3,
	.pool_size = 4096,
	.pool_exhausted = 0,
	.findings = 7,
	.events_dropped = 1,
	.untracked_devices = 2,
	.hook_missed = 4,
	.unseen_mappings = 6,
	.map_events = 900,
	.map_events_dropped = 12,
	.memory = 3'400'000,
	// Counters of later modules: absent.
	.translations_skipped = std::nullopt,
	.irqsoff_max_ns = std::nullopt,
	.sync_skips_cleared = std::nullopt,
	.findings_folded = std::nullopt,
	.finding_sites = std::nullopt,
	.finding_sites_full = std::nullopt,
	.snapshots = std::nullopt,
	.snapshots_suppressed = std::nullopt,
	.snapshots_dropped = std::nullopt,
	.snapshots_truncated = std::nullopt,
	.iommu_faults = std::nullopt,
	.iommu_faults_unowned = std::nullopt,
	.unfold_holders = std::nullopt,
	.stale_mappings = std::nullopt,
};

// A module that sends every counter it has.
Stats newest_stats()
{
	Stats stats = sample_stats;
	stats.translations_skipped = 5;
	stats.irqsoff_max_ns = 41'250;
	stats.sync_skips_cleared = 2;
	stats.findings_folded = 4102;
	stats.finding_sites = 10;
	stats.finding_sites_full = 3;
	stats.snapshots = 12;
	stats.snapshots_suppressed = 96;
	stats.snapshots_dropped = 1;
	stats.snapshots_truncated = 0;
	return stats;
}

TEST(StatusJson, SaysNoneWhenNotHooked)
{
	Info unhooked = sample_info;
	unhooked.hook_mode = 0;
	auto parsed = nlohmann::json::parse(status_json(unhooked, std::nullopt).dump());
	EXPECT_EQ(parsed["hook_mode"], "none");
}

TEST(StatusJson, CarriesEveryCounterOnlyWhenRead)
{
	EXPECT_FALSE(nlohmann::json::parse(status_json(sample_info, std::nullopt).dump())
			     .contains("stats"));
	auto parsed = nlohmann::json::parse(status_json(sample_info, sample_stats).dump());
	EXPECT_EQ(keys_of(parsed["stats"]),
		  (std::set<std::string>{"requests", "rejected", "calls", "mappings_live",
					 "pool_size", "pool_exhausted", "findings",
					 "events_dropped", "untracked_devices",
					 "hook_missed", "unseen_mappings", "map_events",
					 "map_events_dropped", "memory"}));
	EXPECT_EQ(parsed["stats"]["requests"], 12);
	EXPECT_EQ(parsed["stats"]["rejected"], 0x1'0000'0000);
	EXPECT_EQ(parsed["stats"]["calls"], 5000);
	EXPECT_EQ(parsed["stats"]["mappings_live"], 3);
	EXPECT_EQ(parsed["stats"]["pool_size"], 4096);
	EXPECT_EQ(parsed["stats"]["pool_exhausted"], 0);
	EXPECT_EQ(parsed["stats"]["findings"], 7);
	EXPECT_EQ(parsed["stats"]["events_dropped"], 1);
	EXPECT_EQ(parsed["stats"]["untracked_devices"], 2);
	EXPECT_EQ(parsed["stats"]["hook_missed"], 4);
	EXPECT_EQ(parsed["stats"]["unseen_mappings"], 6);
	EXPECT_EQ(parsed["stats"]["map_events"], 900);
	EXPECT_EQ(parsed["stats"]["map_events_dropped"], 12);
	EXPECT_EQ(parsed["stats"]["memory"], 3'400'000);
}

TEST(StatusJson, CarriesTheNewerCountersWhenTheModuleSendsThem)
{
	auto parsed = nlohmann::json::parse(status_json(sample_info, newest_stats()).dump());
	EXPECT_EQ(parsed["stats"]["translations_skipped"], 5);
	EXPECT_EQ(parsed["stats"]["irqsoff_max_ns"], 41'250);
	EXPECT_EQ(parsed["stats"]["sync_skips_cleared"], 2);
	EXPECT_EQ(parsed["stats"]["findings_folded"], 4102);
	EXPECT_EQ(parsed["stats"]["finding_sites"], 10);
	EXPECT_EQ(parsed["stats"]["finding_sites_full"], 3);
	EXPECT_EQ(parsed["stats"]["snapshots"], 12);
	EXPECT_EQ(parsed["stats"]["snapshots_suppressed"], 96);
	EXPECT_EQ(parsed["stats"]["snapshots_dropped"], 1);
	EXPECT_EQ(parsed["stats"]["snapshots_truncated"], 0);
}

TEST(StatusJson, LeavesOutTheSnapshotCountersOfAnOlderModule)
{
	Stats older = newest_stats();
	older.snapshots.reset();
	older.snapshots_suppressed.reset();
	older.snapshots_dropped.reset();
	older.snapshots_truncated.reset();
	auto parsed = nlohmann::json::parse(status_json(sample_info, older).dump());
	for (const char *key : {"snapshots", "snapshots_suppressed", "snapshots_dropped",
				"snapshots_truncated"})
		EXPECT_FALSE(parsed["stats"].contains(key)) << key;
	EXPECT_EQ(parsed["stats"]["finding_sites_full"], 3);
}

TEST(StatusJson, LeavesOutTheFoldingCountersOfAnOlderModule)
{
	Stats older = newest_stats();
	older.findings_folded.reset();
	older.finding_sites.reset();
	older.finding_sites_full.reset();
	auto parsed = nlohmann::json::parse(status_json(sample_info, older).dump());
	EXPECT_FALSE(parsed["stats"].contains("findings_folded"));
	EXPECT_FALSE(parsed["stats"].contains("finding_sites"));
	EXPECT_FALSE(parsed["stats"].contains("finding_sites_full"));
	EXPECT_EQ(parsed["stats"]["sync_skips_cleared"], 2);
	// A module that sends 0 said 0.
	Stats unfolded = newest_stats();
	unfolded.findings_folded = 0;
	parsed = nlohmann::json::parse(status_json(sample_info, unfolded).dump());
	EXPECT_EQ(parsed["stats"]["findings_folded"], 0);
}

TEST(StatusText, ShowsTheNewerCountersWhenTheModuleSendsThem)
{
	std::string text = status_text(sample_info, newest_stats());
	EXPECT_TRUE(contains(text, "kernel memory held:     3400000 bytes\n"
				   "translations skipped:   5 (IOMMU could sleep)\n"
				   "irqs-off max:           41250 ns\n"
				   "sync skips turned off:  2 (syncs kept visible, 6.11+)\n"
				   "findings folded:        4102 (repeats counted, not logged)\n"
				   "finding sites:          10 (device, kind, caller)\n"
				   "site table full:        3 (findings logged unfolded)\n"
				   "snapshots stored:       12\n"
				   "snapshots rate-limited: 96 (triggers over snapshot_rate)\n"
				   "snapshots dropped:      1 (triggers with no free slot)\n"
				   "snapshots truncated:    0 (records over snapshot_size)\n"))
		<< text;
	Stats older = newest_stats();
	older.findings_folded.reset();
	older.finding_sites.reset();
	older.finding_sites_full.reset();
	std::string older_text = status_text(sample_info, older);
	EXPECT_FALSE(contains(older_text, "folded")) << older_text;
	EXPECT_FALSE(contains(older_text, "site")) << older_text;
	Stats before_snapshots = newest_stats();
	before_snapshots.snapshots.reset();
	before_snapshots.snapshots_suppressed.reset();
	before_snapshots.snapshots_dropped.reset();
	before_snapshots.snapshots_truncated.reset();
	std::string before_snapshots_text = status_text(sample_info, before_snapshots);
	EXPECT_FALSE(contains(before_snapshots_text, "snapshot")) << before_snapshots_text;
	Stats untimed = newest_stats();
	untimed.irqsoff_max_ns = 0;
	EXPECT_TRUE(contains(status_text(sample_info, untimed),
			     "irqs-off max:           not timed (measure_irqsoff=0)\n"));
}

TEST(StatusJson, CarriesTheIommuFaultHooksAndCountersWhenSent)
{
	Info info = sample_info;
	info.iommu_fault_hooks = "dmar_fault,io_page_fault";
	Stats stats = newest_stats();
	stats.iommu_faults = 5;
	stats.iommu_faults_unowned = 0;
	auto parsed = nlohmann::json::parse(status_json(info, stats).dump());
	EXPECT_EQ(parsed["iommu_fault_hooks"], "dmar_fault,io_page_fault");
	EXPECT_EQ(parsed["stats"]["iommu_faults"], 5);
	EXPECT_EQ(parsed["stats"]["iommu_faults_unowned"], 0);

	auto older = nlohmann::json::parse(status_json(sample_info, newest_stats()).dump());
	EXPECT_FALSE(older.contains("iommu_fault_hooks"));
	EXPECT_FALSE(older["stats"].contains("iommu_faults"));
	EXPECT_FALSE(older["stats"].contains("iommu_faults_unowned"));
}

TEST(StatusText, ShowsTheIommuFaultHooksAndCountersWhenSent)
{
	Info info = sample_info;
	info.iommu_fault_hooks = "dmar_fault";
	Stats stats = newest_stats();
	stats.iommu_faults = 7;
	stats.iommu_faults_unowned = 2;
	std::string text = status_text(info, stats);
	EXPECT_TRUE(contains(text, "DMA buffer alignment:   1 byte\n"
				   "IOMMU fault hooks:      dmar_fault\n"))
		<< text;
	EXPECT_TRUE(contains(text, "snapshots truncated:    0 (records over snapshot_size)\n"
				   "IOMMU faults seen:      7\n"
				   "IOMMU faults unowned:   2 (of no watched device)\n"))
		<< text;
	info.iommu_fault_hooks = "";
	EXPECT_TRUE(contains(status_text(info, std::nullopt),
			     "IOMMU fault hooks:      none (IOMMU faults not caught)\n"));
	EXPECT_FALSE(contains(status_text(sample_info, newest_stats()), "IOMMU fault"));
}

TEST(StatusText, ShowsStaleMappingsDroppedWhenSent)
{
	Stats stats = newest_stats();
	stats.stale_mappings = 3;
	EXPECT_TRUE(contains(status_text(sample_info, stats),
			     "stale mappings dropped: 3 (IOVA mapped again: unmap missed)\n"));
	EXPECT_EQ(nlohmann::json::parse(status_json(sample_info, stats).dump())["stats"]
					["stale_mappings"],
		  3);
	EXPECT_FALSE(contains(status_text(sample_info, newest_stats()), "stale mappings"));
}

// Folding off because listeners asked: said while any does, never when none.
TEST(StatusText, SaysWhoHoldsFoldingOff)
{
	Stats stats = newest_stats();
	stats.unfold_holders = 2;
	std::string text = status_text(sample_info, stats);
	EXPECT_TRUE(contains(text, "every occurrence:       asked by 2 listener(s): repeats are "
				   "not folded\n"))
		<< text;
	EXPECT_EQ(nlohmann::json::parse(status_json(sample_info, stats).dump())["stats"]
					["unfold_holders"],
		  2);
	stats.unfold_holders = 0;
	EXPECT_FALSE(contains(status_text(sample_info, stats), "every occurrence"));
	EXPECT_EQ(nlohmann::json::parse(status_json(sample_info, stats).dump())["stats"]
					["unfold_holders"],
		  0);
	EXPECT_FALSE(nlohmann::json::parse(status_json(sample_info, newest_stats()).dump())["stats"]
			     .contains("unfold_holders"));
}

TEST(StatusText, ShowsEveryFactWithUnits)
{
	std::string text = status_text(sample_info, std::nullopt);
	EXPECT_EQ(text, "module version:         0.1.0\n"
			"kernel:                 6.1.0-28-amd64\n"
			"arch:                   x86_64\n"
			"record format:          1\n"
			"hook modes:             tracepoint, kprobe\n"
			"hook mode in use:       tracepoint\n"
			"page size:              4096 bytes\n"
			"CPU cache line:         64 bytes\n"
			"DMA buffer alignment:   1 byte\n");
}

TEST(StatusText, SaysNoneWithoutHookModesAndShowsStats)
{
	Info without_hooks = sample_info;
	without_hooks.hook_modes = 0;
	without_hooks.hook_mode = 0;
	std::string text = status_text(without_hooks, sample_stats);
	EXPECT_TRUE(contains(text, "hook modes:             none\n"));
	EXPECT_TRUE(contains(text, "hook mode in use:       none\n"));
	EXPECT_TRUE(contains(text, "requests handled:       12\n"
				   "requests rejected:      4294967296\n"
				   "DMA-API calls seen:     5000\n"
				   "live mappings:          3 (pool of 4096)\n"
				   "mappings not tracked:   0 (pool empty)\n"
				   "findings logged:        7\n"
				   "findings not notified:  1\n"
				   "untracked-device calls: 2\n"
				   "calls hooks missed:     4\n"
				   "unmaps of unseen maps:  6\n"
				   "mapping events:         900 (12 dropped)\n"
				   "kernel memory held:     3400000 bytes\n"));
}

TEST(Status, SaysWhichDeviceTreeNodeConfiguredTheModule)
{
	Info info = sample_info;
	info.dt_node = "/edgedma";
	info.dt_policies = 1;
	info.dt_refused = 2;
	info.dt_profiles = 3;
	EXPECT_TRUE(contains(status_text(info, std::nullopt),
			     "configured by:          device tree /edgedma: 1 policy and 3 profiles "
			     "applied, 2 refused\n"))
		<< status_text(info, std::nullopt);
	auto parsed = nlohmann::json::parse(status_json(info, std::nullopt).dump());
	EXPECT_EQ(parsed["device_tree"]["node"], "/edgedma");
	EXPECT_EQ(parsed["device_tree"]["policies"], 1);
	EXPECT_EQ(parsed["device_tree"]["refused"], 2);
	EXPECT_EQ(parsed["device_tree"]["profiles"], 3);

	EXPECT_FALSE(contains(status_text(sample_info, std::nullopt), "configured by"));
	auto without = nlohmann::json::parse(status_json(sample_info, std::nullopt).dump());
	EXPECT_FALSE(without.contains("device_tree"));
}

TEST(Status, ListsTheHooksLeftOutOneLineEach)
{
	Info info = sample_info;
	info.hooks_skipped = {"dma_map_sgtable: nothing unseen", "dma_other: its calls"};
	EXPECT_TRUE(contains(status_text(info, std::nullopt),
			     "hooks left out:         dma_map_sgtable: nothing unseen\n"
			     "                        dma_other: its calls\n"))
		<< status_text(info, std::nullopt);
	auto parsed = nlohmann::json::parse(status_json(info, std::nullopt).dump());
	EXPECT_EQ(parsed["hooks_skipped"],
		  nlohmann::json::array({"dma_map_sgtable: nothing unseen", "dma_other: its calls"}));

	EXPECT_FALSE(contains(status_text(sample_info, std::nullopt), "hooks left out"));
	auto without = nlohmann::json::parse(status_json(sample_info, std::nullopt).dump());
	EXPECT_FALSE(without.contains("hooks_skipped"));
}

TEST(Status, SaysHowKprobeModeAttached)
{
	Info info = sample_info;
	info.hook_mode = EDGEDMA_HOOK_MODE_KPROBE;
	info.hook_kretprobes = 6;
	info.hook_ftrace_entries = 9;
	info.hook_kprobe_entries = 1;
	EXPECT_TRUE(contains(status_text(info, std::nullopt),
			     "kprobe mode hooks:      6 kretprobes (maps), 9 entries through ftrace, "
			     "1 with kprobes\n"))
		<< status_text(info, std::nullopt);
	auto parsed = nlohmann::json::parse(status_json(info, std::nullopt).dump());
	EXPECT_EQ(parsed["kprobe_hooks"],
		  nlohmann::json({{"kretprobes", 6}, {"ftrace_entries", 9}, {"kprobe_entries", 1}}));

	// Another mode, or an older module: nothing said, nothing shown.
	EXPECT_FALSE(contains(status_text(sample_info, std::nullopt), "kprobe mode hooks"));
	auto without = nlohmann::json::parse(status_json(sample_info, std::nullopt).dump());
	EXPECT_FALSE(without.contains("kprobe_hooks"));
}

} // namespace status_render_test
} // namespace edgedma::test
