// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// Ways to build an edgedma::Error from the failures libedgedma meets.

#include <string>
#include <string_view>

#include <edgedma/error.hpp>

namespace edgedma::detail {

// The kernel refused a request: errno plus, when sent, its extack text.
Error kernel_refusal(std::string_view operation, int error_number,
		     std::string kernel_message);

// A libnl call failed with a negative NLE_* code. saved_errno is errno read
// right after the call (libnl hides the system error behind its own code).
Error libnl_failure(std::string_view context, std::string_view action,
		    int nle_code, int saved_errno);

// Something libedgedma found wrong in data it received.
Error malformed(std::string_view context, std::string message);

} // namespace edgedma::detail
