// SPDX-License-Identifier: GPL-2.0
#pragma once
// How `edgedma collect` shows the crash region and the records it collects.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <edgedma/crash.hpp>
#include <edgedma/cross_view.hpp>
#include <edgedma/snapshot.hpp>

namespace edgedma::cli {

// One line: "crash region of 1024 KiB at 0x30000000: " then "no records
// from an earlier boot", "corrupt: REASON", or "written TIME UTC by load
// 0xID: N records, N intact, N corrupt" (": REASON" after it when one is
// corrupt); "no crash region ..." when the module keeps none.
std::string crash_region_text(const CrashRegion &region);

// What collect did with one record of the region.
struct CollectedRecord {
	CrashRecordEntry entry;
	std::optional<Snapshot> snapshot; // intact ones, as read
	std::optional<Verdict> headline;  // the cross-view headline, when one
	std::string file;                 // where it was written; empty: not
};

// A record on one line: "snapshot SEQ of DEVICE (DRIVER), TRIGGER: HEADLINE
// -> FILE", or "record INDEX (snapshot SEQ): not collected: REASON".
std::string collected_record_text(const CollectedRecord &record);

// collect --json: {region, records: [{index, seq, state, length, reason,
// file, device, driver, trigger, headline}], cleared}; the region's keys
// as crash_region_json() has them.
nlohmann::ordered_json crash_region_json(const CrashRegion &region);
nlohmann::ordered_json collect_json(const CrashRegion &region,
				    const std::vector<CollectedRecord> &records, bool cleared);

} // namespace edgedma::cli
