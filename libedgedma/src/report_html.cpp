// SPDX-License-Identifier: LGPL-2.1-or-later
//
// The HTML report: the page in report_page.html (embedded at build time)
// with the report's JSON document put into it. The page draws everything
// from that document in the browser.
#include <edgedma/error.hpp>
#include <edgedma/report.hpp>

#include "report_common.hpp"

namespace edgedma {
namespace detail {
// report_page.cpp, generated from report_page.html.
extern const std::string_view report_page;
} // namespace detail

namespace {

constexpr std::string_view title_marker = "{{EDGEDMA_REPORT_TITLE}}";
constexpr std::string_view data_marker = "{{EDGEDMA_REPORT_DATA}}";

std::string escape_html(std::string_view text)
{
	std::string escaped;
	escaped.reserve(text.size());
	for (char c : text) {
		switch (c) {
		case '&': escaped += "&amp;"; break;
		case '<': escaped += "&lt;"; break;
		case '>': escaped += "&gt;"; break;
		case '"': escaped += "&quot;"; break;
		case '\'': escaped += "&#39;"; break;
		default: escaped += c;
		}
	}
	return escaped;
}

// JSON inside <script>: the HTML parser ends the element at the first
// "</script", and "<!--" changes how it reads what follows, whatever the
// JSON means. JSON has these characters only inside strings, where the
// \u escapes mean the same to JSON.parse, so escaping every one is safe.
std::string json_for_script(std::string_view json)
{
	std::string escaped;
	escaped.reserve(json.size() + json.size() / 64);
	for (char c : json) {
		switch (c) {
		case '<': escaped += "\\u003c"; break;
		case '>': escaped += "\\u003e"; break;
		case '&': escaped += "\\u0026"; break;
		default: escaped += c;
		}
	}
	return escaped;
}

void replace_marker(std::string &page, std::string_view marker, std::string_view text)
{
	std::size_t at = page.find(marker);
	if (at == std::string::npos)
		throw Error("HTML report", "the page template has no " + std::string(marker));
	page.replace(at, marker.size(), text);
}

} // namespace

std::string render_report_html(const Summary &summary, const Symbolizer &symbols)
{
	std::string page(detail::report_page);
	// The data first: the title could contain the data marker's text.
	replace_marker(page, data_marker,
		       json_for_script(detail::dump_json(detail::summary_json(summary, symbols))));
	replace_marker(page, title_marker, escape_html("edgedma report: " + summary.source));
	return page;
}

} // namespace edgedma
