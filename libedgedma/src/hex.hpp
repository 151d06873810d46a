// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace edgedma::detail {

// "0x1f00": addresses, offsets and flag bits as the kernel prints them.
inline std::string hex(std::uint64_t value)
{
	char text[sizeof "0x" + 16];
	std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
	return text;
}

} // namespace edgedma::detail
