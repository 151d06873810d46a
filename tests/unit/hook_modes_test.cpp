// SPDX-License-Identifier: GPL-2.0
#include <linux/edgedma.h>

#include <edgedma/info.hpp>

#include "test_support.hpp"

namespace edgedma::test {
namespace hook_modes_test {

using Names = std::vector<std::string>;

TEST(HookModeNames, NamesEveryKnownModeInFlagOrder)
{
	EXPECT_EQ(hook_mode_names(EDGEDMA_HOOK_MODE_KPROBE | EDGEDMA_HOOK_MODE_TRACEPOINT),
		  (Names{"tracepoint", "kprobe"}));
	EXPECT_EQ(hook_mode_names(EDGEDMA_HOOK_MODE_KPROBE), Names{"kprobe"});
	EXPECT_EQ(hook_mode_names(EDGEDMA_HOOK_MODE_OPS | EDGEDMA_HOOK_MODE_KPROBE),
		  (Names{"kprobe", "ops"}));
}

TEST(HookModeNames, NoModesGiveNoNames)
{
	EXPECT_TRUE(hook_mode_names(0).empty());
}

TEST(HookModeNames, ShowsUnknownBitsInsteadOfDroppingThem)
{
	EXPECT_EQ(hook_mode_names(EDGEDMA_HOOK_MODE_TRACEPOINT | 0x10 | 0x80000000),
		  (Names{"tracepoint", "0x10", "0x80000000"}));
}

} // namespace hook_modes_test
} // namespace edgedma::test
