// SPDX-License-Identifier: LGPL-2.1-or-later
#include <edgedma/client.hpp>

#include <optional>

#include <linux/edgedma.h>

#include <edgedma/error.hpp>

#include "decode.hpp"
#include "genl_socket.hpp"

namespace edgedma {

// Hidden: nested in an exported class it would otherwise be exported too.
class __attribute__((visibility("hidden"))) Client::Connection {
public:
	Connection()
	{
		auto id = socket_.resolve_family(EDGEDMA_FAMILY_NAME);
		if (!id)
			throw Error({}, "edgedma module not loaded (generic netlink "
					"family '" EDGEDMA_FAMILY_NAME "' not found)");
		family_ = *id;
	}

	// Runs a command that takes no attributes and answers with one message.
	template <typename Decode>
	auto ask(std::uint8_t command, std::string_view operation, Decode decode)
	{
		std::optional<decltype(decode(detail::AttributeStream{}))> answer;
		std::string reply_name = std::string(operation) + " reply";
		socket_.request(family_, command, EDGEDMA_FAMILY_VERSION, operation, {},
				[&](const nlmsghdr &reply) {
					answer = decode(detail::genl_attributes(reply, reply_name));
				});
		if (!answer)
			throw Error(std::string(operation),
				    "the module acknowledged without a reply");
		return std::move(*answer);
	}

private:
	detail::GenlSocket socket_;
	int family_ = 0;
};

Client::Client() : connection_(std::make_unique<Connection>()) {}
Client::~Client() = default;
Client::Client(Client &&) noexcept = default;
Client &Client::operator=(Client &&) noexcept = default;

Info Client::get_info()
{
	return connection_->ask(EDGEDMA_CMD_GET_INFO, "GET_INFO", detail::decode_info);
}

Stats Client::get_stats()
{
	return connection_->ask(EDGEDMA_CMD_GET_STATS, "GET_STATS", detail::decode_stats);
}

} // namespace edgedma
