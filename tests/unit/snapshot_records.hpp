// SPDX-License-Identifier: GPL-2.0
#pragma once

// Snapshot records built byte by byte as the module's bounded writer
// (kmod/snapshot_record.c) lays them out: a 4-byte header per attribute,
// payloads padded to 4 bytes, u64s NOT padded to 8 (no PAD attributes),
// repeated parts as nests flagged NLA_F_NESTED. Independent of the decoder
// and of libnl, so the decoder is checked against the layout itself.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <linux/edgedma.h>
#include <linux/netlink.h>

#include <edgedma/snapshot.hpp>

#include "test_support.hpp"

namespace edgedma::test {

class RecordBuilder {
public:
	RecordBuilder &u32(int type, std::uint32_t value) { return put(type, &value, sizeof value); }
	RecordBuilder &u64(int type, std::uint64_t value) { return put(type, &value, sizeof value); }
	RecordBuilder &string(int type, std::string_view text)
	{
		std::vector<std::byte> payload(text.size() + 1);
		std::memcpy(payload.data(), text.data(), text.size());
		return put(type, payload.data(), payload.size());
	}
	RecordBuilder &raw(int type, std::span<const std::byte> payload)
	{
		return put(type, payload.data(), payload.size());
	}
	// A nested attribute holding inner's attributes.
	RecordBuilder &nest(int type, const RecordBuilder &inner)
	{
		return put(type | NLA_F_NESTED, inner.bytes_.data(), inner.bytes_.size());
	}
	// Bytes as they are, for damaged records.
	RecordBuilder &append(std::span<const std::byte> bytes)
	{
		bytes_.insert(bytes_.end(), bytes.begin(), bytes.end());
		return *this;
	}

	const std::vector<std::byte> &bytes() const { return bytes_; }
	std::size_t size() const { return bytes_.size(); }

private:
	static constexpr std::size_t header_length = 4; // NLA_HDRLEN

	RecordBuilder &put(int type, const void *payload, std::size_t length)
	{
		const auto attribute_length = static_cast<std::uint16_t>(header_length + length);
		const auto attribute_type = static_cast<std::uint16_t>(type);
		const std::size_t start = bytes_.size();
		// NLA_ALIGN(); the padding is zeroed, as the module zeroes it.
		bytes_.resize(start + ((attribute_length + std::size_t{3}) & ~std::size_t{3}));
		std::memcpy(&bytes_[start], &attribute_length, sizeof attribute_length);
		std::memcpy(&bytes_[start + 2], &attribute_type, sizeof attribute_type);
		if (length)
			std::memcpy(&bytes_[start + header_length], payload, length);
		return *this;
	}

	std::vector<std::byte> bytes_;
};

// Leaves out the attribute of this type when writing a part, to make a
// record lack it.
struct LeaveOut {
	int type = 0;
	bool operator()(int wanted) const { return wanted != type; }
};

inline void put_header(RecordBuilder &record, const SnapshotHeader &header, LeaveOut keep = {})
{
	auto u64 = [&](int type, std::uint64_t value) {
		if (keep(type))
			record.u64(type, value);
	};
	auto u32 = [&](int type, std::uint32_t value) {
		if (keep(type))
			record.u32(type, value);
	};
	auto string = [&](int type, const std::string &value) {
		if (keep(type))
			record.string(type, value);
	};
	u64(EDGEDMA_A_SNAPSHOT_SEQ, header.seq);
	u64(EDGEDMA_A_SNAPSHOT_TIME_NS, header.time_ns);
	u64(EDGEDMA_A_SNAPSHOT_REAL_TIME_NS, header.real_time_ns);
	u32(EDGEDMA_A_SNAPSHOT_CPU, header.cpu);
	u32(EDGEDMA_A_SNAPSHOT_TRIGGER, header.trigger);
	if (header.trigger_addr)
		u64(EDGEDMA_A_SNAPSHOT_TRIGGER_ADDR, *header.trigger_addr);
	if (header.trigger_access)
		u32(EDGEDMA_A_SNAPSHOT_TRIGGER_ACCESS, *header.trigger_access);
	if (header.trigger_reason)
		u32(EDGEDMA_A_SNAPSHOT_TRIGGER_REASON, *header.trigger_reason);
	if (header.trigger_symbol)
		string(EDGEDMA_A_SNAPSHOT_TRIGGER_SYMBOL, *header.trigger_symbol);
	if (header.finding_seq)
		u64(EDGEDMA_A_SNAPSHOT_FINDING_SEQ, *header.finding_seq);
	string(EDGEDMA_A_SNAPSHOT_DEVICE, header.device);
	string(EDGEDMA_A_SNAPSHOT_DRIVER, header.driver);
}

// A live mapping's nest as snapshot_capture.c writes it (no DEVICE, no
// DRIVER: the header has them).
inline RecordBuilder mapping_nest(const Mapping &mapping, LeaveOut keep = {})
{
	RecordBuilder nest;
	auto u64 = [&](int type, std::uint64_t value) {
		if (keep(type))
			nest.u64(type, value);
	};
	auto u32 = [&](int type, std::uint32_t value) {
		if (keep(type))
			nest.u32(type, value);
	};
	u32(EDGEDMA_A_MAPPING_CALL, mapping.call);
	u64(EDGEDMA_A_MAPPING_DMA_ADDR, mapping.dma_addr);
	u64(EDGEDMA_A_MAPPING_SIZE, mapping.size);
	u32(EDGEDMA_A_MAPPING_DIR, mapping.dir);
	u64(EDGEDMA_A_MAPPING_ATTRS, mapping.attrs);
	if (mapping.cpu_phys)
		u64(EDGEDMA_A_MAPPING_CPU_PHYS, *mapping.cpu_phys);
	if (mapping.cpu_virt)
		u64(EDGEDMA_A_MAPPING_CPU_VIRT, *mapping.cpu_virt);
	u64(EDGEDMA_A_MAPPING_CALLER, mapping.caller);
	if (mapping.caller_name && keep(EDGEDMA_A_MAPPING_CALLER_NAME))
		nest.string(EDGEDMA_A_MAPPING_CALLER_NAME, *mapping.caller_name);
	u64(EDGEDMA_A_MAPPING_TIME_NS, mapping.time_ns);
	if (mapping.sg_index) {
		u32(EDGEDMA_A_MAPPING_SG_INDEX, *mapping.sg_index);
		u32(EDGEDMA_A_MAPPING_SG_COUNT, mapping.sg_count);
	}
	return nest;
}

inline RecordBuilder unmap_nest(const RecentUnmap &unmap, LeaveOut keep = {})
{
	RecordBuilder nest;
	auto u64 = [&](int type, std::uint64_t value) {
		if (keep(type))
			nest.u64(type, value);
	};
	auto u32 = [&](int type, std::uint32_t value) {
		if (keep(type))
			nest.u32(type, value);
	};
	u32(EDGEDMA_A_UNMAPPED_CALL, unmap.call);
	u64(EDGEDMA_A_UNMAPPED_DMA_ADDR, unmap.dma_addr);
	u64(EDGEDMA_A_UNMAPPED_SIZE, unmap.size);
	u32(EDGEDMA_A_UNMAPPED_DIR, unmap.dir);
	u64(EDGEDMA_A_UNMAPPED_MAP_TIME_NS, unmap.map_time_ns);
	u64(EDGEDMA_A_UNMAPPED_UNMAP_TIME_NS, unmap.unmap_time_ns);
	u64(EDGEDMA_A_UNMAPPED_MAP_CALLER, unmap.map_caller);
	u64(EDGEDMA_A_UNMAPPED_UNMAP_CALLER, unmap.unmap_caller);
	if (unmap.cpu_phys)
		u64(EDGEDMA_A_UNMAPPED_CPU_PHYS, *unmap.cpu_phys);
	if (unmap.map_caller_name)
		nest.string(EDGEDMA_A_UNMAPPED_MAP_CALLER_NAME, *unmap.map_caller_name);
	if (unmap.unmap_caller_name)
		nest.string(EDGEDMA_A_UNMAPPED_UNMAP_CALLER_NAME, *unmap.unmap_caller_name);
	return nest;
}

inline RecordBuilder skipped_nest(const SkippedPart &skipped, LeaveOut keep = {})
{
	RecordBuilder nest;
	if (keep(EDGEDMA_A_SKIP_PART))
		nest.u32(EDGEDMA_A_SKIP_PART, skipped.part);
	if (keep(EDGEDMA_A_SKIP_REASON))
		nest.u32(EDGEDMA_A_SKIP_REASON, skipped.reason);
	return nest;
}

// A page view's nest as snapshot_views.c writes it: the IOMMU's side, then
// the physical page's, then the CPU's entry.
inline RecordBuilder page_nest(const PageView &page, LeaveOut keep = {})
{
	RecordBuilder nest;
	auto u64 = [&](int type, const std::optional<std::uint64_t> &value) {
		if (value && keep(type))
			nest.u64(type, *value);
	};
	auto u32 = [&](int type, const std::optional<std::uint32_t> &value) {
		if (value && keep(type))
			nest.u32(type, *value);
	};
	auto flag = [&](int type, const std::optional<bool> &value) {
		if (value && keep(type))
			nest.u32(type, *value ? 1 : 0);
	};
	u64(EDGEDMA_A_PAGE_DMA_ADDR, page.dma_addr);
	u64(EDGEDMA_A_PAGE_EXPECTED_PHYS, page.expected_phys);
	u32(EDGEDMA_A_PAGE_IOMMU_DOMAIN, page.iommu_domain);
	u64(EDGEDMA_A_PAGE_IOMMU_PHYS, page.iommu_phys);
	if (page.iommu_unmapped)
		u32(EDGEDMA_A_PAGE_IOMMU_UNMAPPED, 1);
	u64(EDGEDMA_A_PAGE_PHYS, page.phys);
	flag(EDGEDMA_A_PAGE_PFN_VALID, page.pfn_valid);
	u32(EDGEDMA_A_PAGE_FLAGS, page.flags);
	u32(EDGEDMA_A_PAGE_REFCOUNT, page.refcount);
	flag(EDGEDMA_A_PAGE_SWIOTLB, page.swiotlb);
	u64(EDGEDMA_A_PAGE_CPU_VIRT, page.cpu_virt);
	u64(EDGEDMA_A_PAGE_PTE, page.pte);
	flag(EDGEDMA_A_PAGE_PTE_PRESENT, page.pte_present);
	u64(EDGEDMA_A_PAGE_PTE_SIZE, page.pte_size);
	flag(EDGEDMA_A_PAGE_PTE_WRITABLE, page.pte_writable);
	flag(EDGEDMA_A_PAGE_PTE_EXECUTABLE, page.pte_executable);
	u64(EDGEDMA_A_PAGE_PTE_PFN, page.pte_pfn);
	u32(EDGEDMA_A_PAGE_PTE_MEMTYPE, page.pte_memtype);
	return nest;
}

// A line sharer's nest: a mapping's, with its DEVICE and DRIVER first
// (left out, as at panic, when device is empty).
inline RecordBuilder sharer_nest(const Mapping &mapping, LeaveOut keep = {})
{
	RecordBuilder nest;
	if (!mapping.device.empty()) {
		if (keep(EDGEDMA_A_MAPPING_DEVICE))
			nest.string(EDGEDMA_A_MAPPING_DEVICE, mapping.device);
		if (keep(EDGEDMA_A_MAPPING_DRIVER))
			nest.string(EDGEDMA_A_MAPPING_DRIVER, mapping.driver);
	}
	nest.append(mapping_nest(mapping, keep).bytes());
	return nest;
}

inline RecordBuilder field_nest(const RegisterField &field, LeaveOut keep = {})
{
	RecordBuilder nest;
	if (keep(EDGEDMA_A_FIELD_NAME))
		nest.string(EDGEDMA_A_FIELD_NAME, field.name);
	if (keep(EDGEDMA_A_FIELD_SHIFT))
		nest.u32(EDGEDMA_A_FIELD_SHIFT, field.shift);
	if (keep(EDGEDMA_A_FIELD_BITS))
		nest.u32(EDGEDMA_A_FIELD_BITS, field.bits);
	return nest;
}

// A register's nest as profiles.c writes it: FLAGS only when not 0, the
// fields, then VALUE or SKIPPED.
inline RecordBuilder register_nest(const Register &reg, LeaveOut keep = {})
{
	RecordBuilder nest;
	if (keep(EDGEDMA_A_REGISTER_NAME))
		nest.string(EDGEDMA_A_REGISTER_NAME, reg.name);
	if (keep(EDGEDMA_A_REGISTER_WINDOW))
		nest.u32(EDGEDMA_A_REGISTER_WINDOW, reg.window);
	if (keep(EDGEDMA_A_REGISTER_OFFSET))
		nest.u32(EDGEDMA_A_REGISTER_OFFSET, reg.offset);
	if (keep(EDGEDMA_A_REGISTER_WIDTH))
		nest.u32(EDGEDMA_A_REGISTER_WIDTH, reg.width);
	if (reg.flags && keep(EDGEDMA_A_REGISTER_FLAGS))
		nest.u32(EDGEDMA_A_REGISTER_FLAGS, reg.flags);
	for (const RegisterField &field : reg.fields)
		nest.nest(EDGEDMA_A_REGISTER_FIELD, field_nest(field));
	if (reg.value && keep(EDGEDMA_A_REGISTER_VALUE))
		nest.u64(EDGEDMA_A_REGISTER_VALUE, *reg.value);
	if (reg.skipped && keep(EDGEDMA_A_REGISTER_SKIPPED))
		nest.u32(EDGEDMA_A_REGISTER_SKIPPED, *reg.skipped);
	return nest;
}

// The whole record of a snapshot, in the order snapshot_capture.c writes
// it: header, kernel release, hook mode, the profile and its registers,
// the first mapping, the pages, cache line, coherency and line sharers,
// the other mappings, the count left out, unmaps, skipped parts (the
// module writes each where it skips; here all together), CAPTURE_NS,
// TRUNCATED. Fields the snapshot lacks are left out.
inline RecordBuilder record_of(const Snapshot &snapshot)
{
	RecordBuilder record;
	put_header(record, snapshot.header);
	if (snapshot.kernel_release)
		record.string(EDGEDMA_A_SNAPSHOT_KERNEL_RELEASE, *snapshot.kernel_release);
	if (snapshot.hook_mode)
		record.u32(EDGEDMA_A_SNAPSHOT_HOOK_MODE, *snapshot.hook_mode);
	if (snapshot.page_size)
		record.u32(EDGEDMA_A_SNAPSHOT_PAGE_SIZE, *snapshot.page_size);
	if (snapshot.profile)
		record.string(EDGEDMA_A_SNAPSHOT_PROFILE, *snapshot.profile);
	for (const Register &reg : snapshot.registers)
		record.nest(EDGEDMA_A_SNAPSHOT_REGISTER, register_nest(reg));
	for (std::size_t i = 0; i < snapshot.mappings.size(); i++) {
		record.nest(EDGEDMA_A_SNAPSHOT_MAPPING, mapping_nest(snapshot.mappings[i]));
		if (i != 0)
			continue;
		for (const PageView &page : snapshot.pages)
			record.nest(EDGEDMA_A_SNAPSHOT_PAGE, page_nest(page));
		if (snapshot.cache_line)
			record.u32(EDGEDMA_A_SNAPSHOT_CACHE_LINE, *snapshot.cache_line);
		if (snapshot.coherent)
			record.u32(EDGEDMA_A_SNAPSHOT_COHERENT, *snapshot.coherent ? 1 : 0);
		for (const Mapping &sharer : snapshot.line_sharers)
			record.nest(EDGEDMA_A_SNAPSHOT_LINE_SHARER, sharer_nest(sharer));
	}
	if (snapshot.mappings.empty()) {
		for (const PageView &page : snapshot.pages)
			record.nest(EDGEDMA_A_SNAPSHOT_PAGE, page_nest(page));
		if (snapshot.cache_line)
			record.u32(EDGEDMA_A_SNAPSHOT_CACHE_LINE, *snapshot.cache_line);
		if (snapshot.coherent)
			record.u32(EDGEDMA_A_SNAPSHOT_COHERENT, *snapshot.coherent ? 1 : 0);
		for (const Mapping &sharer : snapshot.line_sharers)
			record.nest(EDGEDMA_A_SNAPSHOT_LINE_SHARER, sharer_nest(sharer));
	}
	if (snapshot.iommu) {
		RecordBuilder iommu;
		iommu.string(EDGEDMA_A_SNAP_IOMMU_DEVICE, snapshot.iommu->device);
		if (snapshot.iommu->profile)
			iommu.string(EDGEDMA_A_SNAP_IOMMU_PROFILE, *snapshot.iommu->profile);
		for (const Register &reg : snapshot.iommu->registers)
			iommu.nest(EDGEDMA_A_SNAP_IOMMU_REGISTER, register_nest(reg));
		record.nest(EDGEDMA_A_SNAPSHOT_IOMMU, iommu);
	}
	if (snapshot.mappings_left_out)
		record.u64(EDGEDMA_A_SNAPSHOT_MAPPINGS_LEFT_OUT, snapshot.mappings_left_out);
	for (const RecentUnmap &unmap : snapshot.unmaps)
		record.nest(EDGEDMA_A_SNAPSHOT_UNMAPPED, unmap_nest(unmap));
	for (const SkippedPart &skipped : snapshot.skipped)
		record.nest(EDGEDMA_A_SNAPSHOT_SKIPPED, skipped_nest(skipped));
	if (snapshot.capture_ns)
		record.u64(EDGEDMA_A_SNAPSHOT_CAPTURE_NS, *snapshot.capture_ns);
	if (snapshot.truncated)
		record.u32(EDGEDMA_A_SNAPSHOT_TRUNCATED, 1);
	return record;
}

// 5 s on the kernel clock; 2026-12-04 20:44:43.123 UTC.
inline constexpr std::uint64_t sample_snapshot_time_ns = 5'000'000'000;
inline constexpr std::uint64_t sample_snapshot_real_time_ns = 1'796'417'083'123'000'000;

// A manual snapshot of the test driver's device about 0xfffff040: the live
// mapping holding it (named by the kernel) and an sg segment (not named),
// two left out; the latest unmap of the address and an older coherent
// free whose unmapper is unknown; the unmap history partly skipped; cut
// short. record and record_size are what record_of() makes of it.
inline Snapshot sample_snapshot()
{
	Snapshot snapshot{
		.header =
			{
				.seq = 7,
				.time_ns = sample_snapshot_time_ns,
				.real_time_ns = sample_snapshot_real_time_ns,
				.cpu = 1,
				.trigger = EDGEDMA_SNAPSHOT_TRIGGER_MANUAL,
				.trigger_addr = 0xfffff040,
				.trigger_access = std::nullopt,
				.trigger_reason = std::nullopt,
				.trigger_symbol = std::nullopt,
				.finding_seq = std::nullopt,
				.finding_kind = std::nullopt,
				.device = "0000:00:04.0",
				.driver = "edgedma_test_edu",
				.record_size = 0,
			},
		.kernel_release = "6.1.0-28-amd64",
		.hook_mode = EDGEDMA_HOOK_MODE_KPROBE,
		.mappings =
			{
				Mapping{
					.device = "0000:00:04.0",
					.driver = "edgedma_test_edu",
					.call = EDGEDMA_CALL_MAP_PAGE,
					.dma_addr = 0xfffff000,
					.size = 4096,
					.dir = 1, // DMA_TO_DEVICE
					.attrs = 0,
					.cpu_phys = 0x1'2345'6000,
					.cpu_virt = std::nullopt,
					.caller = 0xffffffffc0a01234,
					.time_ns = sample_snapshot_time_ns - 12'300'000,
					.sg_index = std::nullopt,
					.sg_count = 0,
					.caller_name = "edu_map+0x44/0x100 [edgedma_test_edu]",
				},
				Mapping{
					.device = "0000:00:04.0",
					.driver = "edgedma_test_edu",
					.call = EDGEDMA_CALL_MAP_SG,
					.dma_addr = 0xffffe000,
					.size = 512,
					.dir = 2, // DMA_FROM_DEVICE
					.attrs = 0x100,
					.cpu_phys = 0x2'0000'0200,
					.cpu_virt = 0xffff888012340200,
					.caller = 0xffffffffc0a01300,
					.time_ns = sample_snapshot_time_ns - 1'000'000'000,
					.sg_index = 1,
					.sg_count = 2,
					.caller_name = std::nullopt,
				},
			},
		.mappings_left_out = 2,
		.unmaps =
			{
				RecentUnmap{
					.call = EDGEDMA_CALL_MAP_PAGE,
					.dma_addr = 0xfffff000,
					.size = 4096,
					.dir = 1,
					.cpu_phys = 0x1'2345'6000,
					.map_time_ns = sample_snapshot_time_ns - 1'200'000'000,
					.unmap_time_ns = sample_snapshot_time_ns - 3'000'000,
					.map_caller = 0xffffffffc0a01234,
					.unmap_caller = 0xffffffffc0a01400,
					.map_caller_name = "edu_map+0x44/0x100 [edgedma_test_edu]",
					.unmap_caller_name = "edu_unmap+0x20/0x80 [edgedma_test_edu]",
				},
				RecentUnmap{
					.call = EDGEDMA_CALL_ALLOC_COHERENT,
					.dma_addr = 0xffffd000,
					.size = 8192,
					.dir = 0,
					.cpu_phys = std::nullopt,
					.map_time_ns = 2'000'000'000,
					.unmap_time_ns = 4'500'000'000,
					.map_caller = 0xffffffffc0a01500,
					.unmap_caller = 0,
					.map_caller_name = std::nullopt,
					.unmap_caller_name = std::nullopt,
				},
			},
		.skipped = {SkippedPart{EDGEDMA_SNAPSHOT_PART_UNMAPPED, EDGEDMA_SKIP_LOCK_BUSY}},
		.cache_line = std::nullopt,
		.coherent = std::nullopt,
		.pages = {},
		.line_sharers = {},
		.profile = std::nullopt,
		.registers = {},
		.chains = {},
		.iommu = std::nullopt,
		.capture_ns = std::nullopt,
		.page_size = std::nullopt,
		.truncated = true,
		.record = {},
	};
	snapshot.record = record_of(snapshot).bytes();
	snapshot.header.record_size = static_cast<std::uint32_t>(snapshot.record.size());
	return snapshot;
}

// The sample with what a newer module adds: the profile "edu" with a
// status register read (three fields) and an interrupt register it did
// not read (read-clears); two pages of the first mapping, the one of the
// address translated where the table expects, the next unmapped in the
// IOMMU; 64-byte lines on a non-coherent device, with one sharer of
// another device; the time the capture took.
inline Snapshot sample_snapshot_with_views()
{
	Snapshot snapshot = sample_snapshot();
	snapshot.profile = "edu";
	snapshot.registers = {
		Register{
			.name = "STATUS",
			.window = 0,
			.offset = 0x20,
			.width = 4,
			.flags = 0,
			.fields = {{"BUSY", 0, 1}, {"ERROR", 1, 1}, {"CODE", 8, 8}},
			.value = 0x4203,
			.skipped = std::nullopt,
		},
		Register{
			.name = "IRQ_STATUS",
			.window = 0,
			.offset = 0x24,
			.width = 4,
			.flags = EDGEDMA_REGISTER_READ_CLEARS,
			.fields = {{"DMA_DONE", 8, 1}},
			.value = std::nullopt,
			.skipped = EDGEDMA_SKIP_READ_CLEARS,
		},
	};
	snapshot.pages = {
		PageView{
			.dma_addr = 0xfffff000,
			.expected_phys = 0x1'2345'6000,
			.iommu_domain = EDGEDMA_IOMMU_DOMAIN_DMA_FQ,
			.iommu_phys = 0x1'2345'6000,
			.iommu_unmapped = false,
			.phys = 0x1'2345'6000,
			.cpu_virt = 0xffff888123456000,
			.pte = 0x8000000123456063,
			.pte_size = 4096,
			.pte_present = true,
			.pte_writable = true,
			.pte_executable = false,
			.pte_pfn = 0x123456,
			.pte_memtype = EDGEDMA_MEMTYPE_WRITE_BACK,
			.pfn_valid = true,
			.flags = EDGEDMA_PAGE_SLAB | EDGEDMA_PAGE_COMPOUND,
			.refcount = 1,
			.swiotlb = false,
			.iommu_swiotlb = std::nullopt,
		},
		PageView{
			.dma_addr = 0x1'0000'0000,
			.expected_phys = std::nullopt,
			.iommu_domain = EDGEDMA_IOMMU_DOMAIN_DMA,
			.iommu_phys = std::nullopt,
			.iommu_unmapped = true,
			.phys = std::nullopt,
			.cpu_virt = std::nullopt,
			.pte = std::nullopt,
			.pte_size = std::nullopt,
			.pte_present = std::nullopt,
			.pte_writable = std::nullopt,
			.pte_executable = std::nullopt,
			.pte_pfn = std::nullopt,
			.pte_memtype = std::nullopt,
			.pfn_valid = std::nullopt,
			.flags = std::nullopt,
			.refcount = std::nullopt,
			.swiotlb = std::nullopt,
			.iommu_swiotlb = std::nullopt,
		},
	};
	snapshot.cache_line = 64;
	snapshot.coherent = false;
	snapshot.line_sharers = {
		Mapping{
			.device = "0000:00:05.0",
			.driver = "e1000e",
			.call = EDGEDMA_CALL_MAP_PAGE,
			.dma_addr = 0xfee00000,
			.size = 64,
			.dir = 2, // DMA_FROM_DEVICE
			.attrs = 0,
			.cpu_phys = 0x1'2345'6fc0,
			.cpu_virt = std::nullopt,
			.caller = 0xffffffffc0b00100,
			.time_ns = sample_snapshot_time_ns - 2'000'000,
			.sg_index = std::nullopt,
			.sg_count = 0,
			.caller_name = "e1000_rx+0x10/0x200 [e1000e]",
		},
	};
	snapshot.capture_ns = 41'000;
	snapshot.page_size = 4096;
	snapshot.record = record_of(snapshot).bytes();
	snapshot.header.record_size = static_cast<std::uint32_t>(snapshot.record.size());
	return snapshot;
}

} // namespace edgedma::test
