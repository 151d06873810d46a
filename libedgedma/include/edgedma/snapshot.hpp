// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// Snapshots (Documentation/snapshots.rst): what the module froze of one
// device's DMA state when something went wrong, or when asked
// (Client::snapshot_take()). A snapshot is one record, a byte string of
// netlink attributes (EDGEDMA_A_SNAPSHOT_*) that every carrier holds
// unchanged: the SNAPSHOT_GET reply today; devcoredump, the crash region
// and recordings later. Snapshot keeps those bytes beside what they say, so
// that they can be passed on exactly as the module wrote them.
//
// Enumerated fields keep the number the module sent; names.hpp turns them
// into words.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <edgedma/records.hpp>

namespace edgedma {

// What the SNAPSHOT_GET dump and the SNAPSHOT notification say of a stored
// snapshot: its header, and the size of its whole record.
struct SnapshotHeader {
	std::uint64_t seq = 0;          // 1 for the module's first since it loaded
	std::uint64_t time_ns = 0;      // ktime_get_ns(), the clock of findings
	std::uint64_t real_time_ns = 0; // wall clock, ns since the epoch
	std::uint32_t cpu = 0;          // the CPU that took it
	std::uint32_t trigger = 0;      // enum edgedma_snapshot_trigger
	// What the trigger knew; each is absent when it did not know it.
	std::optional<std::uint64_t> trigger_addr;   // the DMA address (IOVA) it is about
	std::optional<std::uint32_t> trigger_access; // enum edgedma_access
	std::optional<std::uint32_t> trigger_reason; // the IOMMU's fault reason
	std::optional<std::string> trigger_symbol;   // the error handler that ran
	std::optional<std::uint64_t> finding_seq;    // the finding that made it
	std::string device; // dev_name()
	std::string driver; // empty when no driver was bound
	std::uint32_t record_size = 0; // bytes of the whole record

	bool operator==(const SnapshotHeader &) const = default;
};

// A mapping of the device that was removed shortly before the snapshot
// (EDGEDMA_A_SNAPSHOT_UNMAPPED), with who made and removed it, and when.
struct RecentUnmap {
	std::uint32_t call = 0; // enum edgedma_call_kind of the map or alloc
	std::uint64_t dma_addr = 0;
	std::uint64_t size = 0;
	std::uint32_t dir = 0;            // enum dma_data_direction
	std::optional<std::uint64_t> cpu_phys; // the memory it mapped; absent when unknown
	std::uint64_t map_time_ns = 0;    // ktime_get_ns(), as SnapshotHeader::time_ns
	std::uint64_t unmap_time_ns = 0;
	std::uint64_t map_caller = 0;     // return addresses; 0 if unknown
	std::uint64_t unmap_caller = 0;
	// The two callers as the kernel named them when it took the snapshot
	// (a record read after a reboot or an unload cannot ask for them
	// later); absent where no symbol covers the address.
	std::optional<std::string> map_caller_name;
	std::optional<std::string> unmap_caller_name;

	bool operator==(const RecentUnmap &) const = default;
};

// A part the module left out of a snapshot, and why.
struct SkippedPart {
	std::uint32_t part = 0;   // enum edgedma_snapshot_part
	std::uint32_t reason = 0; // enum edgedma_skip_reason

	bool operator==(const SkippedPart &) const = default;
};

// One snapshot, whole (SNAPSHOT_GET of its seq).
struct Snapshot {
	// header.record_size is record.size().
	SnapshotHeader header;
	// The kernel that took it (uname -r) and the enum edgedma_hook_mode the
	// module used, 0 for none; absent only from a record cut short.
	std::optional<std::string> kernel_release;
	std::optional<std::uint32_t> hook_mode;
	// The device's live mappings, the one holding header.trigger_addr
	// first when there is one (covers()). Each carries the header's
	// device and driver, and caller_name where a symbol covered its caller.
	std::vector<Mapping> mappings;
	// Live mappings of the device the record does not list (module
	// parameter snapshot_mappings, or no room).
	std::uint64_t mappings_left_out = 0;
	// The device's recent unmaps: the latest one of header.trigger_addr
	// first when there is one, the rest in no order.
	std::vector<RecentUnmap> unmaps;
	// The parts left out, each with its reason.
	std::vector<SkippedPart> skipped;
	// The record ran out of room (module parameter snapshot_size): every
	// part in it is whole, but later parts are missing.
	bool truncated = false;
	// The record's bytes exactly as the module wrote them.
	std::vector<std::byte> record;

	bool operator==(const Snapshot &) const = default;
};

// Whether the range of dma_addr and size covers address, as the module
// decides which mapping and which unmap a snapshot is about: a range of 0
// bytes covers its first address.
constexpr bool covers(std::uint64_t dma_addr, std::uint64_t size, std::uint64_t address)
{
	return address >= dma_addr && address - dma_addr < std::max<std::uint64_t>(size, 1);
}

} // namespace edgedma
