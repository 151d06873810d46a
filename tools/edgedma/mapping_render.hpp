// SPDX-License-Identifier: GPL-2.0
#pragma once

// How `edgedma mappings` shows live mappings: the segments of one
// scatter-gather mapping together.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <edgedma/records.hpp>
#include <edgedma/symbolizer.hpp>

namespace edgedma::cli {

// One mapping as the driver made it: a single record, or the segments of
// one dma_map_sg call in index order.
struct MappingGroup {
	std::vector<Mapping> segments; // never empty; one for a non-sg mapping

	const Mapping &first() const { return segments.front(); }
	bool scatter_gather() const { return first().sg_index.has_value(); }
	// Every segment from 0 to sg_count - 1 is here (an untracked segment
	// is missing when the module's pool ran out).
	bool complete() const;
	std::uint64_t total_size() const;
};

// The module sends each segment as a record of its own and in no useful
// order, with nothing naming the call it came from. Segments belong
// together when device, driver, call, direction, attributes, caller and
// segment count agree; among those, each segment 0 opens a mapping and the
// next indices join the earliest open mapping waiting for them, in the
// order they were mapped (time_ns). Groups come sorted by device, then by
// the time they were made.
std::vector<MappingGroup> group_mappings(std::vector<Mapping> mappings);

// One object per group: device, driver, call, dir, attrs, dma_addr (of the
// first segment), size (all segments), cpu_phys, cpu_virt, caller,
// caller_addr, time_ns, sg_count (0 if not sg), complete, segments (sg:
// index, dma_addr, size, cpu_phys, cpu_virt; empty if not sg), and
// consistent: false when the table changed during every read of it
// (MappingTable::consistent), so the list this object belongs to may miss
// or repeat entries. Every object of one listing has the same value.
nlohmann::ordered_json mapping_json(const MappingGroup &group, const Symbolizer &symbols,
				    bool consistent = true);

// What `edgedma mappings` says on stderr, after "edgedma: ", when every
// read of the table was interrupted: "the mapping table changed during each
// of N reads; this list may miss or repeat entries".
std::string inconsistent_table_note(int reads);

// A block per device, a line per mapping, a line per sg segment.
std::string mappings_text(const std::vector<MappingGroup> &groups, const Symbolizer &symbols);

} // namespace edgedma::cli
