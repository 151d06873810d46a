// SPDX-License-Identifier: GPL-2.0
#include <cerrno>

#include <edgedma/error.hpp>

#include "errors.hpp"
#include "test_support.hpp"

namespace edgedma::test {
namespace error_test {

TEST(Error, WhatReadsContextThenMessage)
{
	Error error("GET_INFO reply", "missing EDGEDMA_A_INFO_ARCH");
	EXPECT_STREQ(error.what(), "GET_INFO reply: missing EDGEDMA_A_INFO_ARCH");
	EXPECT_EQ(error.error_number(), 0);
}

TEST(Error, WhatIsJustTheMessageWithoutContext)
{
	Error error("", "edgedma module not loaded");
	EXPECT_STREQ(error.what(), "edgedma module not loaded");
}

TEST(Error, KernelRefusalCarriesErrnoAndExtack)
{
	Error error = detail::kernel_refusal("GET_STATS", EPERM, "needs CAP_SYS_ADMIN");
	EXPECT_EQ(error.context(), "GET_STATS");
	EXPECT_EQ(error.error_number(), EPERM);
	EXPECT_EQ(error.kernel_message(), "needs CAP_SYS_ADMIN");
	EXPECT_STREQ(error.what(), "GET_STATS: needs CAP_SYS_ADMIN (Operation not permitted)");
}

TEST(Error, KernelRefusalWithoutExtackShowsErrnoText)
{
	Error error = detail::kernel_refusal("GET_STATS", EPERM, "");
	EXPECT_STREQ(error.what(), "GET_STATS: Operation not permitted");
}

TEST(Error, CopyKeepsEverything)
{
	const Error original = detail::kernel_refusal("GET_INFO", EINVAL, "bad");
	const Error copy = original; // NOLINT: the copy is the point
	EXPECT_STREQ(copy.what(), original.what());
	EXPECT_EQ(copy.error_number(), EINVAL);
	EXPECT_EQ(copy.kernel_message(), "bad");
}

} // namespace error_test
} // namespace edgedma::test
