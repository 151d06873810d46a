// SPDX-License-Identifier: GPL-2.0
//
// The four ways `edgedma report` shows a summary: the text names what a
// person needs, the JSON and the trace parse back with what they promise,
// and the HTML page is self-contained with its data intact.
#include <algorithm>
#include <cctype>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <linux/edgedma.h>

#include <edgedma/analysis.hpp>
#include <edgedma/report.hpp>

#include "record_messages.hpp"
#include "snapshot_records.hpp"

namespace edgedma::test {
namespace report_render_test {

const Symbolizer symbols = Symbolizer::parse(
	"ffffffffc0a01000 t edu_run_mode\t[edgedma_test_edu]\n"
	"ffffffffc0a01800 t edu_unmap\t[edgedma_test_edu]\n"
	"ffffffffc0a00000 t edu_map\t[edgedma_test_edu]\n");

constexpr std::string_view hostile_detail =
	"buffer named </script><script>alert(1)</script> <!-- & \"quoted\"";

Summary sample_summary()
{
	AnalysisOptions options;
	options.time_buckets = 16;
	options.examples_per_group = 2;
	Analyzer analyzer(options);
	analyzer.set_source("bench.edr");
	analyzer.set_recorded_at(1'700'000'000'000'000'000);
	Info info;
	info.module_version = "0.4.0";
	info.kernel_release = "6.1.0-21-amd64";
	info.arch = "x86_64";
	info.page_size = 4096;
	info.cache_line = 64;
	info.dma_alignment = 64;
	analyzer.add(info);

	MapEvent event;
	event.driver = "edgedma_test_edu";
	event.caller = 0xffffffffc0a00010;
	for (std::uint64_t i = 0; i < 1000; i++) {
		event.device = i % 4 ? "0000:00:04.0" : "0000:00:05.0";
		event.time_ns = 10'000'000'000 + i * 1'000'000;
		event.call = i % 2 ? EDGEDMA_CALL_UNMAP_PAGE : EDGEDMA_CALL_MAP_PAGE;
		event.size = 4096;
		analyzer.add(event);
	}
	for (std::uint64_t seq = 1; seq <= 3; seq++) {
		Finding finding = sample_finding(seq, seq == 3 ? "0000:00:05.0" : "0000:00:04.0");
		finding.time_ns = 10'000'000'000 + seq * 100'000'000;
		analyzer.add(finding);
	}
	Finding leak = sample_finding(4, "0000:00:04.0");
	leak.kind = EDGEDMA_FINDING_LEAK;
	leak.time_ns = 10'900'000'000;
	leak.map_caller.reset();
	leak.caller = 0;
	leak.detail = std::string(hostile_detail);
	analyzer.add(leak);

	analyzer.add(Loss{7, 9, Loss::Cause::gap});
	analyzer.add(MapEventLoss{1, 40, 51});
	RecordingEnd end;
	end.map_events_lost = 12;
	end.map_events_lost_in_kernel = 10;
	analyzer.add(end);
	analyzer.set_reader_state(2, false);
	return analyzer.summary();
}

std::string lower(std::string text)
{
	std::ranges::transform(text, text.begin(),
			       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
	return text;
}

std::size_t occurrences(std::string_view text, std::string_view part)
{
	std::size_t count = 0;
	for (std::size_t at = text.find(part); at != std::string_view::npos;
	     at = text.find(part, at + 1))
		count++;
	return count;
}

TEST(ReportText, GroupsFindingsWithTheirSentencesAndCallers)
{
	std::string text = render_report_text(sample_summary(), symbols);
	EXPECT_TRUE(contains(text, "edgedma report: bench.edr"));
	EXPECT_TRUE(contains(text, "edgedma 0.4.0 on Linux 6.1.0-21-amd64 (x86_64)"));
	EXPECT_TRUE(contains(text, "page 4096 bytes, cache line 64 bytes, DMA alignment 64 bytes"));
	EXPECT_TRUE(contains(text, "recorded:  2023-11-14 22:13:20 UTC"));
	EXPECT_TRUE(contains(text, "1000 mapping calls and 4 findings from 2 devices"));
	EXPECT_TRUE(contains(text, "Findings: 4 in 2 groups"));
	EXPECT_TRUE(contains(text, "edgedma_test_edu: addr-misaligned: 3 findings on 2 devices"));
	EXPECT_TRUE(contains(text, "devices: 0000:00:04.0, 0000:00:05.0"));
	EXPECT_TRUE(contains(text, "#1 at +100.00 ms: 0000:00:04.0 dma_map_page by "
				   "edu_run_mode+0x234/0x800 [edgedma_test_edu], mapped by "
				   "edu_map+0x100/0x1000 [edgedma_test_edu]"));
	EXPECT_TRUE(contains(text, "    DMA address 0xfffff001 is not aligned"));
	// Two examples kept of three: the third is counted.
	EXPECT_TRUE(contains(text, "... and 1 more finding like these"));
	EXPECT_TRUE(contains(text, "edgedma_test_edu: leak: 1 finding on 1 device"));
	EXPECT_TRUE(contains(text, "dma_map_page by unknown"));
}

TEST(ReportText, ShowsLossesAndDevices)
{
	std::string text = render_report_text(sample_summary(), symbols);
	EXPECT_TRUE(contains(text, "findings lost:           3\n"));
	EXPECT_TRUE(contains(text, "lost 3 findings (seq 7..9)"));
	EXPECT_TRUE(contains(text, "map events lost:         12 (10 in the kernel: its buffer was "
				   "full; 2 in transit: the socket overflowed)"));
	EXPECT_TRUE(contains(text, "cpu 1: 12 events (seq 40..51)"));
	EXPECT_TRUE(contains(text, "unknown records skipped: 2"));
	EXPECT_TRUE(contains(text, "recording incomplete"));
	EXPECT_TRUE(contains(text, "DEVICE        DRIVER            CALLS      MAPPED  FINDINGS  LIVE AT START\n"));
	EXPECT_TRUE(contains(text, "0000:00:04.0  edgedma_test_edu    750  1000.0 KiB         3  0\n"));
	EXPECT_TRUE(contains(text, "0000:00:05.0  edgedma_test_edu    250  1000.0 KiB         1  0\n"));
}

// A storm the module folded into seq 1 (4103 occurrences over 2.1 s), and
// two findings it did not count, all of one group on one device.
Summary folded_summary()
{
	AnalysisOptions options;
	options.examples_per_group = 2;
	Analyzer analyzer(options);
	analyzer.add(folded_finding(1, 4103, 2'100'000'000));
	analyzer.add(sample_finding(2));
	analyzer.add(sample_finding(3));
	Stats stats;
	stats.findings = 3;
	stats.findings_folded = 4102;
	stats.finding_sites = 1;
	stats.finding_sites_full = 2;
	analyzer.add(StatsSnapshot{StatsSnapshot::When::end, stats});
	return analyzer.summary();
}

TEST(ReportText, CountsTheOccurrencesOfFoldedFindings)
{
	std::string text = render_report_text(folded_summary(), symbols);
	EXPECT_TRUE(contains(text, "0 mapping calls and 4105 findings (3 logged) from 1 device")) << text;
	EXPECT_TRUE(contains(text, "Findings: 4105 (3 logged) in 1 group")) << text;
	EXPECT_TRUE(contains(text, "edgedma_test_edu: addr-misaligned: 4105 findings (3 logged) "
				   "on 1 device"))
		<< text;
	EXPECT_TRUE(contains(text, "#1 at +0 ns: 0000:00:04.0 dma_map_page by "
				   "edu_run_mode+0x234/0x800 [edgedma_test_edu], mapped by "
				   "edu_map+0x100/0x1000 [edgedma_test_edu] (x4103, last 2.100 s later)\n"))
		<< text;
	EXPECT_TRUE(contains(text, "#2 at +1.000 s: 0000:00:04.0 dma_map_page by "
				   "edu_run_mode+0x234/0x800 [edgedma_test_edu], mapped by "
				   "edu_map+0x100/0x1000 [edgedma_test_edu]\n"))
		<< text;
	// Two examples of three entries: one more entry, not 4103 more.
	EXPECT_TRUE(contains(text, "... and 1 more logged finding like these")) << text;
	// The devices' column counts the findings logged, as the timeline.
	EXPECT_TRUE(contains(text, "0000:00:04.0  edgedma_test_edu      0  0 bytes         3  0\n"))
		<< text;
}

TEST(ReportText, SaysNothingOfLoggedWhenNothingWasFolded)
{
	std::string text = render_report_text(sample_summary(), symbols);
	EXPECT_FALSE(contains(text, "logged")) << text;
	EXPECT_FALSE(contains(text, "[edgedma_test_edu] (x")) << text;
	EXPECT_TRUE(contains(text, "mapped by edu_map+0x100/0x1000 [edgedma_test_edu]\n"));
}

// A SCSI host driver's finding, blamed on the driver past scsi_dma_map(),
// with the module's later count of its site.
Summary culprit_summary()
{
	Analyzer analyzer;
	analyzer.set_source("scsi.edr");
	Finding finding = scsi_finding(1);
	finding.occurrences = 1;
	finding.last_time_ns = finding.time_ns;
	analyzer.add(finding);
	analyzer.add(FindingRepeats{1, finding.kind, finding.device, finding.driver, 77,
				    finding.time_ns + 500'000'000});
	return analyzer.summary();
}

TEST(ReportText, NamesTheCulpritUnderTheCallerAndTheFinalCount)
{
	std::string text = render_report_text(culprit_summary(), symbols);
	EXPECT_TRUE(contains(text, "megaraid_sas: addr-misaligned: 77 findings (1 logged) on 1 device"))
		<< text;
	EXPECT_TRUE(contains(text, "#1 at +0 ns: 0000:03:00.0 dma_map_page by "
				   "scsi_dma_map+0x40/0x60 [scsi_mod], mapped by "
				   "edu_map+0x100/0x1000 [edgedma_test_edu] (x77, last 500.00 ms later)\n"
				   "      culprit: megasas_build_io_fusion+0x1a4/0x300 [megaraid_sas] "
				   "(via scsi_dma_map+0x40/0x60 [scsi_mod])\n"
				   "      DMA address"))
		<< text;
	// Where the caller is to blame, no culprit line.
	EXPECT_FALSE(contains(render_report_text(sample_summary(), symbols), "culprit"));
}

TEST(ReportJson, FindingsCarryTheirChainAndCulprit)
{
	auto json = nlohmann::json::parse(render_report_json(culprit_summary(), symbols));
	const auto &example = json["groups"][0]["examples"][0];
	EXPECT_EQ(example["culprit"], "megasas_build_io_fusion+0x1a4/0x300 [megaraid_sas]");
	EXPECT_EQ(example["driver_module"], "megaraid_sas");
	EXPECT_EQ(example["call_chain"].size(), 5u);
	EXPECT_EQ(example["occurrences"], 77);
	EXPECT_EQ(json["findings"][0]["culprit"], example["culprit"]);
	EXPECT_EQ(json["totals"]["occurrences"], 77);
}

TEST(ReportTrace, AFindingNamesItsCulprit)
{
	auto trace = nlohmann::json::parse(render_report_trace(culprit_summary(), symbols));
	std::vector<std::string> culprits;
	for (const auto &event : trace["traceEvents"])
		if (event["ph"] == "i")
			culprits.push_back(event["args"]["culprit"].get<std::string>());
	EXPECT_EQ(culprits, (std::vector<std::string>{
				    "megasas_build_io_fusion+0x1a4/0x300 [megaraid_sas]"}));
	// The caller where the caller is to blame.
	trace = nlohmann::json::parse(render_report_trace(sample_summary(), symbols));
	for (const auto &event : trace["traceEvents"]) {
		if (event["ph"] == "i") {
			EXPECT_EQ(event["args"]["culprit"], event["args"]["caller"]);
		}
	}
}

TEST(ReportHtml, ShowsTheCulpritFromTheEmbeddedFindings)
{
	std::string html = render_report_html(culprit_summary(), symbols);
	// The page draws it from the JSON it embeds.
	EXPECT_TRUE(contains(html, "megasas_build_io_fusion+0x1a4/0x300 [megaraid_sas]"));
	EXPECT_TRUE(contains(html, "finding.culprit !== finding.caller"));
}

TEST(ReportText, SaysSoWhenThereIsNothing)
{
	std::string text = render_report_text(Analyzer().summary(), symbols);
	EXPECT_TRUE(contains(text, "Findings: none"));
	EXPECT_TRUE(contains(text, "Devices: none"));
	EXPECT_FALSE(contains(text, "recording incomplete"));
}

TEST(ReportJson, ParsesBackWithTheDocumentedFields)
{
	Summary summary = sample_summary();
	auto json = nlohmann::json::parse(render_report_json(summary, symbols));
	for (const char *key : {"report_version", "source", "recorded_unix_ns", "module",
				"stats_end", "time", "totals", "losses", "groups", "devices",
				"findings", "policies"})
		EXPECT_TRUE(json.contains(key)) << key;
	EXPECT_EQ(json["source"], "bench.edr");
	EXPECT_EQ(json["module"]["kernel_release"], "6.1.0-21-amd64");
	EXPECT_TRUE(json["stats_end"].is_null());
	EXPECT_EQ(json["time"]["start_ns"], summary.start_ns);
	EXPECT_EQ(json["time"]["bucket_ns"], summary.bucket_ns);
	EXPECT_EQ(json["time"]["bucket_count"], summary.bucket_count);
	EXPECT_EQ(json["totals"]["findings"], 4);
	EXPECT_EQ(json["totals"]["map_events"], 1000);
	EXPECT_EQ(json["totals"]["devices"], 2);

	const auto &losses = json["losses"];
	EXPECT_EQ(losses["findings_lost"], 3);
	EXPECT_EQ(losses["map_events_lost"], 12);
	EXPECT_EQ(losses["map_events_lost_in_kernel"], 10);
	EXPECT_EQ(losses["map_events_lost_in_transit"], 2);
	EXPECT_EQ(losses["records_skipped"], 2);
	EXPECT_EQ(losses["recording_complete"], false);
	EXPECT_EQ(losses["finding_losses"][0]["cause"], "gap");
	EXPECT_EQ(losses["map_event_losses"][0]["cpu"], 1);

	ASSERT_EQ(json["groups"].size(), 2u);
	const auto &group = json["groups"][0];
	EXPECT_EQ(group["driver"], "edgedma_test_edu");
	EXPECT_EQ(group["kind"], "addr-misaligned");
	EXPECT_EQ(group["count"], 3);
	EXPECT_EQ(group["devices"], nlohmann::json({"0000:00:04.0", "0000:00:05.0"}));
	ASSERT_EQ(group["examples"].size(), 2u);
	EXPECT_EQ(group["examples"][0]["caller"], "edu_run_mode+0x234/0x800 [edgedma_test_edu]");
	EXPECT_EQ(group["examples"][0]["dma_addr"], "0xfffff001");
	EXPECT_TRUE(json["groups"][1]["examples"][0]["caller"].is_null());

	ASSERT_EQ(json["devices"].size(), 2u);
	for (const auto &device : json["devices"]) {
		for (const char *series : {"bytes_mapped", "maps", "unmaps", "syncs", "findings"})
			EXPECT_EQ(device[series].size(), summary.bucket_count) << series;
	}
	EXPECT_EQ(json["devices"][0]["device"], "0000:00:04.0");
	EXPECT_EQ(json["devices"][0]["total_calls"], 750);
	EXPECT_EQ(json["findings"].size(), 4u);
	EXPECT_EQ(json["findings"][3]["detail"], hostile_detail);
}

TEST(ReportJson, CarriesOccurrencesAndTheFoldingCounters)
{
	Summary summary = folded_summary();
	auto json = nlohmann::json::parse(render_report_json(summary, symbols));
	// findings as the module numbered them, comparable with its seq.
	EXPECT_EQ(json["totals"]["findings"], 3);
	EXPECT_EQ(json["totals"]["occurrences"], 4105);
	EXPECT_EQ(json["totals"]["findings_kept"], 3);
	ASSERT_EQ(json["groups"].size(), 1u);
	const auto &group = json["groups"][0];
	EXPECT_EQ(group["count"], 4105);
	EXPECT_EQ(group["logged"], 3);
	EXPECT_EQ(group["last_ns"], summary.groups[0].examples[0].time_ns + 2'100'000'000);
	EXPECT_EQ(group["examples"][0]["occurrences"], 4103);
	EXPECT_EQ(group["examples"][0]["last_time_ns"],
		  summary.groups[0].examples[0].time_ns + 2'100'000'000);
	EXPECT_TRUE(group["examples"][1]["occurrences"].is_null());
	EXPECT_TRUE(group["examples"][1]["last_time_ns"].is_null());
	EXPECT_EQ(json["devices"][0]["total_findings"], 3);
	EXPECT_EQ(json["findings"][0]["occurrences"], 4103);

	const auto &stats = json["stats_end"];
	EXPECT_EQ(stats["findings_folded"], 4102);
	EXPECT_EQ(stats["finding_sites"], 1);
	EXPECT_EQ(stats["finding_sites_full"], 2);
	// Counters the module did not send are null.
	EXPECT_TRUE(stats["sync_skips_cleared"].is_null());
	EXPECT_TRUE(stats["memory"].is_null());
	EXPECT_TRUE(stats["snapshots"].is_null());
	EXPECT_TRUE(stats["snapshots_suppressed"].is_null());
	EXPECT_TRUE(stats["snapshots_dropped"].is_null());
	EXPECT_TRUE(stats["snapshots_truncated"].is_null());
}

TEST(ReportJson, CarriesTheSnapshotCountersWhenTheModuleSendsThem)
{
	Analyzer analyzer{AnalysisOptions{}};
	Stats stats;
	stats.snapshots = 5;
	stats.snapshots_suppressed = 96;
	stats.snapshots_dropped = 0;
	stats.snapshots_truncated = 1;
	analyzer.add(StatsSnapshot{StatsSnapshot::When::end, stats});
	auto json = nlohmann::json::parse(render_report_json(analyzer.summary(), symbols));
	const auto &counters = json["stats_end"];
	EXPECT_EQ(counters["snapshots"], 5);
	EXPECT_EQ(counters["snapshots_suppressed"], 96);
	EXPECT_EQ(counters["snapshots_dropped"], 0);
	EXPECT_EQ(counters["snapshots_truncated"], 1);
}

TEST(ReportJson, TotalsOfFindingsAgreeWithoutFolding)
{
	auto json = nlohmann::json::parse(render_report_json(sample_summary(), symbols));
	EXPECT_EQ(json["totals"]["findings"], 4);
	EXPECT_EQ(json["totals"]["occurrences"], 4);
	EXPECT_EQ(json["groups"][0]["logged"], 3);
}

TEST(ReportTrace, AFindingSaysItsOccurrences)
{
	auto trace = nlohmann::json::parse(render_report_trace(folded_summary(), symbols));
	std::vector<std::uint64_t> occurrences;
	for (const auto &event : trace["traceEvents"])
		if (event["ph"] == "i")
			occurrences.push_back(event["args"]["occurrences"].get<std::uint64_t>());
	EXPECT_EQ(occurrences, (std::vector<std::uint64_t>{4103, 1, 1}));
}

TEST(ReportTrace, HasATrackPerDeviceWithCountersAndFindings)
{
	Summary summary = sample_summary();
	auto trace = nlohmann::json::parse(render_report_trace(summary, symbols));
	EXPECT_EQ(trace["displayTimeUnit"], "ns");
	ASSERT_TRUE(trace["traceEvents"].is_array());

	std::set<std::string> process_names;
	std::size_t counters = 0;
	std::vector<nlohmann::json> instants;
	for (const auto &event : trace["traceEvents"]) {
		ASSERT_TRUE(event.contains("ph"));
		ASSERT_TRUE(event.contains("pid"));
		std::string phase = event["ph"];
		if (phase == "M" && event["name"] == "process_name")
			process_names.insert(event["args"]["name"].get<std::string>());
		if (phase == "C") {
			counters++;
			EXPECT_TRUE(event["ts"].is_number());
			EXPECT_TRUE(event["name"] == "bytes mapped" || event["name"] == "calls");
		}
		if (phase == "i")
			instants.push_back(event);
	}
	EXPECT_EQ(process_names, (std::set<std::string>{"0000:00:04.0 (edgedma_test_edu)",
							"0000:00:05.0 (edgedma_test_edu)"}));
	// Two counters per bucket and device, and one closing sample of each.
	EXPECT_EQ(counters, 2 * 2 * (summary.bucket_count + 1u));
	ASSERT_EQ(instants.size(), 4u);
	const auto &first = instants.front();
	EXPECT_EQ(first["name"], "addr-misaligned");
	EXPECT_EQ(first["s"], "t");
	EXPECT_DOUBLE_EQ(first["ts"].get<double>(), 10'100'000.0);
	EXPECT_EQ(first["args"]["kind"], "addr-misaligned");
	EXPECT_EQ(first["args"]["caller"], "edu_run_mode+0x234/0x800 [edgedma_test_edu]");
	EXPECT_TRUE(contains(first["args"]["detail"].get<std::string>(), "is not aligned"));
	EXPECT_EQ(instants.back()["args"]["caller"], "unknown");
}

// The report data, as the page embeds it.
nlohmann::json embedded_data(const std::string &html)
{
	constexpr std::string_view open = "<script type=\"application/json\" id=\"report-data\">";
	std::size_t start = html.find(open);
	if (start == std::string::npos)
		throw std::runtime_error("no report-data element");
	start += open.size();
	std::size_t end = html.find("</script>", start);
	if (end == std::string::npos)
		throw std::runtime_error("report-data element not closed");
	return nlohmann::json::parse(html.substr(start, end - start));
}

TEST(ReportHtml, IsSelfContained)
{
	std::string html = lower(render_report_html(sample_summary(), symbols));
	EXPECT_FALSE(contains(html, "http://"));
	EXPECT_FALSE(contains(html, "https://"));
	EXPECT_FALSE(contains(html, "<script src"));
	EXPECT_FALSE(contains(html, "<link"));
	EXPECT_FALSE(contains(html, "@import"));
	EXPECT_FALSE(contains(html, "url("));
	EXPECT_FALSE(contains(html, "{{edgedma_"));
}

TEST(ReportHtml, HasTheParts)
{
	std::string html = render_report_html(sample_summary(), symbols);
	EXPECT_TRUE(html.starts_with("<!DOCTYPE html>"));
	EXPECT_TRUE(contains(html, "id=\"findings-table\""));
	EXPECT_TRUE(contains(html, "id=\"timeline\""));
	EXPECT_TRUE(contains(html, "id=\"heatmap\""));
	EXPECT_TRUE(contains(html, "<title>edgedma report: bench.edr</title>"));
	EXPECT_TRUE(contains(html, "document.body.dataset.rendered = \"ok\""));
}

TEST(ReportHtml, EmbedsTheJsonDocumentIntact)
{
	Summary summary = sample_summary();
	std::string html = render_report_html(summary, symbols);
	// A string in the data cannot end the element early or open a comment:
	// three scripts, three ends.
	EXPECT_EQ(occurrences(html, "</script>"), 3u);
	EXPECT_FALSE(contains(html, "<!-- &"));
	nlohmann::json data = embedded_data(html);
	EXPECT_EQ(data, nlohmann::json::parse(render_report_json(summary, symbols)));
	EXPECT_EQ(data["findings"][3]["detail"], hostile_detail);
}

TEST(ReportHtml, EscapesTheSourceInTheTitle)
{
	Analyzer analyzer;
	analyzer.set_source("<b>&{{EDGEDMA_REPORT_DATA}}");
	std::string html = render_report_html(analyzer.summary(), symbols);
	EXPECT_TRUE(contains(html, "<title>edgedma report: &lt;b&gt;&amp;{{EDGEDMA_REPORT_DATA}}</title>"));
	EXPECT_EQ(embedded_data(html)["source"], "<b>&{{EDGEDMA_REPORT_DATA}}");
}

// A recording with a snapshot of a use after unmap: the reports say where
// its address was (unmapped, by whom) and what the record holds.
Summary snapshot_summary()
{
	Analyzer analyzer;
	analyzer.set_source("fault.edr");
	Snapshot snapshot = sample_snapshot_with_views();
	snapshot.mappings.clear();
	snapshot.header.trigger = EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT;
	snapshot.header.trigger_addr = 0xfffff200;
	snapshot.header.trigger_access = EDGEDMA_ACCESS_READ;
	analyzer.add(snapshot);
	return analyzer.summary();
}

TEST(ReportText, ShowsEachSnapshotAndWhereItsAddressWas)
{
	const Summary summary = snapshot_summary();
	ASSERT_EQ(summary.snapshots_total, 1u);
	std::string text = render_report_text(summary, symbols);
	EXPECT_TRUE(contains(text, "Snapshots: 1")) << text;
	EXPECT_TRUE(contains(text, "snapshot 7: iommu-fault on 0000:00:04.0")) << text;
	EXPECT_TRUE(contains(text, "at 0xfffff200 (read)")) << text;
	EXPECT_TRUE(contains(text, "unmapped ")) << text;
	EXPECT_TRUE(contains(text, "2 registers, 0 live mappings")) << text;
}

TEST(ReportJson, SnapshotsCarryTheirVerdict)
{
	auto json = nlohmann::json::parse(render_report_json(snapshot_summary(), symbols));
	ASSERT_EQ(json["snapshots"].size(), 1u);
	const auto &snapshot = json["snapshots"][0];
	EXPECT_EQ(snapshot["trigger"], "iommu-fault");
	EXPECT_EQ(snapshot["trigger_addr"], "0xfffff200");
	EXPECT_EQ(snapshot["address"]["where"], "unmapped");
	EXPECT_EQ(snapshot["address"]["dma_addr"], "0xfffff000");
	EXPECT_EQ(json["snapshots_total"], 1);
}

} // namespace report_render_test
} // namespace edgedma::test
