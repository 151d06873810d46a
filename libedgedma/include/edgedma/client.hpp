// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

#include <memory>

#include <edgedma/export.hpp>
#include <edgedma/info.hpp>

namespace edgedma {

// A connection to the edgedma module over its generic netlink family. Every
// method throws edgedma::Error on failure; a refusal by the kernel carries
// its errno and extended-ack message.
class EDGEDMA_API Client {
public:
	// Throws Error("edgedma module not loaded (...)") when the family does
	// not exist.
	Client();
	~Client();
	Client(Client &&) noexcept;
	Client &operator=(Client &&) noexcept;
	Client(const Client &) = delete;
	Client &operator=(const Client &) = delete;

	// Unprivileged. Fails if the module speaks a record format this library
	// does not understand.
	Info get_info();
	// Needs CAP_SYS_ADMIN.
	Stats get_stats();

private:
	class Connection;
	std::unique_ptr<Connection> connection_;
};

} // namespace edgedma
