// SPDX-License-Identifier: LGPL-2.1-or-later
//
// The timeline in Chrome's trace-event format (the JSON object form), which
// Perfetto and chrome://tracing open. Each device is a process of its own,
// so it gets its own group of tracks: counters ("C") per bucket for the
// bytes mapped and the calls, and a "findings" thread with an instant event
// ("i") per finding the summary kept. Timestamps are ktime in microseconds,
// the unit the format prescribes ("displayTimeUnit" only says how to show
// them). Each device's one thread has the device's pid as its tid: trace
// viewers take tids as system-wide, as on Linux, and a tid seen in two
// processes would look like a thread that moved.
#include <algorithm>
#include <unordered_map>

#include <edgedma/names.hpp>
#include <edgedma/report.hpp>

#include "report_common.hpp"

namespace edgedma {
namespace {

using Json = nlohmann::ordered_json;

double microseconds(std::uint64_t ns)
{
	return static_cast<double>(ns) / 1000.0;
}

Json metadata(const char *name, int pid, Json args)
{
	return {{"name", name}, {"ph", "M"}, {"pid", pid}, {"tid", pid}, {"args", std::move(args)}};
}

Json counter(const char *name, int pid, std::uint64_t time_ns, Json args)
{
	return {{"name", name}, {"ph", "C"}, {"pid", pid}, {"tid", pid},
		{"ts", microseconds(time_ns)}, {"args", std::move(args)}};
}

} // namespace

std::string render_report_trace(const Summary &summary, const Symbolizer &symbols)
{
	Json events = Json::array();
	std::unordered_map<std::string, int> pid_of;

	int pid = 0;
	for (const DeviceTimeline &device : summary.devices) {
		pid++;
		pid_of.emplace(device.device, pid);
		std::string name = device.device;
		if (!device.driver.empty())
			name += " (" + device.driver + ")";
		events.push_back(metadata("process_name", pid, {{"name", name}}));
		events.push_back(metadata("process_sort_index", pid, {{"sort_index", pid}}));
		events.push_back(metadata("thread_name", pid, {{"name", "findings"}}));

		for (std::uint32_t i = 0; i < summary.bucket_count; i++) {
			std::uint64_t start = summary.timeline_start_ns + i * summary.bucket_ns;
			events.push_back(counter("bytes mapped", pid, start,
						 {{"bytes", device.bytes_mapped[i]}}));
			events.push_back(counter("calls", pid, start,
						 {{"maps", device.maps[i]},
						  {"unmaps", device.unmaps[i]},
						  {"syncs", device.syncs[i]}}));
		}
		// A counter holds its value until the next sample: close the last
		// bucket, or it would seem to last forever.
		if (summary.bucket_count != 0) {
			std::uint64_t last = summary.timeline_start_ns +
					     (summary.bucket_count - 1) * summary.bucket_ns;
			// The end of time has no later instant to close at.
			std::uint64_t end = last + std::min(summary.bucket_ns, UINT64_MAX - last);
			events.push_back(counter("bytes mapped", pid, end, {{"bytes", 0}}));
			events.push_back(counter("calls", pid, end,
						 {{"maps", 0}, {"unmaps", 0}, {"syncs", 0}}));
		}
	}

	for (const Finding &finding : summary.findings) {
		auto found = pid_of.find(finding.device);
		if (found == pid_of.end())
			continue;
		events.push_back({
			{"name", finding_kind_label(finding.kind)},
			{"cat", "finding"},
			{"ph", "i"},
			{"s", "t"},
			{"pid", found->second},
			{"tid", found->second},
			{"ts", microseconds(finding.time_ns)},
			{"args",
			 {
				 {"kind", finding_kind_label(finding.kind)},
				 {"detail", finding.detail},
				 {"caller", detail::caller_text(finding.caller, finding.caller_name,
								symbols)},
				 {"culprit", detail::culprit_text(finding, symbols)},
				 {"call", call_kind_label(finding.call)},
				 {"seq", finding.seq},
				 {"dma_addr", detail::hex(finding.dma_addr)},
				 {"size", finding.size},
				 {"dir", direction_label(finding.dir)},
				 {"occurrences", finding.occurrences.value_or(1)},
			 }},
		});
	}

	Json trace = {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ns"}};
	return detail::dump_json(trace) + "\n";
}

} // namespace edgedma
