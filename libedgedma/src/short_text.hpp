// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// Equality of the short texts compared once per record: device and driver
// names ("0000:00:03.0", "fe2a0000.ethernet", "stmmac"), mostly 4 to 32
// bytes. For those, two or four overlapping word loads compare the whole
// text, where std::string's operator== calls memcmp (a call, and the
// library's set-up for long buffers, for a dozen bytes).

#include <cstdint>
#include <cstring>
#include <string_view>

namespace edgedma::detail {

[[gnu::always_inline]] inline bool same_text(std::string_view a, std::string_view b)
{
	const std::size_t length = a.size();
	if (length != b.size())
		return false;
	const char *x = a.data(), *y = b.data();
	// One word of each at offset: memcpy is a single unaligned load.
	auto differs = [&]<typename Word>(Word, std::size_t offset) -> Word {
		Word u, v;
		std::memcpy(&u, x + offset, sizeof u);
		std::memcpy(&v, y + offset, sizeof v);
		return u ^ v;
	};
	// The first and the last word overlap for lengths between one word and
	// two: together they cover every byte once or twice.
	if (length >= 8 && length <= 16)
		return (differs(std::uint64_t{}, 0) | differs(std::uint64_t{}, length - 8)) == 0;
	if (length > 16 && length <= 32)
		return (differs(std::uint64_t{}, 0) | differs(std::uint64_t{}, 8) |
			differs(std::uint64_t{}, length - 16) |
			differs(std::uint64_t{}, length - 8)) == 0;
	if (length >= 4 && length < 8)
		return (differs(std::uint32_t{}, 0) | differs(std::uint32_t{}, length - 4)) == 0;
	return std::memcmp(x, y, length) == 0;
}

} // namespace edgedma::detail
