// SPDX-License-Identifier: GPL-2.0
#include "device_render.hpp"

#include <algorithm>
#include <array>
#include <cstddef>

#include "format.hpp"

namespace edgedma::cli {
namespace {

constexpr std::size_t column_count = 7;
using Row = std::array<std::string, column_count>;

constexpr Row device_columns{"DEVICE", "DRIVER", "CALLS", "LIVE MAPPINGS", "FINDINGS", "COMPLETE",
		     "SYNCS"};
// Names and words read from the left, counts from the right.
constexpr std::array<bool, column_count> right_aligned{false, false, true, true,
						       true,  false, false};

Row row_of(const Device &device)
{
	return {device.name,
		device.driver.empty() ? "-" : device.driver,
		std::to_string(device.calls),
		std::to_string(device.mappings_live),
		std::to_string(device.findings),
		device.complete ? "yes" : "no",
		// "kept": the module stopped the DMA core from skipping them.
		device.sync_kept ? "kept" : "-"};
}

} // namespace

std::vector<Device> sorted_devices(std::vector<Device> devices)
{
	std::ranges::stable_sort(devices, {}, &Device::name);
	return devices;
}

nlohmann::ordered_json device_json(const Device &device)
{
	return {
		{"device", device.name},
		{"driver", device.driver},
		{"calls", device.calls},
		{"mappings_live", device.mappings_live},
		{"findings", device.findings},
		{"complete", device.complete},
		{"sync_kept", device.sync_kept},
	};
}

std::string devices_text(const std::vector<Device> &devices)
{
	std::vector<std::vector<std::string>> rows;
	rows.emplace_back(device_columns.begin(), device_columns.end());
	for (const Device &device : devices) {
		const Row row = row_of(device);
		rows.emplace_back(row.begin(), row.end());
	}
	return aligned_table(rows, std::vector<bool>(right_aligned.begin(), right_aligned.end()));
}

} // namespace edgedma::cli
