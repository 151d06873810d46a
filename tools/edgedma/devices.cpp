// SPDX-License-Identifier: GPL-2.0
//
// edgedma devices: the devices the module has seen calling the DMA API.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include <edgedma/client.hpp>

#include "command.hpp"
#include "device_render.hpp"

namespace edgedma::cli {
namespace {

struct DevicesOptions {
	bool json = false;
};

int show_devices(const DevicesOptions &options)
{
	Client client;
	std::vector<Device> devices = sorted_devices(client.devices());
	if (options.json) {
		for (const Device &device : devices)
			std::cout << device_json(device).dump() << '\n';
		return 0;
	}
	if (devices.empty())
		std::cout << "no devices seen calling the DMA API\n";
	else
		std::cout << devices_text(devices);
	return 0;
}

} // namespace

Action setup_devices(CLI::App &command)
{
	auto options = std::make_shared<DevicesOptions>();
	command.add_flag("--json", options->json,
			 "One JSON object per device and line instead of a table");
	command.footer("COMPLETE says whether every live mapping of the device was seen "
		       "made; a device already driven when the module loaded may hold "
		       "mappings it never saw. SYNCS says \"kept\" where the module stopped "
		       "the DMA core (6.11+) from skipping the device's syncs, so they are "
		       "checked. Needs CAP_SYS_ADMIN.");
	return [options] { return show_devices(*options); };
}

} // namespace edgedma::cli
