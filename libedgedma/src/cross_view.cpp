// SPDX-License-Identifier: LGPL-2.1-or-later
//
// The cross-view rules (Documentation/cross-view.rst). Each rule is a
// function of the snapshot that appends its verdicts; they run in the
// order of rule_table, and the last one, consistent, speaks only when none
// of the others did.
#include <edgedma/cross_view.hpp>

#include <algorithm>
#include <array>
#include <functional>
#include <set>
#include <utility>

#include <linux/edgedma.h>

#include <edgedma/names.hpp>
#include <edgedma/pl330.hpp>

#include "report_common.hpp"
#include "snapshot_facts.hpp"

namespace edgedma {
namespace {

using detail::byte_size;
using detail::duration;
using detail::hex;

struct Context {
	const Snapshot &snapshot;
	const Symbolizer &symbols;
	std::vector<Verdict> &verdicts;

	std::uint64_t page_size() const { return detail::page_size_of(snapshot); }
	std::uint64_t page_of(std::uint64_t address) const
	{
		return detail::page_of(snapshot, address);
	}
};

// "edgedma_test_edu 0000:00:03.0", or the device alone without a driver.
std::string device_text(const std::string &device, const std::string &driver)
{
	if (driver.empty())
		return device;
	return driver + " " + device;
}

std::string device_of(const Snapshot &snapshot)
{
	return device_text(snapshot.header.device, snapshot.header.driver);
}

std::string caller_of(const Context &context, std::uint64_t address,
		      const std::optional<std::string> &kernel_name)
{
	return describe_caller(address, kernel_name, context.symbols).value_or("an unknown caller");
}

// "128 bytes, to-device, mapped by zoo_probe+0x40/0x100 [zoo]"
std::string mapping_facts(const Context &context, const Mapping &mapping)
{
	return byte_size(mapping.size) + ", " + direction_label(mapping.dir) + ", mapped by " +
	       caller_of(context, mapping.caller, mapping.caller_name);
}

std::string mapping_subject(const Mapping &mapping)
{
	return call_kind_label(mapping.call) + " " + hex(mapping.dma_addr);
}

// A time of the hooks' clock against the snapshot's: how long before it.
std::string earlier(const Snapshot &snapshot, std::uint64_t time_ns)
{
	if (time_ns <= snapshot.header.time_ns)
		return duration(snapshot.header.time_ns - time_ns) + " earlier";
	return "at the same moment";
}

const PageView *page_view_of(const Context &context, std::uint64_t address)
{
	for (const PageView &page : context.snapshot.pages)
		if (context.page_of(page.dma_addr) == context.page_of(address))
			return &page;
	return nullptr;
}

bool is_iommu_fault(const Snapshot &snapshot)
{
	return snapshot.header.trigger == EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT &&
	       snapshot.header.trigger_addr;
}

// "read", "wrote", or "accessed" when the IOMMU did not say.
std::string access_verb(const SnapshotHeader &header)
{
	if (header.trigger_access == EDGEDMA_ACCESS_READ)
		return "read";
	if (header.trigger_access == EDGEDMA_ACCESS_WRITE)
		return "wrote";
	return "accessed";
}

// A descriptor the device may follow: in a ring, the device's slots; a
// list, and a ring whose head and tail were not read, all of them.
bool device_may_use(const Descriptor &descriptor)
{
	return descriptor.owner != EDGEDMA_OWNER_DRIVER;
}

std::string descriptor_subject(const DescriptorChain &chain, const Descriptor &descriptor)
{
	std::string subject = chain.name + "[" + std::to_string(descriptor.index) + "]";
	if (descriptor.owner)
		subject += " (" + descriptor_owner_label(*descriptor.owner) + "'s)";
	return subject;
}

// Calls @visit(subject, buffer) for every buffer of a descriptor the
// device may follow, in walk order; subject names the descriptor
// ("rx0[3] (device's)").
template <typename Visit> void for_each_device_buffer(const Snapshot &snapshot, Visit visit)
{
	for (const DescriptorChain &chain : snapshot.chains)
		for (const Descriptor &descriptor : chain.descriptors) {
			if (!device_may_use(descriptor))
				continue;
			for (const DescriptorBuffer &buffer : descriptor.buffers)
				visit(chain, descriptor_subject(chain, descriptor), buffer);
		}
}

std::string unmap_subject(const RecentUnmap &unmap)
{
	return call_kind_label(unmap.call) + " " + hex(unmap.dma_addr);
}

std::string unmap_facts(const Context &context, const RecentUnmap &unmap)
{
	return byte_size(unmap.size) + ", " + direction_label(unmap.dir) + ", mapped by " +
	       caller_of(context, unmap.map_caller, unmap.map_caller_name) + " " +
	       earlier(context.snapshot, unmap.map_time_ns) + ", unmapped by " +
	       caller_of(context, unmap.unmap_caller, unmap.unmap_caller_name) + " " +
	       earlier(context.snapshot, unmap.unmap_time_ns);
}

// What the IOMMU said of the page holding @address, as evidence: whether
// the device could still reach the memory after the unmap.
void add_iommu_evidence(const Context &context, std::uint64_t address, Verdict &verdict)
{
	const PageView *page = page_view_of(context, address);
	if (!page)
		return;
	std::string value;
	if (page->iommu_unmapped)
		value = "translates nothing (" + iommu_domain_label(page->iommu_domain) + ")";
	else if (page->iommu_phys)
		value = "still translates to " + hex(*page->iommu_phys) + " (" +
			iommu_domain_label(page->iommu_domain) + ")";
	else
		return;
	verdict.evidence.push_back({"iommu", "IOVA " + hex(context.page_of(address)), value,
				    address});
}

// Where the device was pointed at an address: a register, a descriptor
// buffer, or an instruction of its program (a PL330 DMAMOV). Kept per
// unmap so that one verdict gathers all of them.
struct Pointer {
	std::string view;    // "registers", "descriptors" or "program"
	std::string subject; // "DMA_SRC", "rx0[3] (device's)", "ch0-program: DMAMOV DAR at 0x..."
	std::uint64_t address = 0;
};

// The evidence view a pointer is shown in: a program lives in the
// descriptor view (it was read as the chain's blocks).
std::string evidence_view(const Pointer &pointer)
{
	return pointer.view == "program" ? "descriptors" : pointer.view;
}

// Every register and descriptor that points the device at memory a recent
// unmap removed and no live mapping holds, with the latest unmap holding it.
std::vector<std::pair<Pointer, const RecentUnmap *>> pointers_into_unmaps(const Snapshot &snapshot)
{
	std::vector<std::pair<Pointer, const RecentUnmap *>> found;
	auto add = [&](std::string view, std::string subject, std::uint64_t address) {
		if (live_mapping_holding(snapshot, address))
			return;
		if (const RecentUnmap *unmap = unmap_holding(snapshot, address))
			found.push_back({{std::move(view), std::move(subject), address}, unmap});
	};
	for (const Register &reg : snapshot.registers)
		if (detail::may_hold_address(reg))
			add("registers", reg.name, *reg.value);
	for_each_device_buffer(snapshot, [&](const DescriptorChain &, std::string subject,
					     const DescriptorBuffer &buffer) {
		if (buffer.state == EDGEDMA_BUFFER_UNMAPPED)
			add("descriptors", std::move(subject), buffer.addr);
	});
	// What a channel's program loads into its address registers: the
	// module cannot tell these bytes from others, so they are resolved here.
	for (const DescriptorChain &chain : snapshot.chains) {
		const auto program = pl330_program(chain);
		if (!program)
			continue;
		for (const Pl330Instruction &instruction : program->instructions)
			if (instruction.moves && *instruction.moves != Pl330Register::ccr)
				add("program",
				    chain.name + ": DMAMOV " + pl330_register_label(*instruction.moves) +
					    " at " + hex(instruction.addr),
				    instruction.immediate);
	}
	return found;
}

// "; the DMA_SRC register still held it" / "; descriptors rx0[3] and
// rx0[4] point into it".
std::string pointers_clause(const std::vector<Pointer> &pointers, bool same_address,
			    bool after_fault)
{
	std::vector<std::string> registers, descriptors, instructions;
	for (const Pointer &pointer : pointers)
		(pointer.view == "registers" ? registers
		 : pointer.view == "program" ? instructions
					     : descriptors)
			.push_back(pointer.subject);
	auto join = [](const std::vector<std::string> &names) {
		std::string text;
		for (std::size_t i = 0; i < names.size(); i++) {
			if (i)
				text += i + 1 == names.size() ? " and " : ", ";
			text += names[i];
		}
		return text;
	};
	std::string text;
	const std::string still = after_fault ? "still " : "";
	const std::string target = same_address ? "it" : "into it";
	if (!registers.empty())
		text += "; " + std::string(registers.size() == 1 ? "the " : "registers ") +
			join(registers) + (registers.size() == 1 ? " register " : " ") + still +
			(same_address ? "held it" : "pointed " + target);
	if (!descriptors.empty())
		text += "; " + std::string(descriptors.size() == 1 ? "descriptor " : "descriptors ") +
			join(descriptors) + " " + still + (descriptors.size() == 1 ? "points " : "point ") +
			(same_address ? "at it" : "into it");
	if (!instructions.empty())
		text += "; " + std::string(instructions.size() == 1 ? "the program's " : "its programs' ") +
			join(instructions) + " " + still + (instructions.size() == 1 ? "loads " : "load ") +
			(same_address ? "it" : "an address inside it");
	return text;
}

// device-after-unmap: the device accessed (IOMMU fault), or its registers
// or descriptors point at, memory the unmap history shows unmapped and no
// live mapping holds.
void rule_device_after_unmap(Context &context)
{
	const Snapshot &snapshot = context.snapshot;
	std::set<const RecentUnmap *> done;

	const auto found = pointers_into_unmaps(snapshot);
	auto verdict_for = [&](const RecentUnmap &unmap, std::optional<std::uint64_t> fault) {
		std::vector<Pointer> pointers;
		for (const auto &[pointer, owner] : found)
			if (owner == &unmap)
				pointers.push_back(pointer);
		if (!fault && pointers.empty())
			return;
		Verdict verdict{"device-after-unmap", Severity::error, {}, {}};
		const std::string device = device_of(snapshot);
		const std::string unmapper =
			caller_of(context, unmap.unmap_caller, unmap.unmap_caller_name);
		const std::string facts = byte_size(unmap.size) + ", " + direction_label(unmap.dir);
		if (fault) {
			// VT-d reports the page alone: a register holding an
			// address in the faulting page held "it".
			const bool same = std::ranges::all_of(pointers, [&](const Pointer &p) {
				return context.page_of(p.address) == context.page_of(*fault);
			});
			verdict.sentence = device + " " + access_verb(snapshot.header) + " IOVA " +
					   hex(*fault) + " after " + unmapper + " unmapped it " +
					   earlier(snapshot, unmap.unmap_time_ns) + " (" + facts +
					   ")" + pointers_clause(pointers, same, true);
			std::string value = access_verb(snapshot.header) + " " + hex(*fault);
			if (snapshot.header.trigger_reason)
				value += ", reason " + hex(*snapshot.header.trigger_reason);
			verdict.evidence.push_back({"device", "IOMMU fault", value, *fault});
		} else {
			const Pointer &first = pointers.front();
			verdict.sentence = device + "'s " +
					   (first.view == "registers" ? first.subject + " register"
					    : first.view == "program" ? "program (" + first.subject + ")"
								      : "descriptor " + first.subject) +
					   " points at IOVA " + hex(first.address) + ", which " +
					   unmapper + " unmapped " +
					   earlier(snapshot, unmap.unmap_time_ns) + " (" + facts + ")";
			if (pointers.size() > 1)
				verdict.sentence += "; " + std::to_string(pointers.size() - 1) +
						    " more point into it";
		}
		for (const Pointer &pointer : pointers)
			verdict.evidence.push_back({evidence_view(pointer), pointer.subject,
						    hex(pointer.address), pointer.address});
		verdict.evidence.push_back(
			{"history", unmap_subject(unmap), unmap_facts(context, unmap), unmap.dma_addr});
		const std::uint64_t address = fault ? *fault : pointers.front().address;
		verdict.evidence.push_back(
			{"mappings", "IOVA " + hex(address), "in no live mapping", address});
		add_iommu_evidence(context, address, verdict);
		context.verdicts.push_back(std::move(verdict));
		done.insert(&unmap);
	};

	if (is_iommu_fault(snapshot)) {
		const SnapshotAddressOwner owner = snapshot_address_owner(snapshot);
		if (owner.kind == SnapshotAddressOwner::Kind::unmapped)
			verdict_for(*owner.unmap, *snapshot.header.trigger_addr);
	}
	for (const auto &[pointer, unmap] : found)
		if (!done.contains(unmap))
			verdict_for(*unmap, std::nullopt);
}

// fault-outside-mappings: the IOMMU refused an address that no live
// mapping and no recent unmap of the device holds: a wild or stale
// address from somewhere the snapshot cannot see.
void rule_fault_outside_mappings(Context &context)
{
	const Snapshot &snapshot = context.snapshot;
	if (!is_iommu_fault(snapshot) ||
	    snapshot_address_owner(snapshot).kind != SnapshotAddressOwner::Kind::nowhere)
		return;
	const std::uint64_t address = *snapshot.header.trigger_addr;
	Verdict verdict{"fault-outside-mappings", Severity::error, {}, {}};
	verdict.sentence = device_of(snapshot) + " " + access_verb(snapshot.header) + " IOVA " +
			   hex(address) +
			   ", which no live mapping and no recent unmap of the device holds";
	const bool history_kept = std::ranges::none_of(snapshot.skipped, [](const SkippedPart &p) {
		return p.part == EDGEDMA_SNAPSHOT_PART_UNMAPPED;
	});
	if (!history_kept)
		verdict.sentence += " (the snapshot holds no unmap history)";
	verdict.evidence.push_back({"device", "IOMMU fault",
				    access_verb(snapshot.header) + " " + hex(address), address});
	verdict.evidence.push_back({"mappings", "IOVA " + hex(address),
				    "in none of " + std::to_string(snapshot.mappings.size()) +
					    " live mappings",
				    address});
	verdict.evidence.push_back({"history", "IOVA " + hex(address),
				    "in none of " + std::to_string(snapshot.unmaps.size()) +
					    " recent unmaps",
				    address});
	context.verdicts.push_back(std::move(verdict));
}

// desc-unmapped: a descriptor the device may follow points at memory in no
// live mapping and no recent unmap of the device.
void rule_desc_unmapped(Context &context)
{
	const Snapshot &snapshot = context.snapshot;
	for_each_device_buffer(snapshot, [&](const DescriptorChain &, const std::string &subject,
					     const DescriptorBuffer &buffer) {
		if (buffer.state != EDGEDMA_BUFFER_UNKNOWN)
			return;
		Verdict verdict{"desc-unmapped", Severity::error, {}, {}};
		verdict.sentence = device_of(snapshot) + "'s descriptor " + subject +
				   " points at IOVA " + hex(buffer.addr) +
				   ", in no live mapping and no recent unmap of the device";
		verdict.evidence.push_back(
			{"descriptors", subject,
			 hex(buffer.addr) + (buffer.length ? ", " + byte_size(*buffer.length) : ""),
			 buffer.addr});
		verdict.evidence.push_back(
			{"mappings", "IOVA " + hex(buffer.addr), "in no live mapping", buffer.addr});
		verdict.evidence.push_back(
			{"history", "IOVA " + hex(buffer.addr), "in no recent unmap", buffer.addr});
		context.verdicts.push_back(std::move(verdict));
	});
}

// desc-overrun: a descriptor's length runs past the end of the live
// mapping its buffer starts in.
void rule_desc_overrun(Context &context)
{
	const Snapshot &snapshot = context.snapshot;
	for_each_device_buffer(snapshot, [&](const DescriptorChain &, const std::string &subject,
					     const DescriptorBuffer &buffer) {
		if (buffer.state != EDGEDMA_BUFFER_OVERRUN || !buffer.length ||
		    !buffer.mapping_addr || !buffer.mapping_size)
			return;
		const std::uint64_t end = *buffer.mapping_addr + *buffer.mapping_size;
		const std::uint64_t past = buffer.addr + *buffer.length - end;
		const Mapping *mapping = live_mapping_holding(snapshot, buffer.addr);
		Verdict verdict{"desc-overrun", Severity::error, {}, {}};
		verdict.sentence = device_of(snapshot) + "'s descriptor " + subject +
				   " gives the device " + byte_size(*buffer.length) + " at IOVA " +
				   hex(buffer.addr) + ", " + byte_size(past) +
				   " past the end of the mapping at " + hex(*buffer.mapping_addr);
		if (mapping)
			verdict.sentence += " (" + mapping_facts(context, *mapping) + ")";
		verdict.evidence.push_back({"descriptors", subject,
					    hex(buffer.addr) + ", " + byte_size(*buffer.length),
					    buffer.addr});
		verdict.evidence.push_back({"mappings", hex(*buffer.mapping_addr),
					    byte_size(*buffer.mapping_size) + ", ends at " + hex(end),
					    *buffer.mapping_addr});
		context.verdicts.push_back(std::move(verdict));
	});
}

// direction-conflict: the device wrote into a mapping made for it to read
// only, or read one made for it to write only: at the fault, or where a
// chain whose direction the profile gives points the device.
void direction_conflict_at_fault(Context &context)
{
	const Snapshot &snapshot = context.snapshot;
	if (!is_iommu_fault(snapshot) || !snapshot.header.trigger_access)
		return;
	const std::uint64_t address = *snapshot.header.trigger_addr;
	const Mapping *mapping = live_mapping_holding(snapshot, address);
	if (!mapping)
		return;
	const bool wrote = *snapshot.header.trigger_access == EDGEDMA_ACCESS_WRITE;
	const bool read = *snapshot.header.trigger_access == EDGEDMA_ACCESS_READ;
	std::string consequence;
	if (wrote && mapping->dir == dma_direction::to_device)
		consequence = "a to-device mapping, which the device may only read";
	else if (read && mapping->dir == dma_direction::from_device)
		consequence = "a from-device mapping, which the device may only write";
	else
		return;
	Verdict verdict{"direction-conflict", Severity::error, {}, {}};
	verdict.sentence = device_of(snapshot) + " " + access_verb(snapshot.header) + " IOVA " +
			   hex(address) + " inside " + consequence + " (" +
			   mapping_facts(context, *mapping) + ")";
	verdict.evidence.push_back(
		{"device", "IOMMU fault", access_verb(snapshot.header) + " " + hex(address), address});
	verdict.evidence.push_back({"mappings", mapping_subject(*mapping),
				    byte_size(mapping->size) + ", " + direction_label(mapping->dir),
				    mapping->dma_addr});
	context.verdicts.push_back(std::move(verdict));
}

void direction_conflict_in_descriptors(Context &context)
{
	const Snapshot &snapshot = context.snapshot;
	for_each_device_buffer(snapshot, [&](const DescriptorChain &chain, const std::string &subject,
					     const DescriptorBuffer &buffer) {
		if (!chain.direction)
			return;
		const Mapping *mapping = live_mapping_holding(snapshot, buffer.addr);
		// A bidirectional mapping suits either; the opposite one does not.
		if (!mapping || mapping->dir == dma_direction::bidirectional ||
		    mapping->dir == *chain.direction ||
		    (mapping->dir != dma_direction::to_device &&
		     mapping->dir != dma_direction::from_device))
			return;
		const bool device_writes = *chain.direction == dma_direction::from_device;
		Verdict verdict{"direction-conflict", Severity::error, {}, {}};
		verdict.sentence =
			device_of(snapshot) + "'s " + direction_label(*chain.direction) +
			" descriptor " + subject + " gives the device IOVA " + hex(buffer.addr) +
			" to " + (device_writes ? "write" : "read") + ", inside a " +
			direction_label(mapping->dir) + " mapping (" + mapping_facts(context, *mapping) +
			"), which the device may only " + (device_writes ? "read" : "write") +
			(device_writes ? ": what it writes may be lost to the unmap's cache "
					 "maintenance, or never reach the CPU"
				       : ": it reads memory the driver never cleaned for it");
		verdict.evidence.push_back(
			{"descriptors", subject,
			 hex(buffer.addr) + ", chain " + chain.name + " " +
				 direction_label(*chain.direction),
			 buffer.addr});
		verdict.evidence.push_back({"mappings", mapping_subject(*mapping),
					    byte_size(mapping->size) + ", " +
						    direction_label(mapping->dir),
					    mapping->dma_addr});
		context.verdicts.push_back(std::move(verdict));
	});
}

void rule_direction_conflict(Context &context)
{
	direction_conflict_at_fault(context);
	direction_conflict_in_descriptors(context);
}

// cpu-write-while-device-owned: the finding that took the snapshot says
// the bytes of a to-device buffer changed while the device owned it; the
// cache-line view says what that costs on this device.
void rule_cpu_write_while_device_owned(Context &context)
{
	const Snapshot &snapshot = context.snapshot;
	const SnapshotHeader &header = snapshot.header;
	if (header.trigger != EDGEDMA_SNAPSHOT_TRIGGER_FINDING ||
	    header.finding_kind != EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED ||
	    !header.trigger_addr)
		return;
	const SnapshotAddressOwner owner = snapshot_address_owner(snapshot);
	std::uint64_t dma_addr = *header.trigger_addr, size = 0;
	std::string facts, taken_back;
	if (owner.kind == SnapshotAddressOwner::Kind::live) {
		dma_addr = owner.mapping->dma_addr;
		size = owner.mapping->size;
		facts = mapping_facts(context, *owner.mapping);
		taken_back = "a sync for the CPU";
	} else if (owner.kind == SnapshotAddressOwner::Kind::unmapped) {
		dma_addr = owner.unmap->dma_addr;
		size = owner.unmap->size;
		facts = byte_size(size) + ", " + direction_label(owner.unmap->dir) + ", mapped by " +
			caller_of(context, owner.unmap->map_caller, owner.unmap->map_caller_name);
		taken_back = caller_of(context, owner.unmap->unmap_caller,
				       owner.unmap->unmap_caller_name) +
			     "'s unmap";
	}
	Verdict verdict{"cpu-write-while-device-owned", Severity::error, {}, {}};
	// The bytes changed; the hashes cannot say whose write it was.
	verdict.sentence = "the bytes of " + device_of(snapshot) + "'s to-device buffer at IOVA " +
			   hex(dma_addr) + (facts.empty() ? "" : " (" + facts + ")") +
			   " changed while the device owned it" +
			   (taken_back.empty() ? "" : ", before " + taken_back) +
			   ": the CPU wrote them, or the device wrote a buffer it was given to read; ";
	const std::uint32_t line = snapshot.cache_line.value_or(0);
	if (snapshot.coherent == false) {
		const std::uint64_t lines = line && size ? (size + line - 1) / line : 0;
		verdict.sentence += "the device does not snoop the caches, so it may have read "
				    "memory the new bytes had not reached" +
				    (lines ? " (its " + std::to_string(lines) + " cache lines of " +
						     std::to_string(line) + " bytes were cleaned "
						     "before the write)"
					   : std::string());
	} else {
		verdict.sentence += "the device may have read the old bytes";
	}
	verdict.evidence.push_back({"device", "finding #" + std::to_string(header.finding_seq.value_or(0)),
				    "cpu-write-while-device-owned at " + hex(*header.trigger_addr),
				    *header.trigger_addr});
	verdict.evidence.push_back(
		{owner.kind == SnapshotAddressOwner::Kind::live ? "mappings" : "history",
		 hex(dma_addr), facts.empty() ? "not in the record" : facts, dma_addr});
	if (snapshot.coherent)
		verdict.evidence.push_back({"cache", "coherency",
					    std::string(*snapshot.coherent ? "coherent" : "not coherent") +
						    (line ? ", " + std::to_string(line) + "-byte lines" : ""),
					    dma_addr});
	context.verdicts.push_back(std::move(verdict));
}

bool translating(std::uint32_t domain)
{
	return domain == EDGEDMA_IOMMU_DOMAIN_DMA || domain == EDGEDMA_IOMMU_DOMAIN_DMA_FQ ||
	       domain == EDGEDMA_IOMMU_DOMAIN_UNMANAGED || domain == EDGEDMA_IOMMU_DOMAIN_OTHER;
}

// A page the device reaches somewhere other than the mapping's memory
// because swiotlb bounces it: the translation lands in a bounce pool, or
// (records that do not say where it lands) there is no translating IOMMU
// to be stale, so the direct mapping's mismatch is a bounce.
bool bounced_page(const PageView &page, const Context &context)
{
	if (!page.expected_phys || !page.iommu_phys || page.iommu_unmapped)
		return false;
	if (context.page_of(*page.iommu_phys) == context.page_of(*page.expected_phys))
		return false;
	if (page.iommu_swiotlb)
		return *page.iommu_swiotlb;
	return !translating(page.iommu_domain);
}

// iommu-cpu-mismatch: the IOMMU translates a page of a live mapping to
// other memory than the mapping was made for, or to nothing.
void rule_iommu_cpu_mismatch(Context &context)
{
	const Snapshot &snapshot = context.snapshot;
	for (const PageView &page : snapshot.pages) {
		if (!page.expected_phys || !translating(page.iommu_domain) ||
		    bounced_page(page, context))
			continue;
		const bool lost = page.iommu_unmapped;
		const bool elsewhere = page.iommu_phys && context.page_of(*page.iommu_phys) !=
								 context.page_of(*page.expected_phys);
		if (!lost && !elsewhere)
			continue;
		const Mapping *mapping = live_mapping_holding(snapshot, page.dma_addr);
		Verdict verdict{"iommu-cpu-mismatch", Severity::error, {}, {}};
		verdict.sentence = "the IOMMU translates IOVA " + hex(page.dma_addr) + " of " +
				   device_of(snapshot) + "'s live mapping" +
				   (mapping ? " (" + mapping_facts(context, *mapping) + ")" : "") +
				   (lost ? " to nothing" : " to " + hex(*page.iommu_phys)) +
				   ", not to " + hex(*page.expected_phys) +
				   ", the memory it was mapped for";
		verdict.evidence.push_back(
			{"iommu", "IOVA " + hex(page.dma_addr),
			 (lost ? std::string("translates nothing") : hex(*page.iommu_phys)) + " (" +
				 iommu_domain_label(page.iommu_domain) + ")",
			 page.dma_addr});
		verdict.evidence.push_back({"mappings", "IOVA " + hex(page.dma_addr),
					    "expects " + hex(*page.expected_phys), page.dma_addr});
		context.verdicts.push_back(std::move(verdict));
	}
}

// pte-mismatch: the CPU's page-table entry for a page of a live mapping is
// not present, points at another page, is executable, or maps the memory
// with a type that does not fit the device's coherency.
void rule_pte_mismatch(Context &context)
{
	const Snapshot &snapshot = context.snapshot;
	for (const PageView &page : snapshot.pages) {
		if (!page.expected_phys || !page.cpu_virt || !page.pte_present)
			continue;
		const Mapping *mapping = live_mapping_holding(snapshot, page.dma_addr);
		const std::string owner =
			device_of(snapshot) + "'s buffer at IOVA " + hex(page.dma_addr) +
			(mapping ? " (" + mapping_facts(context, *mapping) + ")" : "");
		const std::string where = "kernel address " + hex(*page.cpu_virt);
		auto add = [&](Severity severity, std::string sentence, std::string value) {
			Verdict verdict{"pte-mismatch", severity, std::move(sentence), {}};
			verdict.evidence.push_back({"cpu", where, std::move(value), page.dma_addr});
			verdict.evidence.push_back({"mappings", "IOVA " + hex(page.dma_addr),
						    "expects " + hex(*page.expected_phys),
						    page.dma_addr});
			context.verdicts.push_back(std::move(verdict));
		};
		if (!*page.pte_present) {
			add(Severity::error,
			    "the CPU page table has no present entry for " + where + " of " + owner,
			    "not present (entry " + hex(page.pte.value_or(0)) + ")");
			continue;
		}
		if (page.pte_pfn) {
			const std::uint64_t cpu_page = *page.pte_pfn * context.page_size();
			if (cpu_page != context.page_of(*page.expected_phys))
				add(Severity::error,
				    "the CPU maps " + where + " of " + owner + " to " + hex(cpu_page) +
					    ", not to " + hex(context.page_of(*page.expected_phys)) +
					    ", the memory it was mapped for",
				    "pfn " + hex(*page.pte_pfn) + " (" + hex(cpu_page) + ")");
		}
		if (page.pte_executable && *page.pte_executable)
			add(Severity::warning,
			    "the CPU may execute " + where + " of " + owner +
				    ": a DMA buffer the kernel can run as code",
			    "executable");
		if (!page.pte_memtype)
			continue;
		const bool coherent_alloc = mapping && mapping->call == EDGEDMA_CALL_ALLOC_COHERENT;
		if (coherent_alloc && snapshot.coherent == false &&
		    *page.pte_memtype == EDGEDMA_MEMTYPE_WRITE_BACK)
			add(Severity::error,
			    "the CPU caches " + where + " of " + owner +
				    " (write-back), but the device does not snoop the caches: "
				    "CPU writes to this coherent memory stay in the cache",
			    memtype_label(*page.pte_memtype));
		else if (*page.pte_memtype == EDGEDMA_MEMTYPE_DEVICE)
			add(Severity::warning,
			    "the CPU maps " + where + " of " + owner +
				    " as device memory: unaligned CPU accesses to it fault",
			    memtype_label(*page.pte_memtype));
	}
}

// The bytes of @mapping's CPU memory that share a cache line of @line bytes
// with @sharer's: "line 0x1000" or "lines 0x1000 to 0x1040".
std::optional<std::string> shared_lines(const Mapping &mapping, const Mapping &sharer,
					std::uint64_t line)
{
	if (!mapping.cpu_phys || !sharer.cpu_phys || line == 0)
		return std::nullopt;
	const auto first_line = [&](const Mapping &m) { return *m.cpu_phys & ~(line - 1); };
	const auto last_line = [&](const Mapping &m) {
		return (*m.cpu_phys + std::max<std::uint64_t>(m.size, 1) - 1) & ~(line - 1);
	};
	const std::uint64_t from = std::max(first_line(mapping), first_line(sharer));
	const std::uint64_t to = std::min(last_line(mapping), last_line(sharer));
	if (from > to)
		return std::nullopt;
	if (from == to)
		return "line " + hex(from);
	return "lines " + hex(from) + " to " + hex(to);
}

// cacheline-neighbour: on a device that does not snoop the caches, a cache
// line of the buffer the snapshot is about holds another live mapping's
// bytes; cache maintenance of one is done to the other too.
void rule_cacheline_neighbour(Context &context)
{
	const Snapshot &snapshot = context.snapshot;
	if (snapshot.coherent != false || snapshot.mappings.empty())
		return;
	const Mapping &mapping = snapshot.mappings.front();
	const std::uint64_t line = snapshot.cache_line.value_or(0);
	for (const Mapping &sharer : snapshot.line_sharers) {
		const bool device_writes =
			mapping.dir == dma_direction::from_device || mapping.dir == dma_direction::bidirectional;
		const bool sharer_device_writes =
			sharer.dir == dma_direction::from_device || sharer.dir == dma_direction::bidirectional;
		const std::string other = device_text(sharer.device, sharer.driver);
		const std::string lines = shared_lines(mapping, sharer, line).value_or("a line");
		Verdict verdict{"cacheline-neighbour", Severity::warning, {}, {}};
		verdict.sentence = device_of(snapshot) + "'s buffer at IOVA " + hex(mapping.dma_addr) +
				   " (" + mapping_facts(context, mapping) + ") shares cache " +
				   lines + " with " + (other.empty() ? "another device" : other) +
				   "'s mapping at " + hex(sharer.dma_addr) + " (" +
				   mapping_facts(context, sharer) + ") on a device that does not "
				   "snoop the caches: ";
		if (device_writes) {
			verdict.severity = Severity::error;
			verdict.sentence += "invalidating the line for the device's write "
					    "discards the CPU's newer bytes of the other buffer, "
					    "and their write-back overwrites what the device wrote";
		} else if (sharer_device_writes) {
			verdict.severity = Severity::error;
			verdict.sentence += "invalidating the line for the other mapping's "
					    "device write discards the CPU's bytes of this buffer "
					    "before the device reads them";
		} else {
			verdict.sentence += "both are to-device, so cleaning the line loses "
					    "nothing yet; a later from-device use of either will";
		}
		if (line)
			verdict.evidence.push_back(
				{"cache", "line size", std::to_string(line) + " bytes, not coherent",
				 mapping.dma_addr});
		verdict.evidence.push_back({"cache", mapping_subject(mapping),
					    hex(mapping.cpu_phys.value_or(0)) + ", " +
						    byte_size(mapping.size) + ", " +
						    direction_label(mapping.dir),
					    mapping.dma_addr});
		verdict.evidence.push_back({"cache", other + " " + mapping_subject(sharer),
					    hex(sharer.cpu_phys.value_or(0)) + ", " +
						    byte_size(sharer.size) + ", " +
						    direction_label(sharer.dir),
					    std::nullopt});
		context.verdicts.push_back(std::move(verdict));
	}
}

// When swiotlb copies a bounced mapping's bytes, by direction.
std::string bounce_copies(std::uint32_t dir)
{
	switch (dir) {
	case dma_direction::to_device:
		return "at map and at each sync for the device";
	case dma_direction::from_device:
		return "at unmap and at each sync for the CPU";
	default:
		return "both ways: at map and unmap and at each sync";
	}
}

// bounced: the device reaches other physical pages than the CPU's buffer
// (swiotlb): every transfer is copied.
void rule_bounced(Context &context)
{
	const Snapshot &snapshot = context.snapshot;
	std::set<const Mapping *> done;
	for (const PageView &page : snapshot.pages) {
		if (!bounced_page(page, context))
			continue;
		const Mapping *mapping = live_mapping_holding(snapshot, page.dma_addr);
		if (mapping && !done.insert(mapping).second)
			continue;
		Verdict verdict{"bounced", Severity::warning, {}, {}};
		verdict.sentence = device_of(snapshot) + "'s buffer at IOVA " + hex(page.dma_addr) +
				   (mapping ? " (" + mapping_facts(context, *mapping) + ")" : "") +
				   " is bounced through swiotlb: the device reaches " +
				   hex(*page.iommu_phys) + ", the CPU's buffer is at " +
				   hex(*page.expected_phys);
		if (mapping)
			verdict.sentence += "; every transfer copies " + byte_size(mapping->size) +
					    " " + bounce_copies(mapping->dir);
		verdict.evidence.push_back({"iommu", "IOVA " + hex(page.dma_addr),
					    "reaches " + hex(*page.iommu_phys) + " (" +
						    iommu_domain_label(page.iommu_domain) + ")",
					    page.dma_addr});
		verdict.evidence.push_back({"mappings", "IOVA " + hex(page.dma_addr),
					    "CPU buffer at " + hex(*page.expected_phys),
					    page.dma_addr});
		context.verdicts.push_back(std::move(verdict));
	}
}

// misaligned-for-controller: a descriptor the device may follow gives it a
// buffer whose address or length breaks the chain's alignment rule (the
// profile's align-log2: both multiples of 2^N bytes).
void rule_misaligned_for_controller(Context &context)
{
	const Snapshot &snapshot = context.snapshot;
	for_each_device_buffer(snapshot, [&](const DescriptorChain &chain, const std::string &subject,
					     const DescriptorBuffer &buffer) {
		if (!chain.align_log2 || *chain.align_log2 >= 64 ||
		    buffer.state == EDGEDMA_BUFFER_NULL || buffer.addr == 0)
			return;
		const std::uint64_t align = std::uint64_t{1} << *chain.align_log2;
		const std::uint64_t address_off = buffer.addr & (align - 1);
		const std::uint64_t length_off = buffer.length ? *buffer.length & (align - 1) : 0;
		if (!address_off && !length_off)
			return;
		std::vector<std::string> broken;
		if (address_off)
			broken.push_back("its address " + hex(buffer.addr) + " lies " +
					 std::to_string(address_off) + " bytes past a boundary");
		if (length_off)
			broken.push_back("its length " + std::to_string(*buffer.length) +
					 " is not a multiple");
		Verdict verdict{"misaligned-for-controller", Severity::error, {}, {}};
		verdict.sentence = device_of(snapshot) + "'s descriptor " + subject +
				   " gives the controller a buffer it needs aligned to " +
				   byte_size(align) + ": " + broken.front() +
				   (broken.size() > 1 ? " and " + broken.back() : "");
		if (const Mapping *mapping = live_mapping_holding(snapshot, buffer.addr))
			verdict.sentence += " (mapping " + hex(mapping->dma_addr) + ", " +
					    mapping_facts(context, *mapping) + ")";
		verdict.evidence.push_back(
			{"descriptors", subject,
			 hex(buffer.addr) + (buffer.length ? ", " + byte_size(*buffer.length) : ""),
			 buffer.addr});
		verdict.evidence.push_back({"descriptors", chain.name + "'s alignment rule",
					    "2^" + std::to_string(*chain.align_log2) + " = " +
						    byte_size(align),
					    std::nullopt});
		context.verdicts.push_back(std::move(verdict));
	});
}

// consistent: no other rule spoke; say what was compared.
void rule_consistent(Context &context)
{
	if (!context.verdicts.empty())
		return;
	const Snapshot &snapshot = context.snapshot;
	using detail::counted;
	std::vector<std::string> compared;
	if (snapshot.header.trigger_addr)
		compared.push_back("the address " + hex(*snapshot.header.trigger_addr) + " (against " +
				   counted(snapshot.mappings.size(), "live mapping") + ", " +
				   counted(snapshot.unmaps.size(), "recent unmap") + ")");
	std::size_t read = 0;
	for (const Register &reg : snapshot.registers)
		read += reg.value.has_value();
	if (read)
		compared.push_back(counted(read, "register"));
	std::size_t followed = 0, idle = 0;
	for (const DescriptorChain &chain : snapshot.chains)
		for (const Descriptor &descriptor : chain.descriptors)
			(device_may_use(descriptor) ? followed : idle)++;
	if (followed || idle)
		compared.push_back(counted(followed, "descriptor") + " the device may use" +
				   (idle ? " (" + std::to_string(idle) + " driver's not compared)"
					 : ""));
	if (!snapshot.pages.empty())
		compared.push_back(counted(snapshot.pages.size(), "page") +
				   " in the IOMMU, CPU page-table and physical views");
	if (snapshot.coherent == false)
		compared.push_back(counted(snapshot.line_sharers.size(), "mapping") +
				   " sharing cache lines");
	Verdict verdict{"consistent", Severity::note, {}, {}};
	if (compared.empty()) {
		verdict.sentence = "nothing to compare: the snapshot of " + device_of(snapshot) +
				   " holds no address, registers, descriptors or pages";
	} else {
		verdict.sentence = "the views of " + device_of(snapshot) + " agree: compared ";
		for (std::size_t i = 0; i < compared.size(); i++) {
			if (i)
				verdict.sentence += i + 1 == compared.size() ? " and " : ", ";
			verdict.sentence += compared[i];
		}
	}
	context.verdicts.push_back(std::move(verdict));
}

using Rule = void (*)(Context &);

constexpr std::array<std::pair<std::string_view, Rule>, 12> rule_table{{
	{"device-after-unmap", rule_device_after_unmap},
	{"fault-outside-mappings", rule_fault_outside_mappings},
	{"desc-unmapped", rule_desc_unmapped},
	{"desc-overrun", rule_desc_overrun},
	{"direction-conflict", rule_direction_conflict},
	{"cpu-write-while-device-owned", rule_cpu_write_while_device_owned},
	{"iommu-cpu-mismatch", rule_iommu_cpu_mismatch},
	{"pte-mismatch", rule_pte_mismatch},
	{"cacheline-neighbour", rule_cacheline_neighbour},
	{"bounced", rule_bounced},
	{"misaligned-for-controller", rule_misaligned_for_controller},
	{"consistent", rule_consistent},
}};

constexpr std::array<std::string_view, rule_table.size()> rule_names = [] {
	std::array<std::string_view, rule_table.size()> names{};
	for (std::size_t i = 0; i < rule_table.size(); i++)
		names[i] = rule_table[i].first;
	return names;
}();

constexpr std::array<std::string_view, 9> view_names{
	"device", "registers", "descriptors", "mappings", "history",
	"iommu",  "cpu",       "physical",    "cache",
};

} // namespace

std::string_view severity_name(Severity severity)
{
	switch (severity) {
	case Severity::note:
		return "note";
	case Severity::warning:
		return "warning";
	case Severity::error:
		return "error";
	}
	return "unknown";
}

std::span<const std::string_view> cross_view_rules()
{
	return rule_names;
}

std::span<const std::string_view> cross_view_names()
{
	return view_names;
}

std::vector<Verdict> compare_views(const Snapshot &snapshot, const Symbolizer &symbols)
{
	std::vector<Verdict> verdicts;
	Context context{snapshot, symbols, verdicts};
	for (const auto &[name, rule] : rule_table)
		rule(context);
	return verdicts;
}

const Verdict *headline(std::span<const Verdict> verdicts)
{
	const Verdict *worst = nullptr;
	for (const Verdict &verdict : verdicts) {
		if (verdict.severity == Severity::error)
			return &verdict;
		if (!worst || verdict.severity > worst->severity)
			worst = &verdict;
	}
	return worst;
}

} // namespace edgedma
