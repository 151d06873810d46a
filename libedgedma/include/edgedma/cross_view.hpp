// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// The cross-view comparison (Documentation/cross-view.rst): a snapshot holds
// several views of the same memory (what the device was told in its
// registers and descriptors, what the mapping table and the unmap history
// say, what the IOMMU translates, what the CPU page tables and the page
// allocator say, what the caches share). compare_views() runs a fixed list
// of rules over them; each disagreement becomes a Verdict with the one
// sentence a driver author acts on and the evidence behind it.
//
// It needs the snapshot alone, so it works the same on a live module, on a
// recording and on a saved record (devcoredump) on another machine.

#include <array>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <edgedma/export.hpp>
#include <edgedma/snapshot.hpp>
#include <edgedma/symbolizer.hpp>

namespace edgedma {

// Ordered: a larger value is worse.
enum class Severity : std::uint8_t {
	note,
	warning,
	error,
};

// "note", "warning", "error".
EDGEDMA_API std::string_view severity_name(Severity severity);

// What one view said, for a verdict. view is one of the names of
// cross_view_names() ("device", "registers", "descriptors", "mappings",
// "history", "iommu", "cpu", "physical", "cache"); subject is the part of
// it ("DMA_SRC", "rx0[3]", "IOVA 0xffff000", a mapping); value is what it
// said there.
struct Evidence {
	std::string view;
	std::string subject;
	std::string value;
	// The DMA address the evidence is about, where it is about one: a
	// page view of the snapshot holding it is where the views disagree.
	std::optional<std::uint64_t> dma_addr;

	bool operator==(const Evidence &) const = default;
};

// One finding of the comparison.
struct Verdict {
	std::string rule; // one of cross_view_rules(); part of the JSON
	Severity severity = Severity::note;
	// One sentence: the device, the address, the mapping and who made and
	// removed it, where the snapshot knows them.
	std::string sentence;
	std::vector<Evidence> evidence;

	bool operator==(const Verdict &) const = default;
};

// The rules in the order compare_views() runs them: device-after-unmap,
// fault-outside-mappings, desc-unmapped, desc-overrun, direction-conflict,
// cpu-write-while-device-owned, iommu-cpu-mismatch, pte-mismatch, cacheline-neighbour, bounced,
// misaligned-for-controller, and consistent (the note given when no other
// rule found anything).
EDGEDMA_API std::span<const std::string_view> cross_view_rules();

// The views evidence may name, in the order the side-by-side table shows
// them.
EDGEDMA_API std::span<const std::string_view> cross_view_names();

// Every verdict of @snapshot, in rule order (within a rule, in the order of
// the snapshot's parts). Never empty: a snapshot in which no rule found a
// disagreement gets one `consistent` note naming what was compared, so
// "nothing found" is told apart from "nothing compared". Callers the
// kernel did not name when it took the snapshot are named by @symbols
// (describe_caller()).
EDGEDMA_API std::vector<Verdict> compare_views(const Snapshot &snapshot,
					       const Symbolizer &symbols);

// The verdict a snapshot is shown with: the first error; without one, the
// first of the worst severity there is. Null only for no verdicts. Points
// into @verdicts.
EDGEDMA_API const Verdict *headline(std::span<const Verdict> verdicts);

// A column of the side-by-side view: its title, its JSON key, and the
// views of the comparison (cross_view_names()) whose evidence marks it.
struct SideBySideColumn {
	std::string_view title; // "DEVICE", "TABLE", "IOMMU", "CPU PTE", "PHYSICAL", "CACHE"
	std::string_view key;   // "device", "table", "iommu", "cpu", "physical", "cache"
	std::array<std::string_view, 3> views;
};

// The columns, in order: what points the device into the page (the fault,
// registers, descriptors), the mapping table and unmap history ("live
// PHYS", "unmapped", "none"), the IOMMU's translation ("nothing" when it
// faults), the page the CPU's entry maps with its permissions and memory
// type, the allocator's flags, the device's coherency and line sharers.
EDGEDMA_API std::span<const SideBySideColumn> side_by_side_columns();

// One page of a snapshot across the views.
struct SideBySideRow {
	std::uint64_t dma_addr = 0;
	std::vector<std::string> cells;    // one per column; "-" where a view said nothing
	std::vector<bool> marked;          // per column: a warning or error names it here
	std::vector<std::string> disagree; // those views by name (cross_view_names())
};

// A row per page of @snapshot, in its order, marked by @verdicts (those of
// compare_views() for it).
EDGEDMA_API std::vector<SideBySideRow> side_by_side(const Snapshot &snapshot,
						    std::span<const Verdict> verdicts);

// The views (cross_view_names()) that a warning or error of @verdicts names
// for @page: where they disagree.
EDGEDMA_API std::vector<std::string> views_disagreeing_on(const Snapshot &snapshot,
							  const PageView &page,
							  std::span<const Verdict> verdicts);

// A verdict as JSON, in the shape `edgedma snapshot show --json` and the
// reports give it: {rule, severity, sentence, evidence: [{view, subject,
// value, dma_addr ("0x..." or null)}]}. A template over the JSON type
// (nlohmann::json or ordered_json) so that this header needs no JSON
// library and the library's ABI carries none.
template <typename Json> Json verdict_to_json(const Verdict &verdict)
{
	Json evidence = Json::array();
	for (const Evidence &item : verdict.evidence) {
		Json address = nullptr;
		if (item.dma_addr) {
			char text[sizeof "0x" + 16];
			std::snprintf(text, sizeof text, "0x%llx",
				      static_cast<unsigned long long>(*item.dma_addr));
			address = text;
		}
		evidence.push_back(Json{{"view", item.view},
					{"subject", item.subject},
					{"value", item.value},
					{"dma_addr", std::move(address)}});
	}
	return Json{{"rule", verdict.rule},
		    {"severity", std::string(severity_name(verdict.severity))},
		    {"sentence", verdict.sentence},
		    {"evidence", std::move(evidence)}};
}

} // namespace edgedma
