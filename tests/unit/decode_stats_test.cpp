// SPDX-License-Identifier: GPL-2.0
#include <array>
#include <optional>

#include <linux/edgedma.h>

#include "test_support.hpp"

namespace edgedma::test {
namespace decode_stats_test {

using detail::decode_stats;

const Stats sample_stats{
	.requests = 0x1'0000'0002,
	.rejected = 3,
	.calls = 123456,
	.mappings_live = 17,
	.pool_size = 4096,
	.pool_exhausted = 2,
	.findings = 9,
	.events_dropped = 1,
	.untracked_devices = 5,
	.hook_missed = 6,
	.unseen_mappings = 8,
	.map_events = 0x2'0000'0001,
	.map_events_dropped = 11,
	.memory = 3'500'000,
	.translations_skipped = 0x3'0000'0004,
	.irqsoff_max_ns = 41'250,
	.sync_skips_cleared = 0x4'0000'0005,
	.findings_folded = 0x5'0000'0006,
	.finding_sites = 10,
	.finding_sites_full = 0x6'0000'0007,
	.snapshots = 0x7'0000'0008,
	.snapshots_suppressed = 100,
	.snapshots_dropped = 0x8'0000'0009,
	.snapshots_truncated = 2,
	.iommu_faults = 0x9'0000'000a,
	.iommu_faults_unowned = 3,
	.unfold_holders = 2,
	.stale_mappings = 0x1'0000'0003,
};

struct Counter {
	int type;
	const char *name;
	std::uint64_t Stats::*field;
};
#define COUNTER(type, field) Counter{type, #type, &Stats::field}
constexpr std::array counters{
	COUNTER(EDGEDMA_A_STATS_REQUESTS, requests),
	COUNTER(EDGEDMA_A_STATS_REJECTED, rejected),
	COUNTER(EDGEDMA_A_STATS_CALLS, calls),
	COUNTER(EDGEDMA_A_STATS_MAPPINGS_LIVE, mappings_live),
	COUNTER(EDGEDMA_A_STATS_POOL_SIZE, pool_size),
	COUNTER(EDGEDMA_A_STATS_POOL_EXHAUSTED, pool_exhausted),
	COUNTER(EDGEDMA_A_STATS_FINDINGS, findings),
	COUNTER(EDGEDMA_A_STATS_EVENTS_DROPPED, events_dropped),
	COUNTER(EDGEDMA_A_STATS_UNTRACKED_DEVICES, untracked_devices),
	COUNTER(EDGEDMA_A_STATS_HOOK_MISSED, hook_missed),
	COUNTER(EDGEDMA_A_STATS_UNSEEN_MAPPINGS, unseen_mappings),
	COUNTER(EDGEDMA_A_STATS_MAP_EVENTS, map_events),
	COUNTER(EDGEDMA_A_STATS_MAP_EVENTS_DROPPED, map_events_dropped),
};
#undef COUNTER

// A GET_STATS reply as the kernel builds it (u64s padded), leaving out one
// counter if asked to.
GenlMessage stats_reply(const Stats &stats, std::optional<int> left_out = std::nullopt)
{
	GenlMessage reply(EDGEDMA_CMD_GET_STATS);
	for (const auto &counter : counters)
		if (counter.type != left_out)
			reply.put_u64_padded(counter.type, stats.*counter.field,
					     EDGEDMA_A_STATS_PAD);
	if (stats.memory)
		reply.put_u64_padded(EDGEDMA_A_STATS_MEMORY, *stats.memory, EDGEDMA_A_STATS_PAD);
	if (stats.translations_skipped)
		reply.put_u64_padded(EDGEDMA_A_STATS_TRANSLATIONS_SKIPPED,
				     *stats.translations_skipped, EDGEDMA_A_STATS_PAD);
	if (stats.irqsoff_max_ns)
		reply.put_u64_padded(EDGEDMA_A_STATS_IRQSOFF_MAX_NS, *stats.irqsoff_max_ns,
				     EDGEDMA_A_STATS_PAD);
	if (stats.sync_skips_cleared)
		reply.put_u64_padded(EDGEDMA_A_STATS_SYNC_SKIPS_CLEARED, *stats.sync_skips_cleared,
				     EDGEDMA_A_STATS_PAD);
	if (stats.findings_folded)
		reply.put_u64_padded(EDGEDMA_A_STATS_FINDINGS_FOLDED, *stats.findings_folded,
				     EDGEDMA_A_STATS_PAD);
	if (stats.finding_sites)
		reply.put_u64_padded(EDGEDMA_A_STATS_FINDING_SITES, *stats.finding_sites,
				     EDGEDMA_A_STATS_PAD);
	if (stats.finding_sites_full)
		reply.put_u64_padded(EDGEDMA_A_STATS_FINDING_SITES_FULL, *stats.finding_sites_full,
				     EDGEDMA_A_STATS_PAD);
	if (stats.snapshots)
		reply.put_u64_padded(EDGEDMA_A_STATS_SNAPSHOTS, *stats.snapshots,
				     EDGEDMA_A_STATS_PAD);
	if (stats.snapshots_suppressed)
		reply.put_u64_padded(EDGEDMA_A_STATS_SNAPSHOTS_SUPPRESSED,
				     *stats.snapshots_suppressed, EDGEDMA_A_STATS_PAD);
	if (stats.snapshots_dropped)
		reply.put_u64_padded(EDGEDMA_A_STATS_SNAPSHOTS_DROPPED, *stats.snapshots_dropped,
				     EDGEDMA_A_STATS_PAD);
	if (stats.snapshots_truncated)
		reply.put_u64_padded(EDGEDMA_A_STATS_SNAPSHOTS_TRUNCATED,
				     *stats.snapshots_truncated, EDGEDMA_A_STATS_PAD);
	if (stats.iommu_faults)
		reply.put_u64_padded(EDGEDMA_A_STATS_IOMMU_FAULTS, *stats.iommu_faults,
				     EDGEDMA_A_STATS_PAD);
	if (stats.iommu_faults_unowned)
		reply.put_u64_padded(EDGEDMA_A_STATS_IOMMU_FAULTS_UNOWNED,
				     *stats.iommu_faults_unowned, EDGEDMA_A_STATS_PAD);
	if (stats.unfold_holders)
		reply.put_u64_padded(EDGEDMA_A_STATS_UNFOLD_HOLDERS, *stats.unfold_holders,
				     EDGEDMA_A_STATS_PAD);
	if (stats.stale_mappings)
		reply.put_u64_padded(EDGEDMA_A_STATS_STALE_MAPPINGS, *stats.stale_mappings,
				     EDGEDMA_A_STATS_PAD);
	return reply;
}

std::string decode_error(detail::AttributeStream attributes)
{
	return error_message_of([&] { decode_stats(attributes); }, "GET_STATS reply");
}

TEST(DecodeStats, RoundTripsEveryCounterBetweenPadding)
{
	EXPECT_EQ(decode_stats(stats_reply(sample_stats).attributes()), sample_stats);
}

TEST(DecodeStats, RoundTripsCountersWithAPadBeforeEach)
{
	GenlMessage reply(EDGEDMA_CMD_GET_STATS);
	for (const auto &counter : counters)
		reply.put_pad(EDGEDMA_A_STATS_PAD).put_u64(counter.type, sample_stats.*counter.field);
	reply.put_pad(EDGEDMA_A_STATS_PAD).put_u64(EDGEDMA_A_STATS_MEMORY, *sample_stats.memory);
	reply.put_pad(EDGEDMA_A_STATS_PAD)
		.put_u64(EDGEDMA_A_STATS_TRANSLATIONS_SKIPPED, *sample_stats.translations_skipped);
	reply.put_pad(EDGEDMA_A_STATS_PAD)
		.put_u64(EDGEDMA_A_STATS_IRQSOFF_MAX_NS, *sample_stats.irqsoff_max_ns);
	reply.put_pad(EDGEDMA_A_STATS_PAD)
		.put_u64(EDGEDMA_A_STATS_SYNC_SKIPS_CLEARED, *sample_stats.sync_skips_cleared);
	reply.put_pad(EDGEDMA_A_STATS_PAD)
		.put_u64(EDGEDMA_A_STATS_FINDINGS_FOLDED, *sample_stats.findings_folded);
	reply.put_pad(EDGEDMA_A_STATS_PAD)
		.put_u64(EDGEDMA_A_STATS_FINDING_SITES, *sample_stats.finding_sites);
	reply.put_pad(EDGEDMA_A_STATS_PAD)
		.put_u64(EDGEDMA_A_STATS_FINDING_SITES_FULL, *sample_stats.finding_sites_full);
	reply.put_pad(EDGEDMA_A_STATS_PAD)
		.put_u64(EDGEDMA_A_STATS_SNAPSHOTS, *sample_stats.snapshots);
	reply.put_pad(EDGEDMA_A_STATS_PAD)
		.put_u64(EDGEDMA_A_STATS_SNAPSHOTS_SUPPRESSED, *sample_stats.snapshots_suppressed);
	reply.put_pad(EDGEDMA_A_STATS_PAD)
		.put_u64(EDGEDMA_A_STATS_SNAPSHOTS_DROPPED, *sample_stats.snapshots_dropped);
	reply.put_pad(EDGEDMA_A_STATS_PAD)
		.put_u64(EDGEDMA_A_STATS_SNAPSHOTS_TRUNCATED, *sample_stats.snapshots_truncated);
	reply.put_pad(EDGEDMA_A_STATS_PAD)
		.put_u64(EDGEDMA_A_STATS_IOMMU_FAULTS, *sample_stats.iommu_faults);
	reply.put_pad(EDGEDMA_A_STATS_PAD)
		.put_u64(EDGEDMA_A_STATS_IOMMU_FAULTS_UNOWNED, *sample_stats.iommu_faults_unowned);
	reply.put_pad(EDGEDMA_A_STATS_PAD)
		.put_u64(EDGEDMA_A_STATS_UNFOLD_HOLDERS, *sample_stats.unfold_holders);
	reply.put_pad(EDGEDMA_A_STATS_PAD)
		.put_u64(EDGEDMA_A_STATS_STALE_MAPPINGS, *sample_stats.stale_mappings);
	EXPECT_EQ(decode_stats(reply.attributes()), sample_stats);
}

TEST(DecodeStats, TakesAModuleThatDoesNotCountItsMemory)
{
	Stats older = sample_stats;
	older.memory.reset();
	EXPECT_EQ(decode_stats(stats_reply(older).attributes()), older);
}

TEST(DecodeStats, TakesAModuleWithoutTranslationOrIrqsoffCounters)
{
	// Modules from before the two send neither; memory may still come.
	Stats older = sample_stats;
	older.translations_skipped.reset();
	older.irqsoff_max_ns.reset();
	Stats decoded = decode_stats(stats_reply(older).attributes());
	EXPECT_EQ(decoded, older);
	EXPECT_FALSE(decoded.translations_skipped);
	EXPECT_FALSE(decoded.irqsoff_max_ns);
}

TEST(DecodeStats, TakesAModuleWithoutTheSyncSkipCounter)
{
	Stats older = sample_stats;
	older.sync_skips_cleared.reset();
	Stats decoded = decode_stats(stats_reply(older).attributes());
	EXPECT_EQ(decoded, older);
	EXPECT_FALSE(decoded.sync_skips_cleared);
}

TEST(DecodeStats, TakesTheFoldingCounters)
{
	Stats decoded = decode_stats(stats_reply(sample_stats).attributes());
	EXPECT_EQ(decoded.findings_folded, std::optional<std::uint64_t>(0x5'0000'0006));
	EXPECT_EQ(decoded.finding_sites, std::optional<std::uint64_t>(10));
	EXPECT_EQ(decoded.finding_sites_full, std::optional<std::uint64_t>(0x6'0000'0007));
}

TEST(DecodeStats, TakesAModuleWithoutTheFoldingCounters)
{
	// Modules from before folding send none of the three.
	Stats older = sample_stats;
	older.findings_folded.reset();
	older.finding_sites.reset();
	older.finding_sites_full.reset();
	Stats decoded = decode_stats(stats_reply(older).attributes());
	EXPECT_EQ(decoded, older);
	EXPECT_FALSE(decoded.findings_folded);
	EXPECT_FALSE(decoded.finding_sites);
	EXPECT_FALSE(decoded.finding_sites_full);
	EXPECT_EQ(decoded.sync_skips_cleared, sample_stats.sync_skips_cleared);
}

TEST(DecodeStats, TakesTheSnapshotCounters)
{
	Stats decoded = decode_stats(stats_reply(sample_stats).attributes());
	EXPECT_EQ(decoded.snapshots, std::optional<std::uint64_t>(0x7'0000'0008));
	EXPECT_EQ(decoded.snapshots_suppressed, std::optional<std::uint64_t>(100));
	EXPECT_EQ(decoded.snapshots_dropped, std::optional<std::uint64_t>(0x8'0000'0009));
	EXPECT_EQ(decoded.snapshots_truncated, std::optional<std::uint64_t>(2));
}

TEST(DecodeStats, TakesAModuleWithoutTheSnapshotCounters)
{
	// Modules from before snapshots send none of the four.
	Stats older = sample_stats;
	older.snapshots.reset();
	older.snapshots_suppressed.reset();
	older.snapshots_dropped.reset();
	older.snapshots_truncated.reset();
	Stats decoded = decode_stats(stats_reply(older).attributes());
	EXPECT_EQ(decoded, older);
	EXPECT_FALSE(decoded.snapshots);
	EXPECT_FALSE(decoded.snapshots_suppressed);
	EXPECT_FALSE(decoded.snapshots_dropped);
	EXPECT_FALSE(decoded.snapshots_truncated);
	EXPECT_EQ(decoded.finding_sites_full, sample_stats.finding_sites_full);
}

TEST(DecodeStats, TakesTheIommuFaultCounters)
{
	Stats decoded = decode_stats(stats_reply(sample_stats).attributes());
	EXPECT_EQ(decoded.iommu_faults, std::optional<std::uint64_t>(0x9'0000'000a));
	EXPECT_EQ(decoded.iommu_faults_unowned, std::optional<std::uint64_t>(3));
}

TEST(DecodeStats, TakesAModuleWithoutTheIommuFaultCounters)
{
	Stats older = sample_stats;
	older.iommu_faults.reset();
	older.iommu_faults_unowned.reset();
	Stats decoded = decode_stats(stats_reply(older).attributes());
	EXPECT_EQ(decoded, older);
	EXPECT_FALSE(decoded.iommu_faults);
	EXPECT_FALSE(decoded.iommu_faults_unowned);

	// No fault yet: 0, not absent.
	Stats none_yet = sample_stats;
	none_yet.iommu_faults = 0;
	none_yet.iommu_faults_unowned = 0;
	EXPECT_EQ(decode_stats(stats_reply(none_yet).attributes()), none_yet);
}

TEST(DecodeStats, TakesTheUnfoldHoldersAndAModuleWithout)
{
	EXPECT_EQ(decode_stats(stats_reply(sample_stats).attributes()).unfold_holders,
		  std::optional<std::uint64_t>(2));
	Stats older = sample_stats;
	older.unfold_holders.reset();
	EXPECT_EQ(decode_stats(stats_reply(older).attributes()), older);
	Stats nobody = sample_stats;
	nobody.unfold_holders = 0;
	EXPECT_EQ(decode_stats(stats_reply(nobody).attributes()).unfold_holders,
		  std::optional<std::uint64_t>(0));
}

// UNFOLD_SET's reply: both u32s, nothing else needed.
TEST(DecodeFoldingState, TakesHoldersAndFolding)
{
	GenlMessage reply(EDGEDMA_CMD_UNFOLD_SET);
	reply.put_u32(EDGEDMA_A_UNFOLD_HOLDERS, 3).put_u32(EDGEDMA_A_UNFOLD_FOLDING, 0);
	EXPECT_EQ(detail::decode_folding_state(reply.attributes()),
		  (FoldingState{.holders = 3, .folding = false}));

	GenlMessage folding(EDGEDMA_CMD_UNFOLD_SET);
	folding.put_u32(EDGEDMA_A_UNFOLD_FOLDING, 1)
		.put_u32(EDGEDMA_A_UNFOLD_HOLDERS, 0)
		.put_u64(EDGEDMA_A_UNFOLD_MAX + 1, 7);
	EXPECT_EQ(detail::decode_folding_state(folding.attributes()),
		  (FoldingState{.holders = 0, .folding = true}));
}

TEST(DecodeFoldingState, NamesWhatIsMissingOrMalformed)
{
	GenlMessage no_folding(EDGEDMA_CMD_UNFOLD_SET);
	no_folding.put_u32(EDGEDMA_A_UNFOLD_HOLDERS, 1);
	EXPECT_TRUE(contains(
		error_message_of([&] { detail::decode_folding_state(no_folding.attributes()); },
				 "UNFOLD_SET reply"),
		"missing EDGEDMA_A_UNFOLD_FOLDING"));

	GenlMessage wide(EDGEDMA_CMD_UNFOLD_SET);
	wide.put_u64(EDGEDMA_A_UNFOLD_HOLDERS, 1).put_u32(EDGEDMA_A_UNFOLD_FOLDING, 1);
	EXPECT_TRUE(contains(
		error_message_of([&] { detail::decode_folding_state(wide.attributes()); },
				 "UNFOLD_SET reply"),
		"EDGEDMA_A_UNFOLD_HOLDERS is not a u32"));
}

TEST(DecodeStats, RejectsAnIommuFaultCounterSentAsU32)
{
	Stats without = sample_stats;
	without.iommu_faults_unowned.reset();
	auto reply = stats_reply(without);
	reply.put_u32(EDGEDMA_A_STATS_IOMMU_FAULTS_UNOWNED, 1);
	EXPECT_EQ(decode_error(reply.attributes()),
		  "EDGEDMA_A_STATS_IOMMU_FAULTS_UNOWNED has 4 bytes, expected 8 (u64)");
}

TEST(DecodeStats, KeepsZeroSnapshotCountersApartFromMissingOnes)
{
	// No snapshot taken yet: the module sends 0.
	Stats none_yet = sample_stats;
	none_yet.snapshots = 0;
	none_yet.snapshots_suppressed = 0;
	none_yet.snapshots_dropped = 0;
	none_yet.snapshots_truncated = 0;
	EXPECT_EQ(decode_stats(stats_reply(none_yet).attributes()), none_yet);
}

TEST(DecodeStats, RejectsASnapshotCounterSentAsU32)
{
	Stats without = sample_stats;
	without.snapshots_dropped.reset();
	auto reply = stats_reply(without);
	reply.put_u32(EDGEDMA_A_STATS_SNAPSHOTS_DROPPED, 1);
	EXPECT_EQ(decode_error(reply.attributes()),
		  "EDGEDMA_A_STATS_SNAPSHOTS_DROPPED has 4 bytes, expected 8 (u64)");
}

TEST(DecodeStats, KeepsZeroFoldingCountersApartFromMissingOnes)
{
	// fold_findings=0, or nothing found yet: the module sends 0.
	Stats unfolded = sample_stats;
	unfolded.findings_folded = 0;
	unfolded.finding_sites = 0;
	unfolded.finding_sites_full = 0;
	Stats decoded = decode_stats(stats_reply(unfolded).attributes());
	EXPECT_EQ(decoded.findings_folded, std::optional<std::uint64_t>(0));
	EXPECT_EQ(decoded.finding_sites, std::optional<std::uint64_t>(0));
	EXPECT_EQ(decoded.finding_sites_full, std::optional<std::uint64_t>(0));
}

TEST(DecodeStats, RejectsFindingsFoldedSentAsU32)
{
	Stats without = sample_stats;
	without.findings_folded.reset();
	auto reply = stats_reply(without);
	reply.put_u32(EDGEDMA_A_STATS_FINDINGS_FOLDED, 1);
	EXPECT_EQ(decode_error(reply.attributes()),
		  "EDGEDMA_A_STATS_FINDINGS_FOLDED has 4 bytes, expected 8 (u64)");
}

TEST(DecodeStats, KeepsAZeroIrqsoffMaximumApartFromAMissingOne)
{
	// 0 is what the module sends when it was not asked to time its hooks.
	Stats untimed = sample_stats;
	untimed.irqsoff_max_ns = 0;
	untimed.translations_skipped = 0;
	Stats decoded = decode_stats(stats_reply(untimed).attributes());
	EXPECT_EQ(decoded.irqsoff_max_ns, std::optional<std::uint64_t>(0));
	EXPECT_EQ(decoded.translations_skipped, std::optional<std::uint64_t>(0));
}

TEST(DecodeStats, RejectsTranslationsSkippedSentAsU32)
{
	Stats without = sample_stats;
	without.translations_skipped.reset();
	auto reply = stats_reply(without);
	reply.put_u32(EDGEDMA_A_STATS_TRANSLATIONS_SKIPPED, 1);
	EXPECT_EQ(decode_error(reply.attributes()),
		  "EDGEDMA_A_STATS_TRANSLATIONS_SKIPPED has 4 bytes, expected 8 (u64)");
}

TEST(DecodeStats, SkipsCountersItDoesNotKnow)
{
	auto reply = stats_reply(sample_stats);
	reply.put_u64(EDGEDMA_A_STATS_MAX + 1, 42).put_string(EDGEDMA_A_STATS_MAX + 7, "new");
	EXPECT_EQ(decode_stats(reply.attributes()), sample_stats);
}

TEST(DecodeStats, NamesEachMissingCounter)
{
	for (const auto &counter : counters) {
		SCOPED_TRACE(counter.name);
		EXPECT_EQ(decode_error(stats_reply(sample_stats, counter.type).attributes()),
			  std::string("missing ") + counter.name);
	}
}

TEST(DecodeStats, RejectsU64SentAsU32)
{
	auto reply = stats_reply(sample_stats, EDGEDMA_A_STATS_REQUESTS);
	reply.put_u32(EDGEDMA_A_STATS_REQUESTS, 1);
	EXPECT_EQ(decode_error(reply.attributes()),
		  "EDGEDMA_A_STATS_REQUESTS has 4 bytes, expected 8 (u64)");
}

} // namespace decode_stats_test
} // namespace edgedma::test
