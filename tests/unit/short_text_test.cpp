// SPDX-License-Identifier: GPL-2.0
#include <string>

#include <gtest/gtest.h>

#include "short_text.hpp"

namespace short_text_test {

using edgedma::detail::same_text;

// Every length up to past the last word-load case, each byte changed in
// turn: the overlapping loads must see a difference wherever it is.
TEST(SameText, EveryLengthAndEveryDifferingByte)
{
	for (std::size_t length = 0; length <= 40; length++) {
		std::string a(length, 'x');
		for (std::size_t i = 0; i < length; i++)
			a[i] = static_cast<char>('a' + i % 26);
		std::string b = a;
		EXPECT_TRUE(same_text(a, b)) << "length " << length;
		for (std::size_t i = 0; i < length; i++) {
			std::string c = a;
			c[i] = static_cast<char>(c[i] ^ 0x20);
			EXPECT_FALSE(same_text(a, c)) << "length " << length << ", byte " << i;
			EXPECT_FALSE(same_text(c, a)) << "length " << length << ", byte " << i;
		}
	}
}

TEST(SameText, DifferentLengthsDiffer)
{
	EXPECT_FALSE(same_text("0000:00:03.0", "0000:00:03.01"));
	EXPECT_FALSE(same_text("", "a"));
	EXPECT_TRUE(same_text("", ""));
	// A prefix with the same bytes is still another name.
	EXPECT_FALSE(same_text("fe2a0000.ethernet", "fe2a0000.ethernet2"));
}

// Views into larger buffers: only their own bytes count.
TEST(SameText, ViewsCompareTheirOwnBytesOnly)
{
	const std::string one = "stmmac-0:01/rest-of-a-buffer";
	const std::string two = "stmmac-0:01|another-tail-here";
	EXPECT_TRUE(same_text(std::string_view(one).substr(0, 11),
			      std::string_view(two).substr(0, 11)));
	EXPECT_FALSE(same_text(std::string_view(one).substr(0, 12),
			       std::string_view(two).substr(0, 12)));
}

} // namespace short_text_test
