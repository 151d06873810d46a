// SPDX-License-Identifier: GPL-2.0
#pragma once

// How `edgedma findings` and `edgedma watch` show findings and losses.

#include <string>

#include <nlohmann/json.hpp>

#include <edgedma/event_stream.hpp>
#include <edgedma/records.hpp>
#include <edgedma/symbolizer.hpp>

namespace edgedma::cli {

// One JSON object per finding (a line of --json output): seq, time_ns,
// kind, call, device, driver, dma_addr, size, dir, cpu_phys, caller,
// caller_addr, map_caller, map_caller_addr, detail. Addresses are "0x..."
// strings; cpu_phys, map_caller and map_caller_addr are null when absent,
// caller and caller_addr when the module could not tell (0). kind, call and
// dir are words ("kind-17" for a kind this tool does not know).
nlohmann::ordered_json finding_json(const Finding &finding, const Symbolizer &symbols);

// Two lines: "#SEQ KIND DEVICE (DRIVER) CALL by CALLER", then the detail
// sentence indented by four spaces.
std::string finding_text(const Finding &finding, const Symbolizer &symbols);

// {"lost": N, "first_seq": A, "last_seq": B, "cause": "gap"|"overflow"}
nlohmann::ordered_json loss_json(const Loss &loss);

} // namespace edgedma::cli
