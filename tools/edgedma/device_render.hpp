// SPDX-License-Identifier: GPL-2.0
#pragma once

// How `edgedma devices` shows the devices the module has seen.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <edgedma/records.hpp>

namespace edgedma::cli {

// The devices sorted by name (the module lists them in the order it made
// their records, which says nothing to a reader).
std::vector<Device> sorted_devices(std::vector<Device> devices);

// {"device", "driver" ("" when none is bound), "calls", "mappings_live",
// "findings", "complete" (bool), "sync_kept" (bool)}
nlohmann::ordered_json device_json(const Device &device);

// A table: a header line, then a line per device with its name, driver
// ("-" when none is bound), calls, live mappings, findings and whether
// every live mapping was seen made ("yes"/"no"), and whether the module
// keeps its syncs visible ("kept"/"-"). Columns are as wide as
// their widest entry and two spaces apart; numbers are right-aligned. Only
// the header when there are no devices.
std::string devices_text(const std::vector<Device> &devices);

} // namespace edgedma::cli
