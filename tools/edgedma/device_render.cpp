// SPDX-License-Identifier: GPL-2.0
#include "device_render.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <sstream>

namespace edgedma::cli {
namespace {

constexpr std::size_t column_count = 7;
using Row = std::array<std::string, column_count>;

constexpr Row header{"DEVICE", "DRIVER", "CALLS", "LIVE MAPPINGS", "FINDINGS", "COMPLETE",
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
	std::vector<Row> rows{header};
	for (const Device &device : devices)
		rows.push_back(row_of(device));

	std::array<std::size_t, column_count> width{};
	for (const Row &row : rows)
		for (std::size_t column = 0; column < column_count; column++)
			width[column] = std::max(width[column], row[column].size());

	std::ostringstream text;
	for (const Row &row : rows) {
		std::string line;
		for (std::size_t column = 0; column < column_count; column++) {
			const std::string &cell = row[column];
			std::string padding(width[column] - cell.size(), ' ');
			if (column > 0)
				line += "  ";
			line += right_aligned[column] ? padding + cell : cell + padding;
		}
		// The last column is left-aligned: no spaces after its word.
		line.erase(line.find_last_not_of(' ') + 1);
		text << line << '\n';
	}
	return text.str();
}

} // namespace edgedma::cli
