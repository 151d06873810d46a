// SPDX-License-Identifier: GPL-2.0
#include "crash_render.hpp"

#include <linux/edgedma.h>

#include <edgedma/names.hpp>

#include "format.hpp"
#include "snapshot_render.hpp"

namespace edgedma::cli {
namespace {

std::string region_where(const CrashRegion &region)
{
	std::string text = "crash region";
	if (region.size)
		text += " of " + std::to_string(*region.size >> 10) + " KiB";
	if (region.phys)
		text += " at " + hex(*region.phys);
	return text;
}

} // namespace

std::string crash_region_text(const CrashRegion &region)
{
	switch (region.state) {
	case EDGEDMA_CRASH_REGION_OFF:
		return "no crash region (load edgedma with crash_region=SIZE@PHYS, "
		       "Documentation/snapshots.rst)";
	case EDGEDMA_CRASH_REGION_EMPTY:
		return region_where(region) + ": no records from an earlier boot";
	case EDGEDMA_CRASH_REGION_CORRUPT:
		return region_where(region) + ": corrupt: " + region.reason.value_or("no reason given");
	case EDGEDMA_CRASH_REGION_VALID: {
		std::string text = region_where(region) + ": written " +
				   utc_time(region.written_ns.value_or(0)) + " by load " +
				   hex(region.boot_id.value_or(0)) + ": " +
				   counted(region.records.value_or(0), "record") + ", " +
				   std::to_string(region.intact.value_or(0)) + " intact, " +
				   std::to_string(region.corrupt.value_or(0)) + " corrupt";
		if (region.reason)
			text += ": " + *region.reason;
		return text;
	}
	}
	return region_where(region) + ": " + crash_region_state_label(region.state);
}

std::string collected_record_text(const CollectedRecord &record)
{
	const CrashRecordEntry &entry = record.entry;
	if (!record.snapshot)
		return "record " + std::to_string(entry.index) + " (snapshot " +
		       std::to_string(entry.seq) + "): not collected: " +
		       entry.reason.value_or(crash_record_state_label(entry.state));
	const SnapshotHeader &header = record.snapshot->header;
	std::string text = "snapshot " + std::to_string(header.seq) + " of " + header.device +
			   " (" + (header.driver.empty() ? "no driver" : header.driver) + "), " +
			   snapshot_trigger_label(header.trigger);
	if (record.headline)
		text += ": " + verdict_line(*record.headline);
	if (!record.file.empty())
		text += " -> " + record.file;
	return text;
}

nlohmann::ordered_json crash_region_json(const CrashRegion &region)
{
	return {
		{"state", crash_region_state_label(region.state)},
		{"phys", hex_or_null(region.phys)},
		{"size", or_null(region.size)},
		{"boot_id", hex_or_null(region.boot_id)},
		{"written_ns", or_null(region.written_ns)},
		{"records", or_null(region.records)},
		{"intact", or_null(region.intact)},
		{"corrupt", or_null(region.corrupt)},
		{"reason", or_null(region.reason)},
	};
}

nlohmann::ordered_json collect_json(const CrashRegion &region,
				    const std::vector<CollectedRecord> &records, bool cleared)
{
	nlohmann::ordered_json list = nlohmann::ordered_json::array();
	for (const CollectedRecord &record : records) {
		const CrashRecordEntry &entry = record.entry;
		const SnapshotHeader *header = record.snapshot ? &record.snapshot->header : nullptr;
		list.push_back(nlohmann::ordered_json{
			{"index", entry.index},
			{"seq", entry.seq},
			{"state", crash_record_state_label(entry.state)},
			{"length", entry.length},
			{"reason", or_null(entry.reason)},
			{"file", record.file.empty() ? nlohmann::ordered_json(nullptr)
						     : nlohmann::ordered_json(record.file)},
			{"device", header ? nlohmann::ordered_json(header->device) : nullptr},
			{"driver", header ? nlohmann::ordered_json(header->driver) : nullptr},
			{"trigger", header ? nlohmann::ordered_json(
						     snapshot_trigger_label(header->trigger))
					   : nullptr},
			{"headline", record.headline ? verdict_to_json<nlohmann::ordered_json>(*record.headline)
						     : nlohmann::ordered_json(nullptr)},
		});
	}
	return {{"region", crash_region_json(region)}, {"records", list}, {"cleared", cleared}};
}

} // namespace edgedma::cli
