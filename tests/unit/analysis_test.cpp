// SPDX-License-Identifier: GPL-2.0
//
// The Analyzer behind `edgedma report` and `edgedma replay`: findings
// grouped, the timeline's buckets widened and moved without losing or
// misplacing an event whatever order events come in, memory bounded, losses
// carried into the summary.
#include <algorithm>
#include <bit>
#include <numeric>
#include <random>

#include <gtest/gtest.h>

#include <linux/edgedma.h>

#include <edgedma/analysis.hpp>
#include <edgedma/recording.hpp>

#include "record_messages.hpp"

namespace edgedma::test {
namespace analysis_test {

MapEvent map_event(const std::string &device, std::uint64_t time_ns,
		   std::uint32_t call = EDGEDMA_CALL_MAP_PAGE, std::uint64_t size = 4096)
{
	MapEvent event;
	event.cpu = 0;
	event.seq = 1;
	event.time_ns = time_ns;
	event.call = call;
	event.device = device;
	event.driver = "edgedma_test_edu";
	event.dma_addr = 0x1000;
	event.size = size;
	event.caller = 0xffffffffc0a01234;
	return event;
}

Finding finding_of(std::uint64_t seq, std::uint64_t time_ns, std::uint32_t kind,
		   const std::string &device, const std::string &driver)
{
	Finding finding = sample_finding(seq, device);
	finding.time_ns = time_ns;
	finding.kind = kind;
	finding.driver = driver;
	return finding;
}

std::uint64_t sum(const std::vector<std::uint64_t> &values)
{
	return std::accumulate(values.begin(), values.end(), std::uint64_t{0});
}

// Every event in the bucket its time says, and the buckets' shape as the
// summary promises it.
void expect_exact_timeline(const Summary &summary, const std::vector<MapEvent> &events,
			   std::uint32_t time_buckets)
{
	ASSERT_GT(summary.bucket_count, 0u);
	EXPECT_LE(summary.bucket_count, time_buckets);
	EXPECT_TRUE(std::has_single_bit(summary.bucket_ns));
	EXPECT_EQ(summary.timeline_start_ns % summary.bucket_ns, 0u);
	EXPECT_LE(summary.timeline_start_ns, summary.start_ns);
	EXPECT_LT((summary.end_ns - summary.timeline_start_ns) / summary.bucket_ns,
		  summary.bucket_count);

	std::map<std::string, std::vector<std::uint64_t>> expected;
	for (const DeviceTimeline &device : summary.devices)
		expected[device.device].assign(summary.bucket_count, 0);
	for (const MapEvent &event : events)
		expected.at(event.device)
			.at((event.time_ns - summary.timeline_start_ns) / summary.bucket_ns)++;
	for (const DeviceTimeline &device : summary.devices)
		EXPECT_EQ(device.maps, expected.at(device.device)) << device.device;
}

Summary analyze(const std::vector<MapEvent> &events, const AnalysisOptions &options = {})
{
	Analyzer analyzer(options);
	for (const MapEvent &event : events)
		analyzer.add(event);
	return analyzer.summary();
}

TEST(Analyzer, GroupsFindingsByDriverAndKind)
{
	AnalysisOptions options;
	options.examples_per_group = 2;
	Analyzer analyzer(options);
	// Out of seq order on purpose: the examples are the first by seq.
	analyzer.add(finding_of(4, 4000, EDGEDMA_FINDING_ADDR_MISALIGNED, "0000:00:05.0", "edu"));
	analyzer.add(finding_of(1, 1000, EDGEDMA_FINDING_ADDR_MISALIGNED, "0000:00:04.0", "edu"));
	analyzer.add(finding_of(3, 3000, EDGEDMA_FINDING_ADDR_MISALIGNED, "0000:00:04.0", "edu"));
	analyzer.add(finding_of(2, 2000, EDGEDMA_FINDING_LEAK, "0000:00:04.0", "edu"));
	analyzer.add(finding_of(5, 5000, EDGEDMA_FINDING_DOUBLE_UNMAP, "nvme0", "nvme"));
	analyzer.add(finding_of(6, 6000, EDGEDMA_FINDING_LEAK, "platform-dma", ""));
	Summary summary = analyzer.summary();

	EXPECT_EQ(summary.findings_total, 6u);
	// Without counts from the module, each finding stands for itself.
	EXPECT_EQ(summary.occurrences_total, 6u);
	ASSERT_EQ(summary.groups.size(), 4u);
	// By driver, then kind; "" (no driver) first.
	EXPECT_EQ(summary.groups[0].driver, "");
	EXPECT_EQ(summary.groups[0].kind, static_cast<std::uint32_t>(EDGEDMA_FINDING_LEAK));
	const FindingGroup &misaligned = summary.groups[1];
	EXPECT_EQ(misaligned.driver, "edu");
	EXPECT_EQ(misaligned.kind, static_cast<std::uint32_t>(EDGEDMA_FINDING_ADDR_MISALIGNED));
	EXPECT_EQ(misaligned.count, 3u);
	EXPECT_EQ(misaligned.logged, 3u);
	EXPECT_EQ(misaligned.devices, (std::vector<std::string>{"0000:00:04.0", "0000:00:05.0"}));
	EXPECT_EQ(misaligned.first_ns, 1000u);
	EXPECT_EQ(misaligned.last_ns, 4000u);
	ASSERT_EQ(misaligned.examples.size(), 2u);
	EXPECT_EQ(misaligned.examples[0].seq, 1u);
	EXPECT_EQ(misaligned.examples[1].seq, 3u);
	EXPECT_EQ(summary.groups[2].driver, "edu");
	EXPECT_EQ(summary.groups[2].kind, static_cast<std::uint32_t>(EDGEDMA_FINDING_LEAK));
	EXPECT_EQ(summary.groups[3].driver, "nvme");

	// Findings also land in their device's timeline.
	ASSERT_EQ(summary.devices.size(), 4u);
	EXPECT_EQ(summary.devices[0].device, "0000:00:04.0");
	EXPECT_EQ(summary.devices[0].total_findings, 3u);
	EXPECT_EQ(sum(summary.devices[0].findings), 3u);
}

// finding_of() as the module sends the logged finding of a site found
// occurrences times, the latest at last_ns.
Finding counted_finding(std::uint64_t seq, std::uint64_t time_ns, std::uint64_t occurrences,
			std::uint64_t last_ns, const std::string &device = "0000:00:04.0")
{
	Finding finding =
		finding_of(seq, time_ns, EDGEDMA_FINDING_ADDR_MISALIGNED, device, "edu");
	finding.occurrences = occurrences;
	finding.last_time_ns = last_ns;
	return finding;
}

TEST(Analyzer, AFoldedFindingCountsAsItsOccurrences)
{
	Analyzer analyzer;
	// A storm at one site, folded into seq 1; one finding elsewhere that
	// the module did not count (stands for 1).
	analyzer.add(counted_finding(1, 1000, 4103, 2'100'001'000));
	analyzer.add(finding_of(2, 5000, EDGEDMA_FINDING_ADDR_MISALIGNED, "0000:00:05.0", "edu"));
	Summary summary = analyzer.summary();

	EXPECT_EQ(summary.occurrences_total, 4104u);
	EXPECT_EQ(summary.findings_total, 2u);
	ASSERT_EQ(summary.groups.size(), 1u);
	const FindingGroup &group = summary.groups[0];
	EXPECT_EQ(group.count, 4104u);
	EXPECT_EQ(group.logged, 2u);
	EXPECT_EQ(group.first_ns, 1000u);
	// The latest occurrence, not the latest logged finding.
	EXPECT_EQ(group.last_ns, 2'100'001'000u);
	ASSERT_EQ(group.examples.size(), 2u);
	EXPECT_EQ(group.examples[0].occurrences, std::optional<std::uint64_t>(4103));

	// The timeline counts log entries, at their time.
	ASSERT_EQ(summary.devices.size(), 2u);
	EXPECT_EQ(summary.devices[0].total_findings, 1u);
	EXPECT_EQ(sum(summary.devices[0].findings), 1u);
	EXPECT_EQ(summary.devices[1].total_findings, 1u);
}

TEST(Analyzer, ALastTimeBeforeTheFindingsOwnLeavesLastNsAtTheFinding)
{
	Analyzer analyzer;
	analyzer.add(counted_finding(1, 9000, 2, 8990));
	Summary summary = analyzer.summary();
	ASSERT_EQ(summary.groups.size(), 1u);
	EXPECT_EQ(summary.groups[0].last_ns, 9000u);
	EXPECT_EQ(summary.groups[0].count, 2u);
}

TEST(Analyzer, EntriesOfOneUnfoldedSiteCountTheSiteOnce)
{
	// fold_findings=0: every occurrence is logged, and a dump gives each
	// entry of the site the site's count then.
	Analyzer dumped;
	for (std::uint64_t seq = 1; seq <= 5; seq++)
		dumped.add(counted_finding(seq, seq * 1000, 5, 5000));
	Summary summary = dumped.summary();
	EXPECT_EQ(summary.occurrences_total, 5u);
	EXPECT_EQ(summary.findings_total, 5u);
	ASSERT_EQ(summary.groups.size(), 1u);
	EXPECT_EQ(summary.groups[0].count, 5u);
	EXPECT_EQ(summary.groups[0].logged, 5u);
	EXPECT_EQ(summary.devices[0].total_findings, 5u);
	EXPECT_EQ(sum(summary.devices[0].findings), 5u);

	// As notified one by one (a recording), each with the count when sent,
	// in any order.
	Analyzer notified;
	for (std::uint64_t seq : {2u, 1u, 5u, 3u, 4u})
		notified.add(counted_finding(seq, seq * 1000, seq, seq * 1000));
	EXPECT_EQ(notified.summary().groups[0].count, 5u);
	EXPECT_EQ(notified.summary().occurrences_total, 5u);
	EXPECT_EQ(notified.summary().findings_total, 5u);
}

TEST(Analyzer, SitesAreCountedApart)
{
	Analyzer analyzer;
	// Same device and kind, another caller: another site.
	Finding other_caller = counted_finding(2, 2000, 7, 3000);
	other_caller.caller = 0xffffffffc0a01800;
	analyzer.add(counted_finding(1, 1000, 10, 4000));
	analyzer.add(other_caller);
	// Another device, same caller: another site too.
	analyzer.add(counted_finding(3, 3000, 20, 5000, "0000:00:05.0"));
	// Another kind at the first site's device and caller.
	Finding leak = counted_finding(4, 4000, 3, 6000);
	leak.kind = EDGEDMA_FINDING_LEAK;
	analyzer.add(leak);
	// The first site again (fold_findings turned off meanwhile): its count
	// grew to 12, of which the 10 were already counted.
	analyzer.add(counted_finding(5, 6000, 12, 6000));
	Summary summary = analyzer.summary();

	ASSERT_EQ(summary.groups.size(), 2u);
	EXPECT_EQ(summary.groups[0].kind, static_cast<std::uint32_t>(EDGEDMA_FINDING_ADDR_MISALIGNED));
	EXPECT_EQ(summary.groups[0].count, 12u + 7u + 20u);
	EXPECT_EQ(summary.groups[0].logged, 4u);
	EXPECT_EQ(summary.groups[0].last_ns, 6000u);
	EXPECT_EQ(summary.groups[1].count, 3u);
	EXPECT_EQ(summary.occurrences_total, 12u + 7u + 20u + 3u);
	EXPECT_EQ(summary.findings_total, 5u);
	EXPECT_EQ(summary.devices[0].total_findings, 4u);
	EXPECT_EQ(summary.devices[1].total_findings, 1u);
}

TEST(Analyzer, ASiteCountsAtLeastItsEntries)
{
	// The module retired the site (its module unloaded) and made it anew
	// for a module loaded at the same address: the new count starts at 1,
	// but every entry was an occurrence.
	Analyzer analyzer;
	analyzer.add(counted_finding(1, 1000, 3, 2000));
	analyzer.add(counted_finding(2, 3000, 1, 3000));
	analyzer.add(counted_finding(3, 4000, 1, 4000));
	analyzer.add(counted_finding(4, 5000, 1, 5000));
	Summary summary = analyzer.summary();
	EXPECT_EQ(summary.groups[0].count, 4u);
	EXPECT_EQ(summary.occurrences_total, 4u);
}

FindingRepeats repeats_of(const Finding &finding, std::uint64_t occurrences,
			  std::uint64_t last_ns)
{
	return FindingRepeats{finding.seq, finding.kind, finding.device, finding.driver,
			      occurrences, last_ns};
}

TEST(Analyzer, ALaterCountOfASiteCountsInItsGroupAndItsFinding)
{
	// A recording: the finding as notified (found 3 times by then), then
	// the module's FINDING_REPEATS of it as the storm went on.
	Analyzer analyzer;
	Finding storm = counted_finding(1, 1000, 3, 1500);
	analyzer.add(storm);
	analyzer.add(finding_of(2, 5000, EDGEDMA_FINDING_ADDR_MISALIGNED, "0000:00:05.0", "edu"));
	analyzer.add(repeats_of(storm, 1200, 1'000'001'000));
	analyzer.add(repeats_of(storm, 4103, 2'100'001'000));
	Summary summary = analyzer.summary();

	EXPECT_EQ(summary.occurrences_total, 4104u);
	EXPECT_EQ(summary.findings_total, 2u); // repeats are no log entries
	ASSERT_EQ(summary.groups.size(), 1u);
	EXPECT_EQ(summary.groups[0].count, 4104u);
	EXPECT_EQ(summary.groups[0].logged, 2u);
	EXPECT_EQ(summary.groups[0].last_ns, 2'100'001'000u);
	// The finding, wherever the summary keeps it, says the final count.
	ASSERT_EQ(summary.groups[0].examples.size(), 2u);
	EXPECT_EQ(summary.groups[0].examples[0].occurrences, std::optional<std::uint64_t>(4103));
	EXPECT_EQ(summary.groups[0].examples[0].last_time_ns,
		  std::optional<std::uint64_t>(2'100'001'000));
	EXPECT_FALSE(summary.groups[0].examples[1].occurrences);
	ASSERT_EQ(summary.findings.size(), 2u);
	EXPECT_EQ(summary.findings[0].occurrences, std::optional<std::uint64_t>(4103));
	// Neither timeline nor span moves: repeats have no time of their own
	// but the latest, which the group says.
	EXPECT_EQ(summary.end_ns, 5000u);
	EXPECT_EQ(summary.devices[0].total_findings, 1u);
}

TEST(Analyzer, AStaleRepeatChangesNothing)
{
	Analyzer analyzer;
	Finding storm = counted_finding(1, 1000, 50, 9000);
	analyzer.add(storm);
	analyzer.add(repeats_of(storm, 40, 8000)); // sent before the log was read
	Summary summary = analyzer.summary();
	EXPECT_EQ(summary.groups[0].count, 50u);
	EXPECT_EQ(summary.groups[0].last_ns, 9000u);
	EXPECT_EQ(summary.findings[0].occurrences, std::optional<std::uint64_t>(50));
	EXPECT_EQ(summary.findings[0].last_time_ns, std::optional<std::uint64_t>(9000));
}

TEST(Analyzer, ARepeatBeforeItsFindingCountsWhenTheFindingComes)
{
	// The finding's notification was lost and it was read from the log
	// after its repeats came.
	Analyzer analyzer;
	Finding storm = counted_finding(7, 1000, 10, 2000);
	analyzer.add(repeats_of(storm, 30, 5000));
	Summary before = analyzer.summary();
	EXPECT_EQ(before.occurrences_total, 0u);
	EXPECT_TRUE(before.groups.empty());
	analyzer.add(storm);
	Summary summary = analyzer.summary();
	EXPECT_EQ(summary.occurrences_total, 30u);
	ASSERT_EQ(summary.groups.size(), 1u);
	EXPECT_EQ(summary.groups[0].count, 30u);
	EXPECT_EQ(summary.groups[0].last_ns, 5000u);
	EXPECT_EQ(summary.findings[0].occurrences, std::optional<std::uint64_t>(30));
}

TEST(Analyzer, RepeatsOfAFindingNotRecordedOrNotCountedCountNowhere)
{
	Analyzer analyzer;
	// Not counted by the module: no site, and no repeats for it.
	Finding uncounted = sample_finding(2);
	analyzer.add(uncounted);
	analyzer.add(repeats_of(uncounted, 99, 5000));
	// Of a finding from before the recording.
	analyzer.add(repeats_of(counted_finding(1, 10, 5, 20), 77, 30));
	Summary summary = analyzer.summary();
	EXPECT_EQ(summary.occurrences_total, 1u);
	ASSERT_EQ(summary.groups.size(), 1u);
	EXPECT_EQ(summary.groups[0].count, 1u);
	EXPECT_FALSE(summary.findings[0].occurrences);
}

TEST(Analyzer, RepeatsCountPerSiteByTheSeqOfItsFinding)
{
	Analyzer analyzer;
	Finding first = counted_finding(1, 1000, 2, 1000);
	Finding other = counted_finding(2, 2000, 2, 2000);
	other.caller = 0xffffffffc0a01800; // another site
	Finding leak = counted_finding(3, 3000, 1, 3000);
	leak.kind = EDGEDMA_FINDING_LEAK;
	for (const Finding &finding : {first, other, leak})
		analyzer.add(finding);
	analyzer.add(repeats_of(other, 10, 9000));
	analyzer.add(repeats_of(leak, 4, 8000));
	analyzer.add(repeats_of(other, 12, 9500));
	Summary summary = analyzer.summary();
	ASSERT_EQ(summary.groups.size(), 2u);
	EXPECT_EQ(summary.groups[0].count, 2u + 12u);
	EXPECT_EQ(summary.groups[0].last_ns, 9500u);
	EXPECT_EQ(summary.groups[1].count, 4u);
	EXPECT_EQ(summary.occurrences_total, 18u);
	ASSERT_EQ(summary.findings.size(), 3u);
	EXPECT_EQ(summary.findings[0].occurrences, std::optional<std::uint64_t>(2));
	EXPECT_EQ(summary.findings[1].occurrences, std::optional<std::uint64_t>(12));
	EXPECT_EQ(summary.findings[2].occurrences, std::optional<std::uint64_t>(4));
}

TEST(AnalyzeRecording, ARecordingShowsTheFinalCountOfEachSite)
{
	Finding storm = counted_finding(1, 1000, 1, 1000);
	std::vector<Record> records{storm, repeats_of(storm, 600, 1'000'000'000),
				    repeats_of(storm, 4103, 2'000'000'000)};
	std::vector<std::byte> bytes = encode_recording({}, records);
	RecordingReader reader{std::span<const std::byte>(bytes)};
	Summary summary = analyze_recording(reader, "memory");
	EXPECT_EQ(summary.occurrences_total, 4103u);
	EXPECT_EQ(summary.findings_total, 1u);
	EXPECT_EQ(summary.groups[0].examples[0].occurrences, std::optional<std::uint64_t>(4103));
	EXPECT_EQ(summary.records_skipped, 0u);
}

TEST(Analyzer, KeepsTheFindingsOfLowestSeqInOrder)
{
	AnalysisOptions options;
	options.findings_kept = 3;
	Analyzer analyzer(options);
	for (std::uint64_t seq : {7u, 5u, 9u, 1u, 3u, 2u, 8u})
		analyzer.add(finding_of(seq, seq * 10, EDGEDMA_FINDING_LEAK, "dev", "drv"));
	Summary summary = analyzer.summary();
	ASSERT_EQ(summary.findings.size(), 3u);
	EXPECT_EQ(summary.findings[0].seq, 1u);
	EXPECT_EQ(summary.findings[1].seq, 2u);
	EXPECT_EQ(summary.findings[2].seq, 3u);
	EXPECT_EQ(summary.findings_total, 7u);
}

TEST(Analyzer, CountsCallsByWhatTheyDo)
{
	Analyzer analyzer;
	analyzer.add(map_event("dev", 100, EDGEDMA_CALL_MAP_PAGE, 4096));
	analyzer.add(map_event("dev", 110, EDGEDMA_CALL_MAP_SG, 8192));
	analyzer.add(map_event("dev", 120, EDGEDMA_CALL_ALLOC_COHERENT, 100));
	analyzer.add(map_event("dev", 130, EDGEDMA_CALL_UNMAP_PAGE, 4096));
	analyzer.add(map_event("dev", 140, EDGEDMA_CALL_FREE_COHERENT, 100));
	analyzer.add(map_event("dev", 150, EDGEDMA_CALL_SYNC_SINGLE_FOR_CPU, 4096));
	analyzer.add(map_event("dev", 160, 99, 4096)); // a call from a newer module
	Summary summary = analyzer.summary();
	ASSERT_EQ(summary.devices.size(), 1u);
	const DeviceTimeline &device = summary.devices[0];
	EXPECT_EQ(device.total_bytes_mapped, 4096u + 8192u + 100u);
	EXPECT_EQ(sum(device.bytes_mapped), device.total_bytes_mapped);
	EXPECT_EQ(sum(device.maps), 3u);
	EXPECT_EQ(sum(device.unmaps), 2u);
	EXPECT_EQ(sum(device.syncs), 1u);
	EXPECT_EQ(device.total_calls, 7u);
	EXPECT_EQ(summary.map_events_total, 7u);
	EXPECT_EQ(summary.start_ns, 100u);
	EXPECT_EQ(summary.end_ns, 160u);
	// All within one microsecond: one bucket of the narrowest width.
	EXPECT_EQ(summary.bucket_count, 1u);
	EXPECT_EQ(summary.bucket_ns, 1024u);
}

TEST(Analyzer, WidensBucketsAsTheSpanGrows)
{
	AnalysisOptions options;
	options.time_buckets = 16;
	std::vector<MapEvent> events;
	// From a microsecond apart to seconds apart: many widenings.
	std::uint64_t time = 5'000'000'000;
	for (int i = 0; i < 200; i++) {
		events.push_back(map_event(i % 3 ? "a" : "b", time));
		time += 1000ull << (i / 8);
	}
	Summary summary = analyze(events, options);
	expect_exact_timeline(summary, events, options.time_buckets);
	// Half the window at least: widening goes no further than it must.
	EXPECT_GT(summary.bucket_count, options.time_buckets / 2);
	EXPECT_EQ(summary.start_ns, events.front().time_ns);
	EXPECT_EQ(summary.end_ns, events.back().time_ns);
}

TEST(Analyzer, CopesWithEventsBeforeTheFirstOne)
{
	AnalysisOptions options;
	options.time_buckets = 32;
	std::vector<MapEvent> events;
	for (std::uint64_t i = 0; i < 500; i++)
		events.push_back(map_event(i % 2 ? "a" : "b", 9'000'000'000 - i * 7'919'000));
	Summary backwards = analyze(events, options);
	expect_exact_timeline(backwards, events, options.time_buckets);
	EXPECT_EQ(backwards.start_ns, events.back().time_ns);
	EXPECT_EQ(backwards.end_ns, events.front().time_ns);
}

TEST(Analyzer, TimelineDoesNotDependOnTheOrderOfEvents)
{
	AnalysisOptions options;
	options.time_buckets = 64;
	std::mt19937_64 random(42);
	std::vector<MapEvent> events;
	const char *devices[] = {"0000:00:04.0", "0000:00:05.0", "nvme0"};
	for (int i = 0; i < 5000; i++) {
		// Bursts: most events close together, some far out on either side.
		std::uint64_t spread = (i % 50 == 0) ? 60'000'000'000ull : 2'000'000ull;
		std::uint64_t time = 100'000'000'000ull + random() % spread - spread / 2;
		events.push_back(map_event(devices[random() % 3], time, EDGEDMA_CALL_MAP_PAGE,
					   random() % 65536));
	}
	std::vector<MapEvent> sorted = events;
	std::ranges::sort(sorted, {}, &MapEvent::time_ns);
	std::vector<MapEvent> reversed(sorted.rbegin(), sorted.rend());

	Summary shuffled_summary = analyze(events, options);
	Summary sorted_summary = analyze(sorted, options);
	Summary reversed_summary = analyze(reversed, options);
	expect_exact_timeline(shuffled_summary, events, options.time_buckets);
	for (const Summary *other : {&sorted_summary, &reversed_summary}) {
		EXPECT_EQ(other->timeline_start_ns, shuffled_summary.timeline_start_ns);
		EXPECT_EQ(other->bucket_ns, shuffled_summary.bucket_ns);
		EXPECT_EQ(other->bucket_count, shuffled_summary.bucket_count);
		ASSERT_EQ(other->devices.size(), shuffled_summary.devices.size());
		for (std::size_t i = 0; i < other->devices.size(); i++) {
			EXPECT_EQ(other->devices[i].maps, shuffled_summary.devices[i].maps);
			EXPECT_EQ(other->devices[i].bytes_mapped,
				  shuffled_summary.devices[i].bytes_mapped);
		}
	}
}

TEST(Analyzer, CopesWithTheWholeRangeOfTime)
{
	AnalysisOptions options;
	options.time_buckets = 1; // taken as 2, the least that can hold any span
	std::vector<MapEvent> events{map_event("a", 5'000), map_event("a", UINT64_MAX),
				     map_event("b", 0), map_event("b", UINT64_MAX / 2)};
	Summary summary = analyze(events, options);
	expect_exact_timeline(summary, events, 2);
	EXPECT_EQ(summary.start_ns, 0u);
	EXPECT_EQ(summary.end_ns, UINT64_MAX);
}

TEST(Analyzer, StaysBoundedWithAMillionEvents)
{
	AnalysisOptions options; // 240 buckets, 8 examples, 10000 findings kept
	Analyzer analyzer(options);
	const std::uint64_t events = 1'000'000;
	const std::string devices[] = {"0000:00:04.0", "0000:00:05.0", "0000:01:00.0", "nvme0"};
	MapEvent event = map_event(devices[0], 0);
	std::uint64_t bytes = 0;
	for (std::uint64_t i = 0; i < events; i++) {
		event.device = devices[(i / 64) % 4];
		event.time_ns = 1'000'000'000ull + i * 13'000;
		event.call = i % 2 ? EDGEDMA_CALL_UNMAP_PAGE : EDGEDMA_CALL_MAP_PAGE;
		event.size = 512 + i % 4096;
		if (event.call == EDGEDMA_CALL_MAP_PAGE)
			bytes += event.size;
		analyzer.add(event);
		if (i % 20 == 0)
			analyzer.add(finding_of(i / 20 + 1, event.time_ns,
						static_cast<std::uint32_t>(
							EDGEDMA_FINDING_ADDR_MISALIGNED + (i / 20) % 3),
						event.device, "edu"));
	}
	Summary summary = analyzer.summary();
	EXPECT_EQ(summary.map_events_total, events);
	EXPECT_EQ(summary.findings_total, events / 20);
	EXPECT_LE(summary.bucket_count, options.time_buckets);
	EXPECT_EQ(summary.findings.size(), options.findings_kept);
	EXPECT_EQ(summary.findings.back().seq, options.findings_kept);
	ASSERT_EQ(summary.groups.size(), 3u);
	for (const FindingGroup &group : summary.groups)
		EXPECT_EQ(group.examples.size(), options.examples_per_group);
	ASSERT_EQ(summary.devices.size(), 4u);
	std::uint64_t bytes_seen = 0, calls_seen = 0, findings_seen = 0;
	for (const DeviceTimeline &device : summary.devices) {
		EXPECT_EQ(device.bytes_mapped.size(), summary.bucket_count);
		EXPECT_EQ(device.findings.size(), summary.bucket_count);
		bytes_seen += sum(device.bytes_mapped);
		calls_seen += sum(device.maps) + sum(device.unmaps);
		findings_seen += sum(device.findings);
	}
	EXPECT_EQ(bytes_seen, bytes);
	EXPECT_EQ(calls_seen, events);
	EXPECT_EQ(findings_seen, events / 20);
}

TEST(Analyzer, CarriesLosses)
{
	AnalysisOptions options;
	options.losses_kept = 2;
	Analyzer analyzer(options);
	analyzer.add(Loss{10, 12, Loss::Cause::gap});
	analyzer.add(Loss{20, 20, Loss::Cause::overflow});
	analyzer.add(Loss{30, 39, Loss::Cause::gap});
	analyzer.add(MapEventLoss{0, 100, 109});
	analyzer.add(MapEventLoss{1, 5, 6});
	RecordingEnd end;
	end.map_events_lost = 12;
	end.map_events_lost_in_kernel = 10;
	end.findings_lost = 14;
	analyzer.add(end);
	analyzer.set_reader_state(3, false);
	Summary summary = analyzer.summary();

	EXPECT_EQ(summary.findings_lost, 3u + 1u + 10u);
	ASSERT_EQ(summary.losses.size(), 2u);
	EXPECT_EQ(summary.losses[1].cause, Loss::Cause::overflow);
	EXPECT_EQ(summary.map_events_lost, 12u);
	EXPECT_EQ(summary.map_events_lost_in_kernel, 10u);
	ASSERT_EQ(summary.map_event_losses.size(), 2u);
	EXPECT_EQ(summary.map_event_losses[0].count(), 10u);
	EXPECT_EQ(summary.records_skipped, 3u);
	EXPECT_FALSE(summary.recording_complete);
}

TEST(Analyzer, TheRecordingEndCountsLossesTheRecordsMissed)
{
	Analyzer analyzer;
	analyzer.add(MapEventLoss{0, 1, 4});
	RecordingEnd end;
	end.map_events_lost = 9;
	end.map_events_lost_in_kernel = 2;
	analyzer.add(end);
	Summary summary = analyzer.summary();
	EXPECT_EQ(summary.map_events_lost, 9u);
	EXPECT_EQ(summary.map_events_lost_in_kernel, 2u);
	EXPECT_TRUE(summary.recording_complete);
}

TEST(Analyzer, KeepsWhatTheRecordingSaysAboutTheMachine)
{
	Analyzer analyzer;
	analyzer.set_source("bench.edr");
	analyzer.set_recorded_at(1'700'000'000'000'000'000);
	Info info;
	info.module_version = "0.4.0";
	info.kernel_release = "6.1.0-21-amd64";
	analyzer.add(info);
	Stats start_stats, end_stats;
	start_stats.calls = 1;
	end_stats.calls = 99;
	analyzer.add(StatsSnapshot{StatsSnapshot::When::start, start_stats});
	analyzer.add(StatsSnapshot{StatsSnapshot::When::end, end_stats});
	Policy policy;
	policy.target = {PolicyTarget::Kind::device, "0000:00:04.0"};
	policy.addr_align = 64;
	analyzer.add(DevicePolicy{policy});
	policy.target = {PolicyTarget::Kind::driver, "edu"};
	analyzer.add(PolicyOverride{policy});
	Mapping mapping;
	mapping.device = "0000:00:04.0";
	mapping.driver = "edu";
	mapping.size = 4096;
	analyzer.add(LiveMapping{mapping});
	// Two segments of one scatter-gather mapping.
	mapping.sg_count = 2;
	mapping.sg_index = 0;
	analyzer.add(LiveMapping{mapping});
	mapping.sg_index = 1;
	analyzer.add(LiveMapping{mapping});
	analyzer.add(SymbolTable{"ffffffffc0a00000 t edu_map\t[edu]\n"});
	Summary summary = analyzer.summary();

	EXPECT_EQ(summary.source, "bench.edr");
	EXPECT_EQ(summary.recorded_unix_ns, 1'700'000'000'000'000'000u);
	ASSERT_TRUE(summary.info);
	EXPECT_EQ(summary.info->kernel_release, "6.1.0-21-amd64");
	ASSERT_TRUE(summary.stats_end);
	EXPECT_EQ(summary.stats_end->calls, 99u);
	ASSERT_EQ(summary.device_policies.size(), 1u);
	EXPECT_EQ(summary.device_policies[0].addr_align, 64u);
	ASSERT_EQ(summary.policy_overrides.size(), 1u);
	EXPECT_EQ(summary.live_mappings_at_start, 3u);
	ASSERT_EQ(summary.devices.size(), 1u);
	EXPECT_EQ(summary.devices[0].live_mappings, 2u);
	EXPECT_EQ(summary.devices[0].live_bytes, 3u * 4096u);
	EXPECT_EQ(summary.devices[0].driver, "edu");
	// Mappings made before the recording are no activity in it.
	EXPECT_EQ(summary.bucket_count, 0u);
	EXPECT_EQ(summary.kallsyms, "ffffffffc0a00000 t edu_map\t[edu]\n");
}

TEST(Analyzer, LearnsADriverBoundAfterTheFirstCalls)
{
	Analyzer analyzer;
	MapEvent event = map_event("0000:00:04.0", 1000);
	event.driver = "";
	analyzer.add(event);
	event.driver = "edu";
	analyzer.add(event);
	event.driver = "";
	analyzer.add(event);
	Summary summary = analyzer.summary();
	ASSERT_EQ(summary.devices.size(), 1u);
	EXPECT_EQ(summary.devices[0].driver, "edu");
}

TEST(Analyzer, NothingAddedGivesAnEmptySummary)
{
	Summary summary = Analyzer().summary();
	EXPECT_EQ(summary.bucket_count, 0u);
	EXPECT_TRUE(summary.devices.empty());
	EXPECT_TRUE(summary.groups.empty());
	EXPECT_TRUE(summary.recording_complete);
}

TEST(AnalyzeRecording, ReadsEveryRecordAndTheReaderState)
{
	RecordingHeader header;
	header.created_unix_ns = 1'700'000'000'123'456'789;
	std::vector<Record> records;
	Info info;
	info.module_version = "0.4.0";
	info.record_format = EDGEDMA_RECORD_FORMAT_VERSION;
	records.emplace_back(info);
	for (std::uint64_t i = 0; i < 40000; i++)
		records.emplace_back(map_event(i % 2 ? "a" : "b", 1'000'000 + i * 100));
	records.emplace_back(finding_of(1, 1'500'000, EDGEDMA_FINDING_LEAK, "a", "edu"));
	records.emplace_back(SymbolTable{"ffffffffc0a00000 t edu_map\t[edu]\n"});
	RecordingEnd end;
	end.map_events = 40000;
	end.findings = 1;
	records.emplace_back(end);
	std::vector<std::byte> bytes = encode_recording(header, records);

	RecordingReader reader{std::span<const std::byte>(bytes)};
	std::uint64_t calls = 0, last_records = 0, last_offset = 0;
	Summary summary = analyze_recording(
		reader, "memory", {},
		[&](std::uint64_t offset, std::uint64_t size, std::uint64_t count) {
			calls++;
			EXPECT_EQ(size, bytes.size());
			EXPECT_GE(offset, last_offset);
			last_offset = offset;
			last_records = count;
		});
	EXPECT_GE(calls, 2u);
	EXPECT_EQ(last_records, records.size());
	EXPECT_EQ(last_offset, bytes.size());
	EXPECT_EQ(summary.source, "memory");
	EXPECT_EQ(summary.recorded_unix_ns, header.created_unix_ns);
	EXPECT_EQ(summary.map_events_total, 40000u);
	EXPECT_EQ(summary.findings_total, 1u);
	EXPECT_TRUE(summary.recording_complete);
	EXPECT_EQ(summary.records_skipped, 0u);
	EXPECT_EQ(summary.kallsyms, "ffffffffc0a00000 t edu_map\t[edu]\n");
}

TEST(AnalyzeRecording, ARecordingCutShortIsIncomplete)
{
	std::vector<Record> records;
	records.emplace_back(map_event("a", 1000));
	std::vector<std::byte> bytes = encode_recording({}, records);
	RecordingReader reader{std::span<const std::byte>(bytes)};
	Summary summary = analyze_recording(reader, "cut");
	EXPECT_FALSE(summary.recording_complete);
	EXPECT_EQ(summary.map_events_total, 1u);
}

} // namespace analysis_test
} // namespace edgedma::test
