// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// What the report renderers (report_*.cpp) share: words and numbers for
// people, and the JSON document that --json prints and the HTML page and
// the trace draw from.

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include <edgedma/analysis.hpp>
#include <edgedma/records.hpp>
#include <edgedma/symbolizer.hpp>

#include "hex.hpp"

namespace edgedma::detail {

// A caller as describe_caller() names it (the module's own name for it
// first, then symbols); "unknown" when neither can (address 0).
std::string caller_text(std::uint64_t address, const std::optional<std::string> &kernel_name,
			const Symbolizer &symbols);

// The name of the code to blame for a finding (find_culprit()): the
// caller's, as caller_text() names it, when the caller is to blame.
std::string culprit_text(const Finding &finding, const Symbolizer &symbols);

// "512 bytes", "4.0 KiB", "1.5 GiB"
std::string byte_size(std::uint64_t bytes);

// "850 ns", "12.5 us", "3.20 ms", "1.234 s"
std::string duration(std::uint64_t ns);

// "2024-05-01 12:00:00 UTC"
std::string utc_time(std::uint64_t unix_ns);

// The count with the noun, plural when it is not 1: "1 finding", "3 findings".
std::string counted(std::uint64_t count, const std::string &noun);

// The whole summary as one JSON document (Documentation/report.rst).
nlohmann::ordered_json summary_json(const Summary &summary, const Symbolizer &symbols);

// One finding, as `edgedma findings --json` prints it.
nlohmann::ordered_json finding_json(const Finding &finding, const Symbolizer &symbols);

// Text that no malformed UTF-8 (a device name from a broken driver, a
// damaged recording) can make throw.
std::string dump_json(const nlohmann::ordered_json &document);

} // namespace edgedma::detail
