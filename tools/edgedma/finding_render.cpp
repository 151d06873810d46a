// SPDX-License-Identifier: GPL-2.0
#include "finding_render.hpp"

#include <edgedma/names.hpp>

#include "format.hpp"

namespace edgedma::cli {

nlohmann::ordered_json finding_json(const Finding &finding, const Symbolizer &symbols)
{
	std::optional<std::uint64_t> map_caller = finding.map_caller;
	return {
		{"seq", finding.seq},
		{"time_ns", finding.time_ns},
		{"kind", finding_kind_label(finding.kind)},
		{"call", call_kind_label(finding.call)},
		{"device", finding.device},
		{"driver", finding.driver},
		{"dma_addr", hex(finding.dma_addr)},
		{"size", finding.size},
		{"dir", direction_label(finding.dir)},
		{"cpu_phys", hex_or_null(finding.cpu_phys)},
		{"caller", code_address_json(finding.caller, symbols)},
		{"caller_addr", code_address_hex(finding.caller)},
		{"map_caller", map_caller ? code_address_json(*map_caller, symbols) : nullptr},
		{"map_caller_addr", map_caller ? code_address_hex(*map_caller) : nullptr},
		{"detail", finding.detail},
	};
}

std::string finding_text(const Finding &finding, const Symbolizer &symbols)
{
	std::string driver = finding.driver.empty() ? "no driver" : finding.driver;
	return "#" + std::to_string(finding.seq) + " " + finding_kind_label(finding.kind) +
	       " " + finding.device + " (" + driver + ") " + call_kind_label(finding.call) +
	       " by " + code_address(finding.caller, symbols) + "\n    " + finding.detail +
	       "\n";
}

nlohmann::ordered_json loss_json(const Loss &loss)
{
	return {
		{"lost", loss.count()},
		{"first_seq", loss.first_seq},
		{"last_seq", loss.last_seq},
		{"cause", loss_cause_name(loss.cause)},
	};
}

} // namespace edgedma::cli
