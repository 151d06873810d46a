// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// The records the module reports, one struct per attribute set of
// <linux/edgedma.h>. Enumerated fields keep the number the module sent (a
// newer module may send values this library has no name for); names.hpp
// turns them into words.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace edgedma {

// One finding (FINDINGS_GET, and the FINDING notification).
struct Finding {
	std::uint64_t seq = 0;     // 1 for the module's first finding
	std::uint64_t time_ns = 0; // ktime_get_ns() when it was logged
	std::uint32_t kind = 0;    // enum edgedma_finding_kind
	std::uint32_t call = 0;    // enum edgedma_call_kind of the call judged
	std::string device;        // dev_name()
	std::string driver;        // empty when the device has none bound
	std::uint64_t dma_addr = 0;
	std::uint64_t size = 0;
	std::uint32_t dir = 0;     // enum dma_data_direction
	std::optional<std::uint64_t> cpu_phys; // absent when the module cannot tell
	std::uint64_t caller = 0;  // return address into the caller; 0 if unknown
	// Who made the mapping involved (unmap and sync findings).
	std::optional<std::uint64_t> map_caller;
	std::string detail;        // one sentence saying what is wrong
	// caller and map_caller as the kernel named them ("func+0x1c/0x80 [mod]",
	// as %pS prints) when the finding was made. Absent where no symbol
	// covers the address, and from modules (and recordings) that predate
	// them. Prefer these to naming the address with a Symbolizer
	// (describe_caller() does): a symbol table read later can be stale (a
	// module loaded where another's freed __init text was is named after
	// that text) and has nothing for a module unloaded since.
	std::optional<std::string> caller_name;
	std::optional<std::string> map_caller_name;
	// The module folds repeats: a finding whose site (device, kind, caller)
	// already has one in its log is only counted into that one. occurrences
	// is how often the site was found so far, this finding included, when
	// the module sent it; last_time_ns (ktime_get_ns(), as time_ns) the
	// latest of them. The two come together; both are absent where the
	// module did not count (no caller, its site table was full), and from
	// modules (and recordings) that predate folding: then the finding
	// stands for itself alone. With fold_findings=0 every occurrence is
	// logged, and each entry of a site carries the site's count.
	std::optional<std::uint64_t> occurrences;
	std::optional<std::uint64_t> last_time_ns;
	// The call chain from the caller outwards: return addresses, caller
	// first (call_chain[0] is caller), then the code that called the
	// caller, and so on; up to six from the module (call_chain_frames_max
	// decoded). The kernel takes it for a logged finding only, and keeps
	// the caller alone where its unwinder cannot get past it (arm64, calls
	// hooked at their entry). Empty from modules (and recordings) that
	// predate it, and for a finding without a caller.
	std::vector<std::uint64_t> call_chain;
	// The frames of call_chain named as caller_name is, one each, in the
	// same order; "?" where no symbol covers the address. Never more than
	// call_chain has (the module cuts the text at a bound, so the last
	// frames may have no name); empty where the module sent no names.
	std::vector<std::string> call_chain_names;
	// The module of the device's driver at the call ("" when the driver is
	// built in, or the device had none); absent from modules (and
	// recordings) that predate it. Where the caller is a helper layer
	// (scsi_dma_map, the USB core), the driver's frame in call_chain is the
	// code to blame: find_culprit() (culprit.hpp) picks it.
	std::optional<std::string> driver_module;

	bool operator==(const Finding &) const = default;
};

// Most return addresses a decoded call chain may hold: the module sends six
// at most; a newer one may send more, but never this many (a chain longer
// than this is refused as malformed).
inline constexpr std::size_t call_chain_frames_max = 64;

// A FINDING_REPEATS notification: the site (device, kind, caller) of the
// logged finding seq was found again. Sent at most once a second per site,
// with the count so far; a listener that misses one loses only timeliness,
// as the next one, and the finding in the module's log, carry the whole
// count.
struct FindingRepeats {
	std::uint64_t seq = 0;          // of the logged finding of the site
	std::uint32_t kind = 0;         // enum edgedma_finding_kind
	std::string device;             // dev_name()
	std::string driver;             // empty when the device has none bound
	std::uint64_t occurrences = 0;  // so far, the logged one included
	std::uint64_t last_time_ns = 0; // ktime_get_ns() of the latest

	bool operator==(const FindingRepeats &) const = default;
};

// One live mapping (MAPPINGS_GET, and Snapshot::mappings). A scatter-gather
// mapping comes as one record per mapped segment, with sg_index and
// sg_count.
struct Mapping {
	std::string device;
	std::string driver;
	std::uint32_t call = 0; // enum edgedma_call_kind of the map or alloc
	std::uint64_t dma_addr = 0;
	std::uint64_t size = 0;
	std::uint32_t dir = 0;
	std::uint64_t attrs = 0; // DMA_ATTR_*
	std::optional<std::uint64_t> cpu_phys;
	std::optional<std::uint64_t> cpu_virt;
	std::uint64_t caller = 0;
	std::uint64_t time_ns = 0;
	std::optional<std::uint32_t> sg_index; // this segment's number
	std::uint32_t sg_count = 0; // segments of the sg mapping; 0 if not sg
	// caller as the kernel named it when it recorded the mapping
	// ("func+0x1c/0x80 [mod]", as Finding::caller_name): snapshots carry
	// it, MAPPINGS_GET does not (yet). Absent where no symbol covers the
	// address.
	std::optional<std::string> caller_name;

	bool operator==(const Mapping &) const = default;
};

// One device the module has seen calling the DMA API (DEVICES_GET), with
// what it counted for the device since it made the device's record.
struct Device {
	std::string name;   // dev_name()
	std::string driver; // empty when no driver is bound
	std::uint64_t calls = 0;         // DMA-API calls seen
	std::uint64_t mappings_live = 0; // its entries in the live mapping table
	std::uint64_t findings = 0;      // findings about it
	// Every mapping the device holds was made while the hooks watched (its
	// driver bound after they were armed). A device already driven when the
	// module loaded may hold mappings the module never saw made; its unmaps
	// and syncs of unknown mappings are then not reported as findings.
	bool complete = false;
	// The module turned off the DMA core's sync skipping for the device
	// (6.11+: dev->dma_skip_sync), so its dma_sync_*() calls reach the
	// hooks and are checked.
	bool sync_kept = false;

	bool operator==(const Device &) const = default;
};

// One DMA-mapping call from the module's mapping-event stream (off by
// default; see map_event_stream.hpp). Each CPU numbers its own events: seq
// counts every call that CPU made while the stream was on, including the
// ones it could not deliver, so a gap in one CPU's numbers is exact loss.
struct MapEvent {
	std::uint32_t cpu = 0;
	std::uint64_t seq = 0;     // per CPU, 1 for the first
	std::uint64_t time_ns = 0; // ktime_get_ns(), as findings
	std::uint32_t call = 0;    // enum edgedma_call_kind
	std::string device;
	std::string driver;
	std::uint64_t dma_addr = 0; // sg: the first mapped segment's
	std::uint64_t size = 0;     // bytes; sg: the mapped segments together
	std::uint32_t dir = 0;
	std::uint64_t attrs = 0;
	std::optional<std::uint64_t> cpu_phys;
	std::uint64_t caller = 0;
	std::uint32_t nents = 0;    // sg: segments mapped or passed; 0 otherwise

	bool operator==(const MapEvent &) const = default;
};

// Where one CPU's mapping-event stream stands, as the module answers
// MAP_EVENTS_SET after sending every event it held.
struct MapEventCursor {
	std::uint32_t cpu = 0;
	std::uint64_t next_seq = 0; // every lower seq was sent or dropped
	std::uint64_t dropped = 0;  // events the module could not send, since load
	bool operator==(const MapEventCursor &) const = default;
};

struct MapEventsState {
	bool was_enabled = false; // before the request
	std::vector<MapEventCursor> cursors; // one per possible CPU
	bool operator==(const MapEventsState &) const = default;
};

// Whether the module folds repeated findings now (Client::every_occurrence).
struct FoldingState {
	std::uint32_t holders = 0; // sockets asking for every occurrence
	bool folding = true;	    // repeats counted into their site's entry
	bool operator==(const FoldingState &) const = default;
};

// What a policy command is about: one device (dev_name()) or every device a
// driver binds.
struct PolicyTarget {
	enum class Kind { device, driver };
	Kind kind = Kind::device;
	std::string name;

	bool operator==(const PolicyTarget &) const = default;
};

// POLICY_SET: the fields given change, the others keep their value.
struct PolicyChange {
	PolicyTarget target;
	std::optional<std::uint32_t> addr_align; // power of two, 1 = none
	std::optional<std::uint32_t> len_align;
	std::optional<std::uint32_t> coherency;  // enum edgedma_coherency
	std::optional<std::uint32_t> checks;     // bit (kind - 1) per finding kind
	// bit (trigger - 1) per enum edgedma_snapshot_trigger: what snapshots
	// the device (the module's default: all)
	std::optional<std::uint32_t> snapshot_triggers;
	// bit (kind - 1): findings of these kinds snapshot the device
	// (the module's default: none)
	std::optional<std::uint32_t> snapshot_findings;
	// bytes of a to-device buffer cpu-write-while-device-owned hashes,
	// EDGEDMA_OWNED_HASH_MIN..MAX (the module's default: its parameter)
	std::optional<std::uint32_t> owned_hash_max;

	bool operator==(const PolicyChange &) const = default;
};

// A policy as the module reports it. From POLICY_GET of a device: the policy
// in force (overrides merged with the device's own word) and the facts the
// device gives. From the POLICY_GET dump (policy_list()): one override as
// set, holding only the fields it sets.
struct Policy {
	PolicyTarget target;
	std::optional<std::uint32_t> addr_align;
	std::optional<std::uint32_t> len_align;
	std::optional<std::uint32_t> coherency;
	std::optional<std::uint32_t> checks;
	std::optional<std::uint32_t> snapshot_triggers;
	std::optional<std::uint32_t> snapshot_findings;
	std::optional<std::uint32_t> owned_hash_max;
	// The device's own facts (POLICY_GET of a device only).
	std::optional<std::uint32_t> dev_coherent; // 1 if the kernel says coherent
	std::optional<std::uint64_t> dma_mask;
	std::optional<std::uint64_t> seg_boundary;
	std::optional<std::uint32_t> max_seg_size;
	std::optional<std::uint32_t> cache_line;

	bool operator==(const Policy &) const = default;
};

} // namespace edgedma
