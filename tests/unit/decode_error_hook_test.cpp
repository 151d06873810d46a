// SPDX-License-Identifier: GPL-2.0
#include <linux/edgedma.h>

#include "test_support.hpp"

namespace edgedma::test {
namespace decode_error_hook_test {

using detail::decode_error_hook;

constexpr std::string_view context = "ERROR_HOOK_GET reply";

TEST(DecodeErrorHook, ReadsAHookAsTheKernelPadsIt)
{
	GenlMessage message(EDGEDMA_CMD_ERROR_HOOK_GET);
	message.put_string(EDGEDMA_A_ERROR_HOOK_SYMBOL, "pl330_irq_handler")
		.put_string(EDGEDMA_A_ERROR_HOOK_DEVICE, "fea10000.dma-controller")
		.put_u64_padded(EDGEDMA_A_ERROR_HOOK_HITS, 3, EDGEDMA_A_ERROR_HOOK_PAD)
		.put_u32(EDGEDMA_A_ERROR_HOOK_MAX + 1, 5); // a newer module's: skipped
	EXPECT_EQ(decode_error_hook(message.attributes(), context),
		  (ErrorHook{"pl330_irq_handler", "fea10000.dma-controller", 3}));
}

TEST(DecodeErrorHook, NamesEachMissingAttribute)
{
	const NamedAttribute required[] = {
		EDGEDMA_NAMED_ATTRIBUTE(EDGEDMA_A_ERROR_HOOK_SYMBOL),
		EDGEDMA_NAMED_ATTRIBUTE(EDGEDMA_A_ERROR_HOOK_DEVICE),
		EDGEDMA_NAMED_ATTRIBUTE(EDGEDMA_A_ERROR_HOOK_HITS),
	};
	for (const NamedAttribute &missing : required) {
		SCOPED_TRACE(missing.name);
		GenlMessage message(EDGEDMA_CMD_ERROR_HOOK_GET);
		if (missing.type != EDGEDMA_A_ERROR_HOOK_SYMBOL)
			message.put_string(EDGEDMA_A_ERROR_HOOK_SYMBOL, "edu_controller_error");
		if (missing.type != EDGEDMA_A_ERROR_HOOK_DEVICE)
			message.put_string(EDGEDMA_A_ERROR_HOOK_DEVICE, "0000:00:04.0");
		if (missing.type != EDGEDMA_A_ERROR_HOOK_HITS)
			message.put_u64(EDGEDMA_A_ERROR_HOOK_HITS, 0);
		EXPECT_EQ(error_message_of([&] { decode_error_hook(message.attributes(), context); },
					   context),
			  std::string("missing ") + missing.name);
	}
}

} // namespace decode_error_hook_test
} // namespace edgedma::test
