// SPDX-License-Identifier: LGPL-2.1-or-later
#include <edgedma/client.hpp>

#include <cerrno>
#include <optional>
#include <string>

#include <linux/edgedma.h>
#include <netlink/attr.h>
#include <netlink/errno.h>

#include <edgedma/error.hpp>

#include "decode.hpp"
#include "errors.hpp"
#include "genl_socket.hpp"
#include "mapping_table.hpp"

namespace edgedma {
namespace {

void put_string(nl_msg &request, std::string_view operation, int type,
		const std::string &value)
{
	if (int rc = nla_put_string(&request, type, value.c_str()); rc < 0)
		throw detail::libnl_failure(operation, "add an attribute", rc, 0);
}

void put_u32(nl_msg &request, std::string_view operation, int type, std::uint32_t value)
{
	if (int rc = nla_put_u32(&request, type, value); rc < 0)
		throw detail::libnl_failure(operation, "add an attribute", rc, 0);
}

// The u64 attributes of requests need no padding attribute: the module's
// policy (NLA_U64) accepts them unaligned, as nla_put_u64() sends them.
void put_u64(nl_msg &request, std::string_view operation, int type, std::uint64_t value)
{
	if (int rc = nla_put_u64(&request, type, value); rc < 0)
		throw detail::libnl_failure(operation, "add an attribute", rc, 0);
}

// Runs request and returns what it does. The generic netlink core refuses
// a command the family does not have with EOPNOTSUPP and no message: that
// refusal becomes one saying that the loaded module predates the command,
// and cannot do what the caller asked (the words of cannot). The module's
// own EOPNOTSUPP comes with its reason (this kernel lacks what the command
// needs) and stands as it is.
template <typename Request>
auto unless_module_predates(std::string_view operation, std::string_view cannot,
			    Request request)
{
	try {
		return request();
	} catch (const Error &error) {
		if (error.error_number() != EOPNOTSUPP || !error.kernel_message().empty())
			throw;
		throw Error(std::string(operation),
			    "the loaded edgedma module cannot " + std::string(cannot) +
			    " (it predates " + std::string(operation) +
			    "); load the module of this edgedma release",
			    EOPNOTSUPP, error.kernel_message());
	}
}

// The receive buffer a SNAPSHOT_GET reply needs, as the kernel counts it.
// The module allocates the reply for the largest record it can hold
// (snapshot_size, at most 1 MiB), and the kernel rounds that allocation up
// to 2 MiB. The acknowledgement that follows the reply is dropped unless
// the buffer holds more than what is queued: twice that, so it does.
constexpr int snapshot_receive_buffer = 4 << 20;

// Starts a nested attribute; NLA_F_NESTED, which the module's strict
// validation asks for, marks it.
nlattr *start_nest(nl_msg &request, std::string_view operation, int type)
{
	nlattr *nest = nla_nest_start(&request, type | NLA_F_NESTED);
	if (!nest)
		throw detail::libnl_failure(operation, "add an attribute", -NLE_NOMEM, 0);
	return nest;
}

void end_nest(nl_msg &request, std::string_view operation, nlattr *nest)
{
	if (int rc = nla_nest_end(&request, nest); rc < 0)
		throw detail::libnl_failure(operation, "add an attribute", rc, 0);
}

void put_register(nl_msg &request, std::string_view operation, const Register &reg)
{
	nlattr *nest = start_nest(request, operation, EDGEDMA_A_PROFILE_REGISTER);
	put_string(request, operation, EDGEDMA_A_REGISTER_NAME, reg.name);
	put_u32(request, operation, EDGEDMA_A_REGISTER_WINDOW, reg.window);
	put_u32(request, operation, EDGEDMA_A_REGISTER_OFFSET, reg.offset);
	put_u32(request, operation, EDGEDMA_A_REGISTER_WIDTH, reg.width);
	if (reg.flags)
		put_u32(request, operation, EDGEDMA_A_REGISTER_FLAGS, reg.flags);
	for (const RegisterField &field : reg.fields) {
		nlattr *field_nest = start_nest(request, operation, EDGEDMA_A_REGISTER_FIELD);
		put_string(request, operation, EDGEDMA_A_FIELD_NAME, field.name);
		put_u32(request, operation, EDGEDMA_A_FIELD_SHIFT, field.shift);
		put_u32(request, operation, EDGEDMA_A_FIELD_BITS, field.bits);
		end_nest(request, operation, field_nest);
	}
	end_nest(request, operation, nest);
}

void put_chain(nl_msg &request, std::string_view operation, const DescriptorChain &chain)
{
	nlattr *nest = start_nest(request, operation, EDGEDMA_A_PROFILE_CHAIN);
	auto put_name = [&](int type, const std::optional<std::string> &name) {
		if (name)
			put_string(request, operation, type, *name);
	};
	auto put_number = [&](int type, const std::optional<std::uint32_t> &value) {
		if (value)
			put_u32(request, operation, type, *value);
	};
	put_string(request, operation, EDGEDMA_A_CHAIN_NAME, chain.name);
	put_u32(request, operation, EDGEDMA_A_CHAIN_KIND, chain.kind);
	put_name(EDGEDMA_A_CHAIN_START_REG, chain.start_reg);
	put_name(EDGEDMA_A_CHAIN_START_HI_REG, chain.start_hi_reg);
	put_name(EDGEDMA_A_CHAIN_LENGTH_REG, chain.length_reg);
	put_number(EDGEDMA_A_CHAIN_ENTRIES, chain.entries);
	put_name(EDGEDMA_A_CHAIN_HEAD_REG, chain.head_reg);
	put_name(EDGEDMA_A_CHAIN_TAIL_REG, chain.tail_reg);
	put_u32(request, operation, EDGEDMA_A_CHAIN_DESC_SIZE, chain.desc_size);
	put_number(EDGEDMA_A_CHAIN_MAX_DESCS, chain.max_descs);
	put_number(EDGEDMA_A_CHAIN_ALIGN_LOG2, chain.align_log2);
	put_number(EDGEDMA_A_CHAIN_DIRECTION, chain.direction);
	if (chain.flags)
		put_u32(request, operation, EDGEDMA_A_CHAIN_FLAGS, chain.flags);
	for (const DescriptorField &field : chain.fields) {
		nlattr *field_nest = start_nest(request, operation, EDGEDMA_A_CHAIN_DFIELD);
		put_string(request, operation, EDGEDMA_A_DFIELD_NAME, field.name);
		put_u32(request, operation, EDGEDMA_A_DFIELD_OFFSET, field.offset);
		put_u32(request, operation, EDGEDMA_A_DFIELD_WIDTH, field.width);
		if (field.shift)
			put_u32(request, operation, EDGEDMA_A_DFIELD_SHIFT, field.shift);
		put_number(EDGEDMA_A_DFIELD_BITS, field.bits);
		put_number(EDGEDMA_A_DFIELD_ROLE, field.role);
		end_nest(request, operation, field_nest);
	}
	end_nest(request, operation, nest);
}

void put_target(nl_msg &request, std::string_view operation, const PolicyTarget &target)
{
	put_string(request, operation,
		   target.kind == PolicyTarget::Kind::driver ? EDGEDMA_A_POLICY_DRIVER
							     : EDGEDMA_A_POLICY_DEVICE,
		   target.name);
}

} // namespace

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

	// Runs a command that answers with one message.
	template <typename Decode>
	auto ask(std::uint8_t command, std::string_view operation, Decode decode,
		 const detail::GenlSocket::AttributeWriter &write = {})
	{
		std::optional<decltype(decode(detail::AttributeStream{}, ""))> answer;
		std::string reply_name = std::string(operation) + " reply";
		socket_.request(family_, command, EDGEDMA_FAMILY_VERSION, operation, write,
				[&](const nlmsghdr &reply) {
					answer = decode(detail::genl_attributes(reply, reply_name),
							reply_name);
				});
		if (!answer)
			throw Error(std::string(operation),
				    "the module acknowledged without a reply");
		return std::move(*answer);
	}

	// Runs a command that answers with nothing but its acknowledgement.
	void tell(std::uint8_t command, std::string_view operation,
		  const detail::GenlSocket::AttributeWriter &write)
	{
		std::string reply_name = std::string(operation) + " reply";
		socket_.request(family_, command, EDGEDMA_FAMILY_VERSION, operation, write,
				[&](const nlmsghdr &) {
					throw detail::malformed(reply_name,
								"the module answered a command "
								"that has no reply");
				});
	}

	// Runs a dump and decodes every message of it into records; true when
	// the kernel marked the dump interrupted (NLM_F_DUMP_INTR).
	template <typename Decode, typename Record>
	bool dump_into(std::uint8_t command, std::string_view operation, Decode decode,
		       std::vector<Record> &records,
		       const detail::GenlSocket::AttributeWriter &write = {})
	{
		std::string reply_name = std::string(operation) + " reply";
		auto result = socket_.dump(family_, command, EDGEDMA_FAMILY_VERSION, operation,
					   write, [&](const nlmsghdr &reply) {
						   records.push_back(decode(
							   detail::genl_attributes(reply,
										   reply_name),
							   reply_name));
					   });
		return result.interrupted;
	}

	// The same for tables that do not change under a dump, or whose
	// readers take what they get.
	template <typename Decode>
	auto dump(std::uint8_t command, std::string_view operation, Decode decode,
		  const detail::GenlSocket::AttributeWriter &write = {})
	{
		std::vector<decltype(decode(detail::AttributeStream{}, ""))> records;
		dump_into(command, operation, decode, records, write);
		return records;
	}

	// Room for the largest SNAPSHOT_GET reply, asked for once.
	void reserve_snapshot_room()
	{
		if (snapshot_room_reserved_)
			return;
		socket_.reserve_receive_buffer(snapshot_receive_buffer);
		snapshot_room_reserved_ = true;
	}

private:
	detail::GenlSocket socket_;
	int family_ = 0;
	bool snapshot_room_reserved_ = false;
};

Client::Client() : connection_(std::make_unique<Connection>()) {}
Client::~Client() = default;
Client::Client(Client &&) noexcept = default;
Client &Client::operator=(Client &&) noexcept = default;

Info Client::get_info()
{
	return connection_->ask(EDGEDMA_CMD_GET_INFO, "GET_INFO",
				[](detail::AttributeStream attributes, std::string_view) {
					return detail::decode_info(attributes);
				});
}

Stats Client::get_stats()
{
	return connection_->ask(EDGEDMA_CMD_GET_STATS, "GET_STATS",
				[](detail::AttributeStream attributes, std::string_view) {
					return detail::decode_stats(attributes);
				});
}

std::vector<Finding> Client::findings(std::uint64_t from_seq)
{
	constexpr std::string_view operation = "FINDINGS_GET";
	return connection_->dump(EDGEDMA_CMD_FINDINGS_GET, operation, detail::decode_finding,
				 [&](nl_msg &request) {
					 put_u64(request, operation, EDGEDMA_A_FINDING_SEQ,
						 from_seq);
				 });
}

MappingTable Client::mapping_table(const std::optional<std::string> &device, int max_attempts)
{
	constexpr std::string_view operation = "MAPPINGS_GET";
	return detail::read_mapping_table(max_attempts, [&](std::vector<Mapping> &mappings) {
		return connection_->dump_into(EDGEDMA_CMD_MAPPINGS_GET, operation,
					      detail::decode_mapping, mappings,
					      [&](nl_msg &request) {
						      if (device)
							      put_string(request, operation,
									 EDGEDMA_A_MAPPING_DEVICE,
									 *device);
					      });
	});
}

std::vector<Mapping> Client::mappings(const std::optional<std::string> &device)
{
	return mapping_table(device).mappings;
}

std::vector<Device> Client::devices()
{
	constexpr std::string_view operation = "DEVICES_GET";
	return unless_module_predates(operation, "list devices", [&] {
		return connection_->dump(EDGEDMA_CMD_DEVICES_GET, operation, detail::decode_device);
	});
}

void Client::policy_set(const PolicyChange &change)
{
	constexpr std::string_view operation = "POLICY_SET";
	connection_->tell(EDGEDMA_CMD_POLICY_SET, operation, [&](nl_msg &request) {
		put_target(request, operation, change.target);
		auto put = [&](int type, const std::optional<std::uint32_t> &value) {
			if (value)
				put_u32(request, operation, type, *value);
		};
		put(EDGEDMA_A_POLICY_ADDR_ALIGN, change.addr_align);
		put(EDGEDMA_A_POLICY_LEN_ALIGN, change.len_align);
		put(EDGEDMA_A_POLICY_COHERENCY, change.coherency);
		put(EDGEDMA_A_POLICY_CHECKS, change.checks);
		put(EDGEDMA_A_POLICY_SNAPSHOT_TRIGGERS, change.snapshot_triggers);
		put(EDGEDMA_A_POLICY_SNAPSHOT_FINDINGS, change.snapshot_findings);
		put(EDGEDMA_A_POLICY_OWNED_HASH_MAX, change.owned_hash_max);
	});
}

Policy Client::policy_get(const std::string &device)
{
	constexpr std::string_view operation = "POLICY_GET";
	return connection_->ask(EDGEDMA_CMD_POLICY_GET, operation, detail::decode_policy,
				[&](nl_msg &request) {
					put_target(request, operation,
						   {PolicyTarget::Kind::device, device});
				});
}

std::vector<Policy> Client::policy_list()
{
	return connection_->dump(EDGEDMA_CMD_POLICY_GET, "POLICY_GET", detail::decode_policy);
}

void Client::policy_del(const PolicyTarget &target)
{
	constexpr std::string_view operation = "POLICY_DEL";
	connection_->tell(EDGEDMA_CMD_POLICY_DEL, operation, [&](nl_msg &request) {
		put_target(request, operation, target);
	});
}

MapEventsState Client::map_events_set(bool enable)
{
	return map_events_request(enable);
}

MapEventsState Client::map_events_state()
{
	return map_events_request(std::nullopt);
}

FoldingState Client::every_occurrence(bool enable)
{
	return unfold_request(enable);
}

FoldingState Client::folding_state()
{
	return unfold_request(std::nullopt);
}

FoldingState Client::unfold_request(std::optional<bool> enable)
{
	constexpr std::string_view operation = "UNFOLD_SET";
	return unless_module_predates(operation, "log every occurrence on request", [&] {
		return connection_->ask(
			EDGEDMA_CMD_UNFOLD_SET, operation,
			[](detail::AttributeStream attributes, std::string_view) {
				return detail::decode_folding_state(attributes);
			},
			[&](nl_msg &request) {
				if (enable)
					put_u32(request, operation, EDGEDMA_A_UNFOLD_ENABLE,
						*enable ? 1 : 0);
			});
	});
}

MapEventsState Client::map_events_request(std::optional<bool> enable)
{
	constexpr std::string_view operation = "MAP_EVENTS_SET";
	return connection_->ask(
		EDGEDMA_CMD_MAP_EVENTS_SET, operation,
		[](detail::AttributeStream attributes, std::string_view) {
			return detail::decode_map_events_state(attributes);
		},
		[&](nl_msg &request) {
			if (enable)
				put_u32(request, operation, EDGEDMA_A_MAP_EVENTS_ENABLE,
					*enable ? 1 : 0);
		});
}

std::uint64_t Client::snapshot_take(const std::string &device,
				    std::optional<std::uint64_t> address)
{
	constexpr std::string_view operation = "SNAPSHOT_TAKE";
	return unless_module_predates(operation, "take snapshots", [&] {
		return connection_->ask(EDGEDMA_CMD_SNAPSHOT_TAKE, operation,
					detail::decode_snapshot_taken, [&](nl_msg &request) {
						put_string(request, operation,
							   EDGEDMA_A_SNAPSHOT_DEVICE, device);
						if (address)
							put_u64(request, operation,
								EDGEDMA_A_SNAPSHOT_TRIGGER_ADDR,
								*address);
					});
	});
}

std::vector<SnapshotHeader> Client::snapshot_list()
{
	constexpr std::string_view operation = "SNAPSHOT_GET";
	return unless_module_predates(operation, "list snapshots", [&] {
		return connection_->dump(EDGEDMA_CMD_SNAPSHOT_GET, operation,
					 detail::decode_snapshot_header);
	});
}

Snapshot Client::snapshot_get(std::uint64_t seq)
{
	constexpr std::string_view operation = "SNAPSHOT_GET";
	connection_->reserve_snapshot_room();
	return unless_module_predates(operation, "read snapshots", [&] {
		return connection_->ask(EDGEDMA_CMD_SNAPSHOT_GET, operation,
					detail::decode_snapshot, [&](nl_msg &request) {
						put_u64(request, operation,
							EDGEDMA_A_SNAPSHOT_SEQ, seq);
					});
	});
}

std::uint32_t Client::profile_set(const Profile &profile)
{
	constexpr std::string_view operation = "PROFILE_SET";
	return unless_module_predates(operation, "hold controller profiles", [&] {
		return connection_->ask(
			EDGEDMA_CMD_PROFILE_SET, operation, detail::decode_profile_bound,
			[&](nl_msg &request) {
				put_string(request, operation, EDGEDMA_A_PROFILE_NAME, profile.name);
				if (profile.pci_id)
					put_u32(request, operation, EDGEDMA_A_PROFILE_PCI_ID,
						*profile.pci_id);
				if (profile.compatible)
					put_string(request, operation, EDGEDMA_A_PROFILE_COMPATIBLE,
						   *profile.compatible);
				if (profile.device)
					put_string(request, operation, EDGEDMA_A_PROFILE_DEVICE,
						   *profile.device);
				for (const Register &reg : profile.registers)
					put_register(request, operation, reg);
				for (const DescriptorChain &chain : profile.chains)
					put_chain(request, operation, chain);
			});
	});
}

void Client::error_hook_set(const std::string &symbol, const std::string &device)
{
	constexpr std::string_view operation = "ERROR_HOOK_SET";
	unless_module_predates(operation, "hook controller error handlers", [&] {
		connection_->tell(EDGEDMA_CMD_ERROR_HOOK_SET, operation, [&](nl_msg &request) {
			put_string(request, operation, EDGEDMA_A_ERROR_HOOK_SYMBOL, symbol);
			put_string(request, operation, EDGEDMA_A_ERROR_HOOK_DEVICE, device);
		});
	});
}

std::vector<ErrorHook> Client::error_hooks()
{
	constexpr std::string_view operation = "ERROR_HOOK_GET";
	return unless_module_predates(operation, "hook controller error handlers", [&] {
		return connection_->dump(EDGEDMA_CMD_ERROR_HOOK_GET, operation,
					 detail::decode_error_hook);
	});
}

void Client::error_hook_del(const std::string &symbol, std::optional<std::string> device)
{
	constexpr std::string_view operation = "ERROR_HOOK_DEL";
	unless_module_predates(operation, "hook controller error handlers", [&] {
		connection_->tell(EDGEDMA_CMD_ERROR_HOOK_DEL, operation, [&](nl_msg &request) {
			put_string(request, operation, EDGEDMA_A_ERROR_HOOK_SYMBOL, symbol);
			if (device)
				put_string(request, operation, EDGEDMA_A_ERROR_HOOK_DEVICE, *device);
		});
	});
}

std::vector<LoadedProfile> Client::profile_list()
{
	constexpr std::string_view operation = "PROFILE_GET";
	return unless_module_predates(operation, "hold controller profiles", [&] {
		return connection_->dump(EDGEDMA_CMD_PROFILE_GET, operation,
					 detail::decode_profile);
	});
}

LoadedProfile Client::profile_get(const std::string &name)
{
	constexpr std::string_view operation = "PROFILE_GET";
	return unless_module_predates(operation, "hold controller profiles", [&] {
		return connection_->ask(EDGEDMA_CMD_PROFILE_GET, operation, detail::decode_profile,
					[&](nl_msg &request) {
						put_string(request, operation,
							   EDGEDMA_A_PROFILE_NAME, name);
					});
	});
}

void Client::profile_del(const std::string &name)
{
	constexpr std::string_view operation = "PROFILE_DEL";
	unless_module_predates(operation, "hold controller profiles", [&] {
		connection_->tell(EDGEDMA_CMD_PROFILE_DEL, operation, [&](nl_msg &request) {
			put_string(request, operation, EDGEDMA_A_PROFILE_NAME, name);
		});
	});
}

CrashRegion Client::crash_region()
{
	constexpr std::string_view operation = "CRASH_REGION_GET";
	return unless_module_predates(operation, "keep a crash region", [&] {
		return connection_->ask(EDGEDMA_CMD_CRASH_REGION_GET, operation,
					detail::decode_crash_region);
	});
}

std::vector<CrashRecordEntry> Client::crash_records()
{
	constexpr std::string_view operation = "CRASH_RECORDS_GET";
	return unless_module_predates(operation, "keep a crash region", [&] {
		return connection_->dump(EDGEDMA_CMD_CRASH_RECORDS_GET, operation,
					 detail::decode_crash_record_entry);
	});
}

Snapshot Client::crash_record(std::uint32_t index)
{
	constexpr std::string_view operation = "CRASH_RECORDS_GET";
	connection_->reserve_snapshot_room();
	return unless_module_predates(operation, "keep a crash region", [&] {
		return connection_->ask(EDGEDMA_CMD_CRASH_RECORDS_GET, operation,
					detail::decode_snapshot, [&](nl_msg &request) {
						put_u32(request, operation, EDGEDMA_A_CRASH_INDEX,
							index);
					});
	});
}

void Client::crash_records_clear(std::optional<std::uint64_t> boot_id)
{
	constexpr std::string_view operation = "CRASH_RECORDS_CLEAR";
	unless_module_predates(operation, "keep a crash region", [&] {
		connection_->tell(EDGEDMA_CMD_CRASH_RECORDS_CLEAR, operation, [&](nl_msg &request) {
			if (boot_id)
				put_u64(request, operation, EDGEDMA_A_CRASH_BOOT_ID, *boot_id);
		});
	});
}

} // namespace edgedma
