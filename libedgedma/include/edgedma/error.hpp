// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include <edgedma/export.hpp>

namespace edgedma {

// Every failure in libedgedma is thrown as an Error. what() reads
// "<context>: <message>" (or just the message when there is no context), so
// a tool can print it after its own name and be understood.
class EDGEDMA_API Error : public std::runtime_error {
public:
	// context:        what was being done ("GET_STATS", "GET_INFO reply")
	// message:        what went wrong, for a human
	// error_number:   errno reported by the kernel or a system call; 0 when
	//                 libedgedma found the problem itself (bad data)
	// kernel_message: the kernel's extended-ack text, empty if none was sent
	Error(std::string context, std::string message, int error_number = 0,
	      std::string kernel_message = {});

	const std::string &context() const noexcept;
	const std::string &message() const noexcept;
	int error_number() const noexcept;
	const std::string &kernel_message() const noexcept;

private:
	struct Details;
	// Shared so that copying an exception never throws.
	std::shared_ptr<const Details> details_;
};

} // namespace edgedma
