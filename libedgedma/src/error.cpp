// SPDX-License-Identifier: LGPL-2.1-or-later
#include <system_error>

#include <netlink/errno.h>

#include <edgedma/error.hpp>

#include "errors.hpp"

namespace edgedma {

struct Error::Details {
	std::string context;
	std::string message;
	int error_number;
	std::string kernel_message;
};

namespace {

std::string describe(const std::string &context, const std::string &message)
{
	return context.empty() ? message : context + ": " + message;
}

} // namespace

Error::Error(std::string context, std::string message, int error_number,
	     std::string kernel_message)
	: std::runtime_error(describe(context, message)),
	  details_(std::make_shared<const Details>(
		  Details{std::move(context), std::move(message), error_number,
			  std::move(kernel_message)}))
{
}

const std::string &Error::context() const noexcept { return details_->context; }
const std::string &Error::message() const noexcept { return details_->message; }
int Error::error_number() const noexcept { return details_->error_number; }
const std::string &Error::kernel_message() const noexcept
{
	return details_->kernel_message;
}

namespace detail {

Error kernel_refusal(std::string_view operation, int error_number,
		     std::string kernel_message)
{
	std::string reason = std::generic_category().message(error_number);
	std::string message = kernel_message.empty()
		? reason : kernel_message + " (" + reason + ")";
	return Error(std::string(operation), std::move(message), error_number,
		     std::move(kernel_message));
}

Error libnl_failure(std::string_view context, std::string_view action,
		    int nle_code, int saved_errno)
{
	std::string message = std::string(action) + ": " + nl_geterror(nle_code);
	// NLE codes are coarse ("Unspecific failure"); the system's errno, when
	// the failure came from a system call, says more.
	if (saved_errno != 0)
		message += " (" + std::generic_category().message(saved_errno) + ")";
	return Error(std::string(context), std::move(message), saved_errno);
}

Error malformed(std::string_view context, std::string message)
{
	return Error(std::string(context), std::move(message));
}

} // namespace detail
} // namespace edgedma
