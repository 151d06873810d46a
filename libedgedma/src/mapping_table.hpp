// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// Client::mapping_table()'s loop, apart from the socket so that a test can
// drive it with reads of its own.

#include <functional>
#include <vector>

#include <edgedma/client.hpp>

namespace edgedma::detail {

// One dump of the mapping table into mappings (empty when called); true when
// the kernel marked it interrupted (NLM_F_DUMP_INTR).
using MappingTableDump = std::function<bool(std::vector<Mapping> &mappings)>;

// Dumps until a dump is not interrupted or max_attempts dumps were made (at
// least one is, whatever max_attempts says), and returns the last dump.
// Each dump starts from nothing: entries of an interrupted one may be
// missing or repeated, so none of them is kept.
MappingTable read_mapping_table(int max_attempts, const MappingTableDump &dump);

} // namespace edgedma::detail
