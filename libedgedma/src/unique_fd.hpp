// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

#include <utility>

#include <unistd.h>

namespace edgedma::detail {

// Owns a file descriptor and closes it.
class UniqueFd {
public:
	UniqueFd() = default;
	explicit UniqueFd(int fd) : fd_(fd) {}
	~UniqueFd()
	{
		if (fd_ >= 0)
			::close(fd_);
	}
	UniqueFd(UniqueFd &&other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
	UniqueFd &operator=(UniqueFd &&other) noexcept
	{
		if (this != &other) {
			UniqueFd old(std::exchange(fd_, std::exchange(other.fd_, -1)));
		}
		return *this;
	}
	UniqueFd(const UniqueFd &) = delete;
	UniqueFd &operator=(const UniqueFd &) = delete;

	int get() const { return fd_; }
	explicit operator bool() const { return fd_ >= 0; }

private:
	int fd_ = -1;
};

} // namespace edgedma::detail
