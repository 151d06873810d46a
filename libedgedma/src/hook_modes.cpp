// SPDX-License-Identifier: LGPL-2.1-or-later
#include <bit>
#include <cstdio>

#include <linux/edgedma.h>

#include <edgedma/info.hpp>

#include "hex.hpp"

namespace edgedma {
namespace {

struct HookModeName {
	std::uint32_t flag;
	const char *name;
};

constexpr HookModeName known_hook_modes[] = {
	{EDGEDMA_HOOK_MODE_TRACEPOINT, "tracepoint"},
	{EDGEDMA_HOOK_MODE_KPROBE, "kprobe"},
	{EDGEDMA_HOOK_MODE_OPS, "ops"},
};


} // namespace

std::vector<std::string> hook_mode_names(std::uint32_t hook_modes)
{
	std::vector<std::string> names;
	std::uint32_t unknown = hook_modes;
	for (const auto &mode : known_hook_modes) {
		if (hook_modes & mode.flag)
			names.emplace_back(mode.name);
		unknown &= ~mode.flag;
	}
	for (; unknown != 0; unknown &= unknown - 1)
		names.push_back(detail::hex(std::uint32_t{1} << std::countr_zero(unknown)));
	return names;
}

std::string hook_mode_name(std::uint32_t hook_mode)
{
	if (hook_mode == 0)
		return "none";
	std::vector<std::string> names = hook_mode_names(hook_mode);
	// One mode is in use at a time; more bits would be a module bug, shown
	// as it is rather than hidden.
	std::string text = names.front();
	for (std::size_t i = 1; i < names.size(); i++)
		text += "+" + names[i];
	return text;
}

} // namespace edgedma
