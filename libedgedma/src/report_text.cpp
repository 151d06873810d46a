// SPDX-License-Identifier: LGPL-2.1-or-later
//
// The report for a terminal: what went wrong first (findings, grouped by
// driver and kind, each with the module's sentence and the caller named),
// then what the report cannot show (losses), then what each device did.
#include <algorithm>
#include <sstream>

#include <edgedma/cross_view.hpp>
#include <edgedma/culprit.hpp>
#include <edgedma/info.hpp>
#include <edgedma/names.hpp>
#include <edgedma/report.hpp>

#include "report_common.hpp"

namespace edgedma {
namespace {

using detail::byte_size;
using detail::caller_text;
using detail::counted;
using detail::duration;
using detail::hex;

// Devices named in a group's heading line; the rest are counted.
constexpr std::size_t devices_named = 6;

std::string since_start(const Summary &summary, std::uint64_t time_ns)
{
	if (time_ns < summary.start_ns)
		return "-" + duration(summary.start_ns - time_ns);
	return "+" + duration(time_ns - summary.start_ns);
}

std::string driver_name(const std::string &driver)
{
	return driver.empty() ? "(no driver)" : driver;
}

void write_heading(std::ostringstream &out, const Summary &summary)
{
	out << "edgedma report: " << summary.source << '\n';
	if (summary.recorded_unix_ns != 0)
		out << "  recorded:  " << detail::utc_time(summary.recorded_unix_ns) << '\n';
	if (summary.info) {
		const Info &info = *summary.info;
		out << "  module:    edgedma " << info.module_version << " on Linux "
		    << info.kernel_release << " (" << info.arch << "), hook "
		    << hook_mode_name(info.hook_mode) << '\n';
		out << "  kernel:    page " << counted(info.page_size, "byte") << ", cache line "
		    << counted(info.cache_line, "byte") << ", DMA alignment "
		    << counted(info.dma_alignment, "byte") << '\n';
	}
	if (summary.bucket_count != 0)
		out << "  span:      " << duration(summary.end_ns - summary.start_ns)
		    << " (ktime " << summary.start_ns << " to " << summary.end_ns << " ns), "
		    << counted(summary.bucket_count, "bucket") << " of "
		    << duration(summary.bucket_ns) << '\n';
	out << "  activity:  " << counted(summary.map_events_total, "mapping call") << " and "
	    << counted(summary.occurrences_total, "finding");
	if (summary.findings_total != summary.occurrences_total)
		out << " (" << summary.findings_total << " logged)";
	out << " from " << counted(summary.devices.size(), "device") << '\n';
	if (summary.live_mappings_at_start != 0)
		out << "  at start:  " << counted(summary.live_mappings_at_start, "live mapping")
		    << '\n';
}

// The sentence is left out when the example before said the same: findings
// of one group often do.
void write_example(std::ostringstream &out, const Summary &summary, const Finding &finding,
		   const Finding *previous, const Symbolizer &symbols)
{
	out << "  #" << finding.seq << " at " << since_start(summary, finding.time_ns) << ": "
	    << finding.device << ' ' << call_kind_label(finding.call) << " by "
	    << caller_text(finding.caller, finding.caller_name, symbols);
	if (finding.map_caller || finding.map_caller_name)
		out << ", mapped by "
		    << caller_text(finding.map_caller.value_or(0), finding.map_caller_name, symbols);
	if (auto occurrences = describe_occurrences(finding))
		out << " (" << *occurrences << ')';
	out << '\n';
	if (auto culprit = describe_culprit(finding, symbols))
		out << "      culprit: " << *culprit << '\n';
	if (!previous || previous->detail != finding.detail)
		out << "      " << finding.detail << '\n';
}

void write_findings(std::ostringstream &out, const Summary &summary, const Symbolizer &symbols)
{
	if (summary.groups.empty()) {
		out << "\nFindings: none\n";
		return;
	}
	out << "\nFindings: " << summary.occurrences_total;
	// Repeats the module folded into the finding of their site.
	if (summary.findings_total != summary.occurrences_total)
		out << " (" << summary.findings_total << " logged)";
	out << " in " << counted(summary.groups.size(), "group") << " by driver and kind\n";
	for (const FindingGroup &group : summary.groups) {
		out << '\n' << driver_name(group.driver) << ": " << finding_kind_label(group.kind)
		    << ": " << counted(group.count, "finding");
		if (group.logged != group.count)
			out << " (" << group.logged << " logged)";
		out << " on " << counted(group.devices.size(), "device") << ", "
		    << since_start(summary, group.first_ns);
		if (group.last_ns != group.first_ns)
			out << " to " << since_start(summary, group.last_ns);
		out << '\n';
		out << "  devices: ";
		for (std::size_t i = 0; i < group.devices.size() && i < devices_named; i++)
			out << (i ? ", " : "") << group.devices[i];
		if (group.devices.size() > devices_named)
			out << " and " << group.devices.size() - devices_named << " more";
		out << '\n';
		const Finding *previous = nullptr;
		for (const Finding &finding : group.examples) {
			write_example(out, summary, finding, previous, symbols);
			previous = &finding;
		}
		// The examples are log entries, each with its repeats.
		if (group.logged > group.examples.size())
			out << "  ... and "
			    << counted(group.logged - group.examples.size(),
				       group.logged == group.count ? "more finding"
								   : "more logged finding")
			    << " like these\n";
	}
}

void write_losses(std::ostringstream &out, const Summary &summary)
{
	const std::uint64_t in_transit = summary.map_events_lost - summary.map_events_lost_in_kernel;
	out << "\nLosses\n";
	out << "  findings lost:           " << summary.findings_lost << '\n';
	for (const Loss &loss : summary.losses)
		out << "    " << describe(loss) << '\n';
	out << "  map events lost:         " << summary.map_events_lost;
	if (summary.map_events_lost != 0)
		out << " (" << summary.map_events_lost_in_kernel
		    << " in the kernel: its buffer was full; " << in_transit
		    << " in transit: the socket overflowed)";
	out << '\n';
	for (const MapEventLoss &loss : summary.map_event_losses)
		out << "    cpu " << loss.cpu << ": " << counted(loss.count(), "event") << " (seq "
		    << loss.first_seq << ".." << loss.last_seq << ")\n";
	out << "  unknown records skipped: " << summary.records_skipped;
	if (summary.records_skipped != 0)
		out << " (written by a newer edgedma)";
	out << '\n';
	if (!summary.recording_complete)
		out << "  recording incomplete: the file has no end record (it was cut short); "
		       "everything above is what it holds\n";
}

void write_snapshots(std::ostringstream &out, const Summary &summary,
		     const Symbolizer &symbols)
{
	if (summary.snapshots_total == 0)
		return;
	out << "\nSnapshots: " << summary.snapshots_total << '\n';
	for (const Snapshot &snapshot : summary.snapshots) {
		const SnapshotHeader &header = snapshot.header;
		out << "  snapshot " << header.seq << ": " << snapshot_trigger_label(header.trigger)
		    << " on " << header.device << " (" << driver_name(header.driver) << ")";
		if (header.trigger_addr) {
			out << " at " << hex(*header.trigger_addr);
			if (header.trigger_access)
				out << " (" << access_label(*header.trigger_access) << ")";
		}
		if (header.trigger_symbol)
			out << " in " << *header.trigger_symbol;
		if (header.finding_seq)
			out << " for finding " << *header.finding_seq;
		out << '\n';
		const std::vector<Verdict> verdicts = compare_views(snapshot, symbols);
		if (const Verdict *lead = headline(verdicts))
			out << "    " << severity_name(lead->severity) << " " << lead->rule << ": "
			    << lead->sentence << '\n';
		const SnapshotAddressOwner owner = snapshot_address_owner(snapshot);
		switch (owner.kind) {
		case SnapshotAddressOwner::Kind::no_address:
			break;
		case SnapshotAddressOwner::Kind::live:
			out << "    in a live mapping " << hex(owner.mapping->dma_addr) << " of "
			    << byte_size(owner.mapping->size) << ", mapped by "
			    << caller_text(owner.mapping->caller, owner.mapping->caller_name,
					   symbols)
			    << '\n';
			break;
		case SnapshotAddressOwner::Kind::unmapped:
			out << "    unmapped "
			    << duration(header.time_ns - std::min(header.time_ns,
								  owner.unmap->unmap_time_ns))
			    << " before: " << hex(owner.unmap->dma_addr) << " of "
			    << byte_size(owner.unmap->size) << ", unmapped by "
			    << caller_text(owner.unmap->unmap_caller,
					   owner.unmap->unmap_caller_name, symbols)
			    << '\n';
			break;
		case SnapshotAddressOwner::Kind::nowhere:
			out << "    in no live mapping or recent unmap of the device\n";
			break;
		}
		out << "    " << snapshot.registers.size() << " registers, "
		    << snapshot.mappings.size() << " live mappings, " << snapshot.unmaps.size()
		    << " recent unmaps, " << header.record_size << " bytes"
		    << (snapshot.truncated ? ", truncated" : "") << '\n';
	}
	if (summary.snapshots_total > summary.snapshots.size())
		out << "  ... and " << summary.snapshots_total - summary.snapshots.size()
		    << " more\n";
}

void write_devices(std::ostringstream &out, const Summary &summary)
{
	if (summary.devices.empty()) {
		out << "\nDevices: none\n";
		return;
	}
	struct Row {
		std::string device, driver, calls, mapped, findings, live;
	};
	std::vector<Row> rows{{"DEVICE", "DRIVER", "CALLS", "MAPPED", "FINDINGS", "LIVE AT START"}};
	for (const DeviceTimeline &device : summary.devices)
		rows.push_back({device.device, driver_name(device.driver),
				std::to_string(device.total_calls),
				byte_size(device.total_bytes_mapped),
				std::to_string(device.total_findings),
				std::to_string(device.live_mappings)});
	std::size_t device_width = 0, driver_width = 0, calls_width = 0, mapped_width = 0,
		    findings_width = 0;
	for (const Row &row : rows) {
		device_width = std::max(device_width, row.device.size());
		driver_width = std::max(driver_width, row.driver.size());
		calls_width = std::max(calls_width, row.calls.size());
		mapped_width = std::max(mapped_width, row.mapped.size());
		findings_width = std::max(findings_width, row.findings.size());
	}
	auto left = [](const std::string &text, std::size_t width) {
		return text + std::string(width - text.size(), ' ');
	};
	auto right = [](const std::string &text, std::size_t width) {
		return std::string(width - text.size(), ' ') + text;
	};
	out << "\nDevices\n";
	for (const Row &row : rows)
		out << "  " << left(row.device, device_width) << "  " << left(row.driver, driver_width)
		    << "  " << right(row.calls, calls_width) << "  "
		    << right(row.mapped, mapped_width) << "  "
		    << right(row.findings, findings_width) << "  " << row.live << '\n';
}

} // namespace

std::string describe_duration(std::uint64_t ns)
{
	return duration(ns);
}

std::string render_report_text(const Summary &summary, const Symbolizer &symbols)
{
	std::ostringstream out;
	write_heading(out, summary);
	write_findings(out, summary, symbols);
	write_losses(out, summary);
	write_snapshots(out, summary, symbols);
	write_devices(out, summary);
	return out.str();
}

} // namespace edgedma
