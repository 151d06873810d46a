// SPDX-License-Identifier: LGPL-2.1-or-later
#include "mapping_table.hpp"

namespace edgedma::detail {

MappingTable read_mapping_table(int max_attempts, const MappingTableDump &dump)
{
	MappingTable table;
	// do-while: one read is made even when max_attempts is 0 or less.
	do {
		// An interrupted read's entries may be missing or repeated; none
		// of them is worth keeping, so each read starts from nothing.
		table.mappings.clear();
		table.attempts++;
		table.consistent = !dump(table.mappings);
	} while (!table.consistent && table.attempts < max_attempts);
	return table;
}

} // namespace edgedma::detail
