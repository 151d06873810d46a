// SPDX-License-Identifier: GPL-2.0
//
// edgedma mappings: the live DMA mappings the module tracks.
#include <iostream>
#include <memory>
#include <optional>
#include <utility>

#include <CLI/CLI.hpp>

#include <edgedma/client.hpp>

#include "command.hpp"
#include "format.hpp"
#include "mapping_render.hpp"

namespace edgedma::cli {
namespace {

struct MappingsOptions {
	bool json = false;
	std::optional<std::string> device;
};

int show_mappings(const MappingsOptions &options)
{
	Client client;
	MappingTable table = client.mapping_table(options.device);
	// Mappings come and go while the module dumps its table; the client
	// reads again when that happens, and says so when no read was clean.
	// The list is still shown: it is the best there is.
	if (!table.consistent)
		std::cerr << "edgedma: " << inconsistent_table_note(table.attempts) << '\n';
	std::vector<MappingGroup> groups = group_mappings(std::move(table.mappings));
	Symbolizer symbols = load_kernel_symbols();
	if (options.json) {
		for (const MappingGroup &group : groups)
			std::cout << mapping_json(group, symbols, table.consistent).dump() << '\n';
		return 0;
	}
	if (groups.empty())
		std::cout << "no live mappings" << (options.device ? " of " + *options.device : "")
			  << "\n";
	else
		std::cout << mappings_text(groups, symbols);
	return 0;
}

} // namespace

Action setup_mappings(CLI::App &command)
{
	auto options = std::make_shared<MappingsOptions>();
	command.add_flag("--json", options->json,
			 "One JSON object per mapping and line instead of text");
	command.add_option("--device", options->device,
			   "Only this device's mappings (its dev_name())");
	command.footer("The segments of a scatter-gather mapping are shown together. "
		       "Needs CAP_SYS_ADMIN.");
	return [options] { return show_mappings(*options); };
}

} // namespace edgedma::cli
