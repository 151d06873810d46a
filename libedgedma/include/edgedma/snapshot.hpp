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
#include <span>
#include <string>
#include <vector>

#include <edgedma/export.hpp>
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
	std::optional<std::uint32_t> finding_kind;   // and its enum edgedma_finding_kind
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

// One page of DMA memory as the IOMMU, the CPU's page tables and the page
// allocator saw it when the snapshot was taken (EDGEDMA_A_SNAPSHOT_PAGE).
// Each optional is absent where the module could not tell (no live mapping
// holds the page, no IOMMU translation, no page-table walk on this
// architecture, memory the kernel does not manage).
struct PageView {
	std::uint64_t dma_addr = 0; // the page's DMA address (IOVA)
	// Where the live mapping holding the page says it lies.
	std::optional<std::uint64_t> expected_phys;
	std::uint32_t iommu_domain = 0; // enum edgedma_iommu_domain
	// The IOMMU's translation now (without an IOMMU: the bus address).
	std::optional<std::uint64_t> iommu_phys;
	// The IOMMU translates the page to nothing: a device access faults.
	bool iommu_unmapped = false;
	// The physical page the CPU and allocator facts below are about:
	// expected_phys's, else iommu_phys's.
	std::optional<std::uint64_t> phys;
	// The CPU side: the kernel address whose page-table entry was read,
	// the entry as the CPU reads it, the bytes it maps (a page or a
	// block), and what it says. Present, writable, executable, pfn and
	// memtype (enum edgedma_memtype) come only with a present entry.
	std::optional<std::uint64_t> cpu_virt;
	std::optional<std::uint64_t> pte;
	std::optional<std::uint64_t> pte_size;
	std::optional<bool> pte_present;
	std::optional<bool> pte_writable;
	std::optional<bool> pte_executable;
	std::optional<std::uint64_t> pte_pfn;
	std::optional<std::uint32_t> pte_memtype;
	// The allocator's side: phys is memory the kernel manages; what the
	// kernel uses the page for (enum edgedma_page_flag bits) and its
	// reference count (both only for managed memory); phys lies in a
	// swiotlb bounce pool.
	std::optional<bool> pfn_valid;
	std::optional<std::uint32_t> flags;
	std::optional<std::uint32_t> refcount;
	std::optional<bool> swiotlb;
	// iommu_phys, where the device reaches, lies in a swiotlb bounce pool:
	// the mapping is bounced. Absent from older modules and without
	// iommu_phys.
	std::optional<bool> iommu_swiotlb;

	bool operator==(const PageView &) const = default;
};

// A bit field of a controller register (EDGEDMA_A_REGISTER_FIELD).
struct RegisterField {
	std::string name;
	std::uint32_t shift = 0; // its lowest bit, below 64
	std::uint32_t bits = 0;  // how many, 1 to 64

	bool operator==(const RegisterField &) const = default;
};

// A field's value in a register's value: the bits that lie above bit 63
// are not there and read as 0.
constexpr std::uint64_t field_value(std::uint64_t value, const RegisterField &field)
{
	if (field.shift >= 64)
		return 0;
	const std::uint64_t shifted = value >> field.shift;
	if (field.bits >= 64)
		return shifted;
	return shifted & ((std::uint64_t{1} << field.bits) - 1);
}

// A controller register of the device's profile and what the snapshot read
// of it (EDGEDMA_A_SNAPSHOT_REGISTER): exactly one of value and skipped.
struct Register {
	std::string name;
	std::uint32_t window = 0; // the PCI BAR or platform "reg" resource
	std::uint32_t offset = 0; // bytes into the window
	std::uint32_t width = 0;  // bytes read at once: 1, 2, 4 or 8
	std::uint32_t flags = 0;  // enum edgedma_register_flag bits
	std::vector<RegisterField> fields; // in the profile's order
	std::optional<std::uint64_t> value;   // what was read
	std::optional<std::uint32_t> skipped; // enum edgedma_skip_reason: why not

	bool operator==(const Register &) const = default;
};

// A field of a descriptor (EDGEDMA_A_CHAIN_DFIELD): width bytes at offset,
// in the chain's byte order, then bits from shift (all when absent).
struct DescriptorField {
	std::string name;
	std::uint32_t offset = 0;
	std::uint32_t width = 0; // 1, 2, 4 or 8
	std::uint32_t shift = 0;
	std::optional<std::uint32_t> bits;
	std::optional<std::uint32_t> role; // enum edgedma_desc_role

	bool operator==(const DescriptorField &) const = default;
};

// A buffer a descriptor points at, resolved by the module against its
// mapping table (EDGEDMA_A_DESC_BUFFER).
struct DescriptorBuffer {
	std::uint32_t field = 0;             // the address field, among the chain's fields
	std::uint64_t addr = 0;              // the DMA address the descriptor holds
	std::optional<std::uint64_t> length; // its paired length field's value
	std::uint32_t state = 0;             // enum edgedma_buffer_state
	// The live mapping (or recent unmap) holding addr, where there is one.
	std::optional<std::uint64_t> mapping_addr;
	std::optional<std::uint64_t> mapping_size;

	bool operator==(const DescriptorBuffer &) const = default;
};

// A descriptor walked (EDGEDMA_A_CHAIN_DESCRIPTOR).
struct Descriptor {
	std::uint32_t index = 0;      // ring: its slot; list: its place
	std::uint64_t dma_addr = 0;   // where the device reads it
	std::uint32_t state = 0;      // enum edgedma_desc_state
	std::vector<std::byte> bytes; // as read; empty when not read
	std::vector<DescriptorBuffer> buffers;
	// enum edgedma_desc_owner: a ring's slot between its head and tail is
	// the device's, the rest the driver's; absent without both registers.
	std::optional<std::uint32_t> owner;

	bool operator==(const Descriptor &) const = default;
};

// A descriptor chain of the device's profile as a snapshot walked it
// (EDGEDMA_A_SNAPSHOT_CHAIN): its layout, what the registers said, the
// descriptors, and how the walk ended.
struct DescriptorChain {
	std::string name;
	std::uint32_t kind = 0; // enum edgedma_chain_kind
	std::optional<std::string> start_reg, start_hi_reg, length_reg, head_reg, tail_reg;
	std::optional<std::uint32_t> entries;
	std::uint32_t desc_size = 0;
	std::optional<std::uint32_t> max_descs;
	std::uint32_t flags = 0; // enum edgedma_chain_flag
	// The controller's rule: the address and the length of each buffer it
	// is given are multiples of 2^align_log2 bytes (1 to 16); absent when
	// the profile gives none.
	std::optional<std::uint32_t> align_log2;
	// enum dma_data_direction of the chain's buffers: to-device (the
	// device reads them: transmit) or from-device (it writes them:
	// receive); absent when the profile does not say.
	std::optional<std::uint32_t> direction;
	std::vector<DescriptorField> fields;
	std::optional<std::uint64_t> start;
	std::optional<std::uint32_t> count, head, tail;
	std::optional<std::uint32_t> walk;    // enum edgedma_chain_walk bits
	std::optional<std::uint32_t> skipped; // enum edgedma_skip_reason: none walked
	std::vector<Descriptor> descriptors;

	bool operator==(const DescriptorChain &) const = default;
};

// Field @field of @descriptor as @chain lays it out; nothing when the
// descriptor was not read or the field lies past its bytes.
EDGEDMA_API std::optional<std::uint64_t> descriptor_field_value(const DescriptorChain &chain,
								 const Descriptor &descriptor,
								 std::size_t field);

// Where a snapshot's address (header.trigger_addr) was when it was taken,
// as the record says (snapshot_address_owner()).
struct SnapshotAddressOwner {
	enum class Kind {
		no_address,  // the snapshot is about no address
		live,        // inside a live mapping of the device: *mapping
		unmapped,    // in no live mapping; *unmap, the latest unmap in its
			     // page (an IOMMU maps and faults on pages: VT-d
			     // reports the page alone), removed it
		nowhere,     // in no live mapping or recent unmap the record holds
	};
	Kind kind = Kind::no_address;
	const Mapping *mapping = nullptr;   // into the snapshot, for live
	const RecentUnmap *unmap = nullptr; // into the snapshot, for unmapped
};

// The IOMMU in front of a snapshot's device (EDGEDMA_A_SNAPSHOT_IOMMU): its
// device, and the registers of the profile bound to it, read with the
// snapshot (an IOMMU's fault status and address).
struct IommuRegisters {
	std::string device;
	std::optional<std::string> profile; // absent: no profile bound to it
	std::vector<Register> registers;

	bool operator==(const IommuRegisters &) const = default;
};

// A controller error hook (ERROR_HOOK_GET): each entry into the kernel
// function snapshots the device (trigger controller-error).
struct ErrorHook {
	std::string symbol; // the driver's error handler
	std::string device; // dev_name() of the device it serves
	std::uint64_t hits = 0;

	bool operator==(const ErrorHook &) const = default;
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
	// The CPU's cache-line size (cache_line_size()) and whether the
	// kernel treats the device's DMA as coherent with the CPU caches;
	// absent from older modules and from a record cut short.
	std::optional<std::uint32_t> cache_line;
	std::optional<bool> coherent;
	// The pages viewed: the one of header.trigger_addr first, then the rest
	// of the mapping holding it.
	std::vector<PageView> pages;
	// Other live mappings, of any device, whose CPU memory shares a cache
	// line with the first of mappings. Each carries its own device and
	// driver, and caller_name; device and driver are empty where the
	// module could not name them (a snapshot taken at panic).
	std::vector<Mapping> line_sharers;
	// The controller profile describing the device, and its registers as
	// read; absent and empty when no profile describes it (skipped says).
	std::optional<std::string> profile;
	std::vector<Register> registers;
	// The profile's descriptor chains, walked.
	std::vector<DescriptorChain> chains;
	// The IOMMU translating for the device; absent without one (or from
	// a module before it was recorded).
	std::optional<IommuRegisters> iommu;
	// How long writing the record took, ns; absent from older modules.
	std::optional<std::uint64_t> capture_ns;
	// The kernel's page size (a power of two): unmaps is the latest unmap
	// in header.trigger_addr's page of this size first, when there is one.
	// Absent from older modules.
	std::optional<std::uint32_t> page_size;
	// The record ran out of room (module parameter snapshot_size): every
	// part in it is whole, but later parts are missing.
	bool truncated = false;
	// The record's bytes exactly as the module wrote them.
	std::vector<std::byte> record;

	bool operator==(const Snapshot &) const = default;
};

// The snapshot a record's bytes hold: a devcoredump's data
// (/sys/class/devcoredump/devcdN/data), a file `edgedma snapshot save`
// wrote, Snapshot::record. Decoded as a SNAPSHOT_GET reply is; record keeps
// the bytes. Throws Error naming what is malformed.
EDGEDMA_API Snapshot decode_snapshot_record(std::span<const std::byte> record);

// Whether the range of dma_addr and size covers address, as the module
// decides which mapping and which unmap a snapshot is about: a range of 0
// bytes covers its first address.
constexpr bool covers(std::uint64_t dma_addr, std::uint64_t size, std::uint64_t address)
{
	return address >= dma_addr && address - dma_addr < std::max<std::uint64_t>(size, 1);
}

// The live mapping of the snapshot's list that holds @address, and the
// latest recent unmap that did; null when none. They point into @snapshot.
EDGEDMA_API const Mapping *live_mapping_holding(const Snapshot &snapshot,
						 std::uint64_t address);
EDGEDMA_API const RecentUnmap *unmap_holding(const Snapshot &snapshot, std::uint64_t address);

// Where @snapshot's address was: the module lists the live mapping holding
// it first, and the latest unmap in its page first (page_size; 4096 for
// records without it). The result points into @snapshot.
EDGEDMA_API SnapshotAddressOwner snapshot_address_owner(const Snapshot &snapshot);

// A descriptor's buffer whose address lies in a page the snapshot viewed
// (buffers_in_page()); pointers into the snapshot.
struct PageBuffer {
	const DescriptorChain *chain = nullptr;
	const Descriptor *descriptor = nullptr;
	const DescriptorBuffer *buffer = nullptr;
};

// The buffers of @snapshot's descriptors whose address lies in @page (one
// of snapshot.pages), in walk order: why the module viewed that page.
EDGEDMA_API std::vector<PageBuffer> buffers_in_page(const Snapshot &snapshot,
						    const PageView &page);

} // namespace edgedma
