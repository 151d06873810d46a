// SPDX-License-Identifier: LGPL-2.1-or-later
//
// What a snapshot record says, beyond its attributes: where the address it
// is about was.
#include <edgedma/snapshot.hpp>

#include "decode.hpp"
#include "snapshot_facts.hpp"

namespace edgedma {
namespace {

bool holds(std::uint64_t start, std::uint64_t size, std::uint64_t address)
{
	return address >= start && address - start < size;
}

bool overlaps(std::uint64_t start, std::uint64_t size, std::uint64_t from, std::uint64_t to)
{
	return start < to && start + std::max<std::uint64_t>(size, 1) > from;
}

} // namespace

std::optional<std::uint64_t> descriptor_field_value(const DescriptorChain &chain,
						    const Descriptor &descriptor, std::size_t field)
{
	if (field >= chain.fields.size())
		return std::nullopt;
	const DescriptorField &f = chain.fields[field];
	if (f.width == 0 || f.width > 8 || f.offset + f.width > descriptor.bytes.size())
		return std::nullopt;
	std::uint64_t value = 0;
	const bool big_endian = chain.flags & 1; // EDGEDMA_CHAIN_BIG_ENDIAN
	for (std::uint32_t i = 0; i < f.width; i++) {
		const std::uint32_t at = big_endian ? i : f.width - 1 - i;
		value = value << 8 | std::to_integer<std::uint64_t>(descriptor.bytes[f.offset + at]);
	}
	if (f.shift >= 64)
		return 0;
	value >>= f.shift;
	if (f.bits && *f.bits < 64)
		value &= (std::uint64_t{1} << *f.bits) - 1;
	return value;
}

const Mapping *live_mapping_holding(const Snapshot &snapshot, std::uint64_t address)
{
	for (const Mapping &mapping : snapshot.mappings)
		if (covers(mapping.dma_addr, mapping.size, address))
			return &mapping;
	return nullptr;
}

const RecentUnmap *unmap_holding(const Snapshot &snapshot, std::uint64_t address)
{
	const RecentUnmap *latest = nullptr;
	for (const RecentUnmap &unmap : snapshot.unmaps)
		if (covers(unmap.dma_addr, unmap.size, address) &&
		    (!latest || unmap.unmap_time_ns > latest->unmap_time_ns))
			latest = &unmap;
	return latest;
}

Snapshot decode_snapshot_record(std::span<const std::byte> record)
{
	return detail::decode_snapshot(record, "snapshot record");
}

SnapshotAddressOwner snapshot_address_owner(const Snapshot &snapshot)
{
	SnapshotAddressOwner owner;
	if (!snapshot.header.trigger_addr)
		return owner;
	const std::uint64_t address = *snapshot.header.trigger_addr;
	if (!snapshot.mappings.empty() &&
	    holds(snapshot.mappings.front().dma_addr, snapshot.mappings.front().size, address)) {
		owner.kind = SnapshotAddressOwner::Kind::live;
		owner.mapping = &snapshot.mappings.front();
		return owner;
	}
	const std::uint64_t page = detail::page_size_of(snapshot);
	const std::uint64_t page_start = address & ~(page - 1);
	if (!snapshot.unmaps.empty() &&
	    overlaps(snapshot.unmaps.front().dma_addr, snapshot.unmaps.front().size, page_start,
		     page_start + page)) {
		owner.kind = SnapshotAddressOwner::Kind::unmapped;
		owner.unmap = &snapshot.unmaps.front();
		return owner;
	}
	owner.kind = SnapshotAddressOwner::Kind::nowhere;
	return owner;
}

std::vector<PageBuffer> buffers_in_page(const Snapshot &snapshot, const PageView &page)
{
	const std::uint64_t size = detail::page_size_of(snapshot);
	std::vector<PageBuffer> found;
	for (const DescriptorChain &chain : snapshot.chains)
		for (const Descriptor &descriptor : chain.descriptors)
			for (const DescriptorBuffer &buffer : descriptor.buffers)
				if (buffer.addr && holds(page.dma_addr, size, buffer.addr))
					found.push_back({&chain, &descriptor, &buffer});
	return found;
}

} // namespace edgedma
