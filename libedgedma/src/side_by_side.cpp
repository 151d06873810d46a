// SPDX-License-Identifier: LGPL-2.1-or-later
//
// A snapshot's views side by side: a row per page viewed, a cell per view,
// marked where a verdict of the comparison says the views disagree. The
// command line prints it as a table, the HTML report draws it.
#include <edgedma/cross_view.hpp>

#include <algorithm>
#include <array>

#include <linux/edgedma.h>

#include <edgedma/names.hpp>

#include "report_common.hpp"
#include "snapshot_facts.hpp"

namespace edgedma {
namespace {

using detail::hex;
using detail::may_hold_address;
using detail::page_size_of;
using detail::same_page;

constexpr std::array<SideBySideColumn, 6> columns{{
	{"DEVICE", "device", {"device", "registers", "descriptors"}},
	{"TABLE", "table", {"mappings", "history", ""}},
	{"IOMMU", "iommu", {"iommu", "", ""}},
	{"CPU PTE", "cpu", {"cpu", "", ""}},
	{"PHYSICAL", "physical", {"physical", "", ""}},
	{"CACHE", "cache", {"cache", "", ""}},
}};

std::string joined(const std::vector<std::string> &words, const std::string &none)
{
	if (words.empty())
		return none;
	std::string text = words.front();
	for (std::size_t i = 1; i < words.size(); i++)
		text += ", " + words[i];
	return text;
}

// What points the device into @page: the fault, registers, descriptors.
std::string device_cell(const Snapshot &snapshot, const PageView &page)
{
	std::vector<std::string> names;
	const SnapshotHeader &header = snapshot.header;
	if (header.trigger == EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT && header.trigger_addr &&
	    same_page(snapshot, *header.trigger_addr, page.dma_addr))
		names.push_back("fault" + (header.trigger_access
						   ? " (" + access_label(*header.trigger_access) + ")"
						   : std::string()));
	for (const Register &reg : snapshot.registers)
		if (may_hold_address(reg) && same_page(snapshot, *reg.value, page.dma_addr))
			names.push_back(reg.name);
	const auto held = buffers_in_page(snapshot, page);
	constexpr std::size_t shown = 2;
	for (std::size_t i = 0; i < held.size() && i < shown; i++)
		names.push_back(held[i].chain->name + "[" +
				std::to_string(held[i].descriptor->index) + "]");
	if (held.size() > shown)
		names.push_back("+" + std::to_string(held.size() - shown));
	return joined(names, "-");
}

std::string table_cell(const Snapshot &snapshot, const PageView &page)
{
	if (page.expected_phys)
		return "live " + hex(*page.expected_phys);
	for (const RecentUnmap &unmap : snapshot.unmaps)
		if (unmap.dma_addr < page.dma_addr + page_size_of(snapshot) &&
		    unmap.dma_addr + std::max<std::uint64_t>(unmap.size, 1) > page.dma_addr)
			return "unmapped";
	return "none";
}

std::string iommu_cell(const PageView &page)
{
	if (page.iommu_unmapped)
		return "nothing";
	if (page.iommu_phys)
		return hex(*page.iommu_phys);
	return "-";
}

std::string cpu_cell(const Snapshot &snapshot, const PageView &page)
{
	if (!page.pte_present)
		return "-";
	if (!*page.pte_present)
		return "not present";
	std::string cell = page.pte_pfn ? hex(*page.pte_pfn * page_size_of(snapshot))
					: std::string("present");
	if (page.pte_writable)
		cell += *page.pte_writable ? " rw" : " ro";
	if (page.pte_executable)
		cell += *page.pte_executable ? " x" : " nx";
	if (page.pte_memtype)
		cell += " " + memtype_label(*page.pte_memtype);
	return cell;
}

std::string physical_cell(const PageView &page)
{
	if (!page.phys)
		return "-";
	if (page.pfn_valid == false)
		return "not managed";
	std::vector<std::string> words;
	if (page.flags)
		words = page_flag_names(*page.flags);
	if (page.swiotlb.value_or(false))
		words.push_back("swiotlb");
	return joined(words, "page");
}

std::string cache_cell(const Snapshot &snapshot, const PageView &page)
{
	if (!snapshot.coherent)
		return "-";
	if (*snapshot.coherent)
		return "coherent";
	// The sharers share lines of the first mapping: of the pages it spans.
	if (!snapshot.mappings.empty() && !snapshot.line_sharers.empty()) {
		const Mapping &first = snapshot.mappings.front();
		const std::uint64_t page_end = page.dma_addr + page_size_of(snapshot);
		if (page.dma_addr < first.dma_addr + std::max<std::uint64_t>(first.size, 1) &&
		    page_end > first.dma_addr)
			return "shared with " + std::to_string(snapshot.line_sharers.size());
	}
	return "non-coherent";
}


} // namespace

std::span<const SideBySideColumn> side_by_side_columns()
{
	return columns;
}

std::vector<std::string> views_disagreeing_on(const Snapshot &snapshot, const PageView &page,
					      std::span<const Verdict> verdicts)
{
	std::vector<std::string> views;
	for (const Verdict &verdict : verdicts) {
		if (verdict.severity == Severity::note)
			continue;
		for (const Evidence &item : verdict.evidence)
			if (item.dma_addr && same_page(snapshot, *item.dma_addr, page.dma_addr) &&
			    std::ranges::find(views, item.view) == views.end())
				views.push_back(item.view);
	}
	return views;
}

std::vector<SideBySideRow> side_by_side(const Snapshot &snapshot, std::span<const Verdict> verdicts)
{
	std::vector<SideBySideRow> rows;
	for (const PageView &page : snapshot.pages) {
		SideBySideRow row;
		row.dma_addr = page.dma_addr;
		row.cells = {device_cell(snapshot, page), table_cell(snapshot, page),
			     iommu_cell(page),			 cpu_cell(snapshot, page),
			     physical_cell(page),		 cache_cell(snapshot, page)};
		row.disagree = views_disagreeing_on(snapshot, page, verdicts);
		for (const SideBySideColumn &column : columns)
			row.marked.push_back(std::ranges::any_of(column.views, [&](std::string_view view) {
				return !view.empty() &&
				       std::ranges::find(row.disagree, view) != row.disagree.end();
			}));
		rows.push_back(std::move(row));
	}
	return rows;
}

} // namespace edgedma
