// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// The ways `edgedma report` shows a Summary.

#include <cstdint>
#include <string>

#include <edgedma/analysis.hpp>
#include <edgedma/export.hpp>
#include <edgedma/symbolizer.hpp>

namespace edgedma {

// Findings grouped by driver and kind, each with its sentence, then losses
// and the devices' activity; callers named with symbols.
EDGEDMA_API std::string render_report_text(const Summary &summary, const Symbolizer &symbols);

// A span of time as the reports write it: "850 ns", "12.5 us", "3.20 ms",
// "1.234 s".
EDGEDMA_API std::string describe_duration(std::uint64_t ns);

// The summary as one JSON document (see Documentation/report.rst).
EDGEDMA_API std::string render_report_json(const Summary &summary, const Symbolizer &symbols);

// One finding as one line of JSON, without the newline: the objects of the
// report's "findings" array, and what `edgedma findings --json` and
// `edgedma watch --json` print. Keys: seq, time_ns, kind, call, device,
// driver, dma_addr, size, dir, cpu_phys, caller, caller_addr, map_caller,
// map_caller_addr, detail, occurrences, last_time_ns, call_chain,
// driver_module, culprit. Addresses are "0x..." strings; cpu_phys,
// map_caller and map_caller_addr are null when absent, caller and
// caller_addr when the module could not tell (0), occurrences and
// last_time_ns when the module did not count the finding's site,
// driver_module when the module predates it. call_chain is
// [{"addr": "0x...", "name": "func+0x1c/0x80 [mod]" or null}], caller first
// (empty without a chain); culprit the name of the frame to blame
// (find_culprit()): the caller's, as "caller", where the caller is to
// blame. kind, call and dir are words ("kind-17" for a kind this library
// does not know). Malformed UTF-8 in a name comes out replaced, never as
// an exception.
EDGEDMA_API std::string render_finding_json(const Finding &finding, const Symbolizer &symbols);

// One self-contained HTML page: no network, no external file. Findings
// table, per-device timeline, devices x time heatmap.
EDGEDMA_API std::string render_report_html(const Summary &summary, const Symbolizer &symbols);

// The timeline in the Chrome trace-event JSON format (Perfetto opens it):
// one track per device with counters per bucket and an instant event per
// finding kept.
EDGEDMA_API std::string render_report_trace(const Summary &summary, const Symbolizer &symbols);

} // namespace edgedma
