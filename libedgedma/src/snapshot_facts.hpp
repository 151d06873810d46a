// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// Small facts about a decoded snapshot that the comparison, its side-by-side
// view, the reports and snapshot_address_owner() all read the same way.

#include <cstdint>

#include <edgedma/snapshot.hpp>

namespace edgedma::detail {

// The page size the record gives; records from modules before
// EDGEDMA_A_SNAPSHOT_PAGE_SIZE: the smallest page an IOMMU maps.
inline std::uint64_t page_size_of(const Snapshot &snapshot)
{
	return snapshot.page_size.value_or(4096);
}

inline std::uint64_t page_of(const Snapshot &snapshot, std::uint64_t address)
{
	return address & ~(page_size_of(snapshot) - 1);
}

inline bool same_page(const Snapshot &snapshot, std::uint64_t a, std::uint64_t b)
{
	return page_of(snapshot, a) == page_of(snapshot, b);
}

// A register whose value may be a DMA address: read, 4 or 8 bytes wide (a
// byte or half-word register holds a count or a flag), not 0.
inline bool may_hold_address(const Register &reg)
{
	return reg.value && reg.width >= 4 && *reg.value != 0;
}

} // namespace edgedma::detail
