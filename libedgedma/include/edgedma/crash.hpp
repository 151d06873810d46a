// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// The crash region (Documentation/snapshots.rst): RAM a warm reboot
// keeps, where the module writes its snapshots at oops and panic for the
// next boot's load to validate. What that load found, as CRASH_REGION_GET
// and CRASH_RECORDS_GET tell it; an intact record itself is a Snapshot
// (Client::crash_record()).

#include <cstdint>
#include <optional>
#include <string>

namespace edgedma {

struct CrashRegion {
	std::uint32_t state = 0; // enum edgedma_crash_region_state
	// With a region (not "off").
	std::optional<std::uint64_t> phys;
	std::optional<std::uint64_t> size;
	// With a valid header: the load that wrote the records, when.
	std::optional<std::uint64_t> boot_id;
	std::optional<std::uint64_t> written_ns; // CLOCK_REALTIME
	std::optional<std::uint32_t> records;    // as the header counts them
	std::optional<std::uint32_t> intact;
	std::optional<std::uint32_t> corrupt; // failed, or past one that ended the walk
	std::optional<std::string> reason;    // the first problem

	bool operator==(const CrashRegion &) const = default;
};

// One record found in the region.
struct CrashRecordEntry {
	std::uint32_t index = 0;  // its place, from 0
	std::uint64_t seq = 0;    // the snapshot's, in the boot that took it
	std::uint32_t state = 0;  // enum edgedma_crash_record_state
	std::uint32_t length = 0; // bytes, as its header says
	std::optional<std::string> reason; // how it is corrupt

	bool operator==(const CrashRecordEntry &) const = default;
};

} // namespace edgedma
