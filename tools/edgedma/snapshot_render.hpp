// SPDX-License-Identifier: GPL-2.0
#pragma once

// How `edgedma snapshot` shows snapshots: the list of stored ones, one
// whole, and the line `snapshot take` prints.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <edgedma/cross_view.hpp>
#include <edgedma/snapshot.hpp>
#include <edgedma/symbolizer.hpp>

namespace edgedma::cli {

// `edgedma snapshot take`: one line, "snapshot SEQ of DEVICE (DRIVER): N live
// mappings, N recent unmaps", then, when the snapshot is about an address,
// where that address was ("0x1000 is in a live mapping", "0x1000 was
// unmapped 3.00 ms before", "0x1000 is in no live mapping or recent
// unmap"), then "N parts skipped" and "TRUNCATED" when so.
std::string snapshot_summary(const Snapshot &snapshot);

// `edgedma watch`: a SNAPSHOT notification on one line, "snapshot SEQ of
// DEVICE (DRIVER): TRIGGER" then what the trigger knew ("at ADDR (read)",
// "in SYMBOL", "for finding N"), the record's size and the command that
// shows it.
std::string snapshot_announcement_text(const SnapshotHeader &header);

// A verdict on one line: "ERROR device-after-unmap: SENTENCE" (the
// severity in capitals), as snapshot show heads a snapshot with it.
std::string verdict_line(const Verdict &verdict);

// `edgedma snapshot list --json`, one object per snapshot: seq, time_ns,
// real_time_ns, cpu, trigger (a word), trigger_addr ("0x..." or null),
// trigger_access (a word or null), trigger_reason, trigger_symbol,
// finding_seq, finding_kind (a word; null when absent), device, driver,
// record_size.
nlohmann::ordered_json snapshot_header_json(const SnapshotHeader &header);

// `edgedma snapshot list`: a table, a line per snapshot (SEQ, TAKEN in UTC,
// TRIGGER, DEVICE, DRIVER "-" when none, ADDRESS "-" when none, BYTES of
// the record), after a header line.
std::string snapshot_list_text(const std::vector<SnapshotHeader> &headers);

// `edgedma snapshot show --json`: one object. The header's keys as
// snapshot_header_json() has them, headline (the cross-view verdict it is
// shown with, or null) and verdicts (every one: rule, severity, sentence,
// evidence [{view, subject, value, dma_addr}]; verdict_to_json()), then kernel_release and hook_mode (null
// when the record lacks them), truncated (bool), capture_ns (how long the
// module took to write the record; null when it lacks it), profile (null when no
// profile describes the device), registers, descriptors (one object per
// descriptor chain: name, kind, start, count, head, tail, walk (words),
// skipped, desc_size, fields (the layout: name, offset, width, shift, bits,
// role) and descriptors [{index, dma_addr, state, owner ("device",
// "driver" or null), fields {name: "0x.."},
// bytes (hex), buffers [{field, addr, length, state, mapping_addr,
// mapping_size}]}]), views, cache_line and coherent
// (null when the record lacks them), line_sharers, mappings,
// mappings_left_out, history (the recent unmaps) and skipped.
// A register: name, window, offset, width, flags (words), fields ({name:
// value}, values null when not read), value (null when not read) and
// skipped (the reason's word, null when read).
// A view, one per page: dma_addr, expected_phys, iommu {domain, phys,
// unmapped}, cpu {virt, pte, size, present, writable, executable, pfn,
// memtype}, phys {addr, pfn_valid, flags, refcount, swiotlb}; null where
// the module did not tell; buffer_of, the descriptors whose buffers lie in
// the page ("rx0[118] unmapped": chain, slot, buffer state); disagree, the
// views a warning or error names for the page.
// A mapping: dma_addr, size, dir, call, attrs, cpu_phys, cpu_virt,
// caller, caller_addr, time_ns, sg_index (null if not sg), sg_count,
// holds_trigger_addr. A line sharer: the same but holds_trigger_addr, then
// device and driver (null when the module could not name them). An unmap:
// dma_addr, size, dir, call, cpu_phys,
// map_time_ns, unmap_time_ns, map_caller, map_caller_addr, unmap_caller,
// unmap_caller_addr, covers_trigger_addr. A skipped part: part, reason
// (words). Addresses are "0x..." strings; callers are named by the kernel
// when the snapshot was taken, else from symbols, null when unknown.
nlohmann::ordered_json snapshot_json(const Snapshot &snapshot, const Symbolizer &symbols);
// The same with the verdicts compare_views() gave for it already.
nlohmann::ordered_json snapshot_json(const Snapshot &snapshot, const Symbolizer &symbols,
				     const std::vector<Verdict> &verdicts);

// `edgedma snapshot show`: the headline verdict of the cross-view
// comparison, the header as "label: value" lines, the views side by side
// (a row per page, a column per view, "!" where they disagree), every
// verdict with its evidence, the
// registers of the device's profile (each with its bit fields decoded, or
// why it was not read), the live
// mappings as a table with the one holding the snapshot's address marked
// "*", the recent unmaps with when each was mapped and unmapped (before
// the snapshot) and by whom, the pages viewed (what the mapping table
// expects, what the IOMMU says, the CPU's page-table entry, the
// allocator's view), the cache lines (size, coherency, the mappings
// sharing the first mapping's lines), the parts skipped with their reasons, the
// mappings left out, and a TRUNCATED line when the record ran out of room.
std::string snapshot_text(const Snapshot &snapshot, const Symbolizer &symbols);
std::string snapshot_text(const Snapshot &snapshot, const Symbolizer &symbols,
			  const std::vector<Verdict> &verdicts);

// A descriptor field's layout, as snapshot show and profile show give it:
// name, offset, width, shift, bits (null: all of them), role (a word, or
// null).
nlohmann::ordered_json descriptor_field_json(const DescriptorField &field);

} // namespace edgedma::cli
