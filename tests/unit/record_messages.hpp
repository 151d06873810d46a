// SPDX-License-Identifier: GPL-2.0
#pragma once

// Records of <linux/edgedma.h> built as the module builds them (attribute
// order, u64s padded with the set's PAD attribute), for the decoder, stream
// and rendering tests.

#include <optional>
#include <span>
#include <string>

#include <linux/edgedma.h>

#include <edgedma/records.hpp>

#include "test_support.hpp"

namespace edgedma::test {

inline Finding sample_finding(std::uint64_t seq, std::string device = "0000:00:04.0")
{
	return Finding{
		.seq = seq,
		.time_ns = 1'000'000'000ull * seq + 17,
		.kind = EDGEDMA_FINDING_ADDR_MISALIGNED,
		.call = EDGEDMA_CALL_MAP_PAGE,
		.device = std::move(device),
		.driver = "edgedma_test_edu",
		.dma_addr = 0xfffff001,
		.size = 128,
		.dir = 1, // DMA_TO_DEVICE
		.cpu_phys = 0x1'2345'6001,
		.caller = 0xffffffffc0a01234,
		.map_caller = 0xffffffffc0a00100,
		.detail = "DMA address 0xfffff001 is not aligned to the 64 bytes the device needs",
		// As from a module that predates caller names: the tests that
		// render callers name them from a Symbolizer.
		.caller_name = std::nullopt,
		.map_caller_name = std::nullopt,
		// As from a module that predates folding, or a finding it did
		// not count: the finding stands for itself alone.
		.occurrences = std::nullopt,
		.last_time_ns = std::nullopt,
		// As from a module that predates call chains: the caller alone
		// is to blame.
		.call_chain = {},
		.call_chain_names = {},
		.driver_module = std::nullopt,
	};
}

// sample_finding() as the module sends the logged finding of a site found
// occurrences times, the latest last_after_ns after the first.
inline Finding folded_finding(std::uint64_t seq, std::uint64_t occurrences,
			      std::uint64_t last_after_ns, std::string device = "0000:00:04.0")
{
	Finding finding = sample_finding(seq, std::move(device));
	finding.occurrences = occurrences;
	finding.last_time_ns = finding.time_ns + last_after_ns;
	return finding;
}

// Adds finding's attributes, leaving out one if asked to.
inline void put_finding(GenlMessage &message, const Finding &finding,
			std::optional<int> left_out = std::nullopt)
{
	auto wanted = [&](int type) { return type != left_out; };
	auto u64 = [&](int type, std::uint64_t value) {
		if (wanted(type))
			message.put_u64_padded(type, value, EDGEDMA_A_FINDING_PAD);
	};
	auto u32 = [&](int type, std::uint32_t value) {
		if (wanted(type))
			message.put_u32(type, value);
	};
	auto string = [&](int type, const std::string &value) {
		if (wanted(type))
			message.put_string(type, value);
	};
	u64(EDGEDMA_A_FINDING_SEQ, finding.seq);
	u64(EDGEDMA_A_FINDING_TIME_NS, finding.time_ns);
	u32(EDGEDMA_A_FINDING_KIND, finding.kind);
	u32(EDGEDMA_A_FINDING_CALL, finding.call);
	string(EDGEDMA_A_FINDING_DEVICE, finding.device);
	string(EDGEDMA_A_FINDING_DRIVER, finding.driver);
	u64(EDGEDMA_A_FINDING_DMA_ADDR, finding.dma_addr);
	u64(EDGEDMA_A_FINDING_SIZE, finding.size);
	u32(EDGEDMA_A_FINDING_DIR, finding.dir);
	if (finding.cpu_phys)
		u64(EDGEDMA_A_FINDING_CPU_PHYS, *finding.cpu_phys);
	u64(EDGEDMA_A_FINDING_CALLER, finding.caller);
	if (finding.map_caller)
		u64(EDGEDMA_A_FINDING_MAP_CALLER, *finding.map_caller);
	string(EDGEDMA_A_FINDING_DETAIL, finding.detail);
	if (finding.caller_name)
		string(EDGEDMA_A_FINDING_CALLER_NAME, *finding.caller_name);
	if (finding.map_caller_name)
		string(EDGEDMA_A_FINDING_MAP_CALLER_NAME, *finding.map_caller_name);
	if (finding.occurrences)
		u64(EDGEDMA_A_FINDING_OCCURRENCES, *finding.occurrences);
	if (finding.last_time_ns)
		u64(EDGEDMA_A_FINDING_LAST_TIME_NS, *finding.last_time_ns);
	// As the module puts them: DRIVER_MODULE always, the chain and its
	// names when there is a chain.
	if (finding.driver_module)
		string(EDGEDMA_A_FINDING_DRIVER_MODULE, *finding.driver_module);
	if (!finding.call_chain.empty() && wanted(EDGEDMA_A_FINDING_CALL_CHAIN))
		message.put_bytes(EDGEDMA_A_FINDING_CALL_CHAIN,
				  std::as_bytes(std::span(finding.call_chain)));
	if (!finding.call_chain_names.empty()) {
		std::string names = finding.call_chain_names.front();
		for (std::size_t i = 1; i < finding.call_chain_names.size(); i++)
			names += "\n" + finding.call_chain_names[i];
		string(EDGEDMA_A_FINDING_CALL_CHAIN_NAMES, names);
	}
}

// sample_finding() as a SCSI host driver's: the caller is the SCSI
// midlayer's scsi_dma_map(), the driver (megaraid_sas, a module) is two
// frames further out, behind a frame no symbol covers.
inline Finding scsi_finding(std::uint64_t seq)
{
	Finding finding = sample_finding(seq, "0000:03:00.0");
	finding.driver = "megaraid_sas";
	finding.caller = 0xffffffffc0300040;
	finding.caller_name = "scsi_dma_map+0x40/0x60 [scsi_mod]";
	finding.call_chain = {0xffffffffc0300040, 0xffffffffc0800111, 0xffffffffc0a011a4,
			      0xffffffffc0a02010, 0xffffffffc0301234};
	finding.call_chain_names = {
		"scsi_dma_map+0x40/0x60 [scsi_mod]",
		"?",
		"megasas_build_io_fusion+0x1a4/0x300 [megaraid_sas]",
		"megasas_queue_command+0x10/0x200 [megaraid_sas]",
		"scsi_queue_rq+0x634/0x9a0 [scsi_mod]",
	};
	finding.driver_module = "megaraid_sas";
	return finding;
}

// A FINDING_REPEATS of sample_finding(seq), as the module sends it.
inline FindingRepeats sample_repeats(std::uint64_t seq, std::uint64_t occurrences,
				     std::uint64_t last_time_ns)
{
	Finding finding = sample_finding(seq);
	return FindingRepeats{
		.seq = seq,
		.kind = finding.kind,
		.device = finding.device,
		.driver = finding.driver,
		.occurrences = occurrences,
		.last_time_ns = last_time_ns,
	};
}

inline GenlMessage repeats_message(const FindingRepeats &repeats,
				   std::optional<int> left_out = std::nullopt,
				   int family_id = GenlMessage::any_family_id)
{
	GenlMessage message(EDGEDMA_CMD_FINDING_REPEATS, family_id);
	auto wanted = [&](int type) { return type != left_out; };
	if (wanted(EDGEDMA_A_FINDING_SEQ))
		message.put_u64_padded(EDGEDMA_A_FINDING_SEQ, repeats.seq, EDGEDMA_A_FINDING_PAD);
	if (wanted(EDGEDMA_A_FINDING_KIND))
		message.put_u32(EDGEDMA_A_FINDING_KIND, repeats.kind);
	if (wanted(EDGEDMA_A_FINDING_DEVICE))
		message.put_string(EDGEDMA_A_FINDING_DEVICE, repeats.device);
	if (wanted(EDGEDMA_A_FINDING_DRIVER))
		message.put_string(EDGEDMA_A_FINDING_DRIVER, repeats.driver);
	if (wanted(EDGEDMA_A_FINDING_OCCURRENCES))
		message.put_u64_padded(EDGEDMA_A_FINDING_OCCURRENCES, repeats.occurrences,
				       EDGEDMA_A_FINDING_PAD);
	if (wanted(EDGEDMA_A_FINDING_LAST_TIME_NS))
		message.put_u64_padded(EDGEDMA_A_FINDING_LAST_TIME_NS, repeats.last_time_ns,
				       EDGEDMA_A_FINDING_PAD);
	return message;
}

inline GenlMessage finding_message(const Finding &finding,
				   std::optional<int> left_out = std::nullopt,
				   std::uint8_t command = EDGEDMA_CMD_FINDING,
				   int family_id = GenlMessage::any_family_id)
{
	GenlMessage message(command, family_id);
	put_finding(message, finding, left_out);
	return message;
}

inline Mapping sample_mapping()
{
	return Mapping{
		.device = "0000:00:04.0",
		.driver = "edgedma_test_edu",
		.call = EDGEDMA_CALL_MAP_PAGE,
		.dma_addr = 0xfffff000,
		.size = 4096,
		.dir = 2, // DMA_FROM_DEVICE
		.attrs = 0x20,
		.cpu_phys = 0x1'2345'6000,
		.cpu_virt = 0xffff888012345000,
		.caller = 0xffffffffc0a01234,
		.time_ns = 5'000'000'000,
		.sg_index = std::nullopt,
		.sg_count = 0,
		// MAPPINGS_GET does not name callers (snapshots do).
		.caller_name = std::nullopt,
	};
}

inline Mapping sample_segment(std::uint32_t index, std::uint32_t count, std::uint64_t time_ns,
			      std::uint64_t dma_addr)
{
	Mapping segment = sample_mapping();
	segment.call = EDGEDMA_CALL_MAP_SG;
	segment.dma_addr = dma_addr;
	segment.size = 2048;
	segment.cpu_virt.reset();
	segment.time_ns = time_ns;
	segment.sg_index = index;
	segment.sg_count = count;
	return segment;
}

inline GenlMessage mapping_message(const Mapping &mapping,
				   std::optional<int> left_out = std::nullopt)
{
	GenlMessage message(EDGEDMA_CMD_MAPPINGS_GET);
	auto wanted = [&](int type) { return type != left_out; };
	auto u64 = [&](int type, std::uint64_t value) {
		if (wanted(type))
			message.put_u64_padded(type, value, EDGEDMA_A_MAPPING_PAD);
	};
	auto u32 = [&](int type, std::uint32_t value) {
		if (wanted(type))
			message.put_u32(type, value);
	};
	auto string = [&](int type, const std::string &value) {
		if (wanted(type))
			message.put_string(type, value);
	};
	string(EDGEDMA_A_MAPPING_DEVICE, mapping.device);
	string(EDGEDMA_A_MAPPING_DRIVER, mapping.driver);
	u32(EDGEDMA_A_MAPPING_CALL, mapping.call);
	u64(EDGEDMA_A_MAPPING_DMA_ADDR, mapping.dma_addr);
	u64(EDGEDMA_A_MAPPING_SIZE, mapping.size);
	u32(EDGEDMA_A_MAPPING_DIR, mapping.dir);
	u64(EDGEDMA_A_MAPPING_ATTRS, mapping.attrs);
	if (mapping.cpu_phys)
		u64(EDGEDMA_A_MAPPING_CPU_PHYS, *mapping.cpu_phys);
	if (mapping.cpu_virt)
		u64(EDGEDMA_A_MAPPING_CPU_VIRT, *mapping.cpu_virt);
	u64(EDGEDMA_A_MAPPING_CALLER, mapping.caller);
	u64(EDGEDMA_A_MAPPING_TIME_NS, mapping.time_ns);
	if (mapping.sg_index) {
		u32(EDGEDMA_A_MAPPING_SG_INDEX, *mapping.sg_index);
		u32(EDGEDMA_A_MAPPING_SG_COUNT, mapping.sg_count);
	}
	return message;
}

inline Device sample_device()
{
	return Device{
		.name = "0000:00:04.0",
		.driver = "edgedma_test_edu",
		.calls = 0x1'0000'0007,
		.mappings_live = 3,
		.findings = 2,
		.complete = true,
		.sync_kept = true,
	};
}

// One message of a DEVICES_GET dump; complete goes out as the u32 given
// (any value but 0 means yes), or as 0/1 from device.complete.
inline GenlMessage device_message(const Device &device, std::optional<int> left_out = std::nullopt,
				  std::optional<std::uint32_t> complete = std::nullopt)
{
	GenlMessage message(EDGEDMA_CMD_DEVICES_GET);
	auto wanted = [&](int type) { return type != left_out; };
	auto u64 = [&](int type, std::uint64_t value) {
		if (wanted(type))
			message.put_u64_padded(type, value, EDGEDMA_A_DEVICE_PAD);
	};
	auto string = [&](int type, const std::string &value) {
		if (wanted(type))
			message.put_string(type, value);
	};
	string(EDGEDMA_A_DEVICE_NAME, device.name);
	string(EDGEDMA_A_DEVICE_DRIVER, device.driver);
	u64(EDGEDMA_A_DEVICE_CALLS, device.calls);
	u64(EDGEDMA_A_DEVICE_MAPPINGS_LIVE, device.mappings_live);
	u64(EDGEDMA_A_DEVICE_FINDINGS, device.findings);
	if (wanted(EDGEDMA_A_DEVICE_COMPLETE))
		message.put_u32(EDGEDMA_A_DEVICE_COMPLETE, complete.value_or(device.complete ? 1 : 0));
	if (wanted(EDGEDMA_A_DEVICE_SYNC_KEPT))
		message.put_u32(EDGEDMA_A_DEVICE_SYNC_KEPT, device.sync_kept ? 1 : 0);
	return message;
}

// POLICY_GET of a device, as the module answers it.
inline Policy sample_device_policy()
{
	Policy policy;
	policy.target = {PolicyTarget::Kind::device, "0000:00:04.0"};
	policy.addr_align = 64;
	policy.len_align = 1;
	policy.coherency = EDGEDMA_COHERENCY_AUTO;
	policy.checks = (1u << EDGEDMA_FINDING_FREE_IRQS_OFF) - 1;
	policy.dev_coherent = 1;
	policy.dma_mask = 0xfffffff;
	policy.seg_boundary = 0xffffffff;
	policy.max_seg_size = 65536;
	policy.cache_line = 64;
	policy.snapshot_triggers = (1u << EDGEDMA_SNAPSHOT_TRIGGER_FINDING) - 1;
	policy.snapshot_findings = 0;
	policy.owned_hash_max = 16384;
	return policy;
}

inline GenlMessage policy_message(const Policy &policy, std::optional<int> left_out = std::nullopt)
{
	GenlMessage message(EDGEDMA_CMD_POLICY_GET);
	auto wanted = [&](int type) { return type != left_out; };
	auto u32 = [&](int type, const std::optional<std::uint32_t> &value) {
		if (value && wanted(type))
			message.put_u32(type, *value);
	};
	auto u64 = [&](int type, const std::optional<std::uint64_t> &value) {
		if (value && wanted(type))
			message.put_u64_padded(type, *value, EDGEDMA_A_POLICY_PAD);
	};
	int name_type = policy.target.kind == PolicyTarget::Kind::device
		? EDGEDMA_A_POLICY_DEVICE : EDGEDMA_A_POLICY_DRIVER;
	if (wanted(name_type))
		message.put_string(name_type, policy.target.name);
	u32(EDGEDMA_A_POLICY_ADDR_ALIGN, policy.addr_align);
	u32(EDGEDMA_A_POLICY_LEN_ALIGN, policy.len_align);
	u32(EDGEDMA_A_POLICY_COHERENCY, policy.coherency);
	u32(EDGEDMA_A_POLICY_CHECKS, policy.checks);
	u32(EDGEDMA_A_POLICY_DEV_COHERENT, policy.dev_coherent);
	u64(EDGEDMA_A_POLICY_DMA_MASK, policy.dma_mask);
	u64(EDGEDMA_A_POLICY_SEG_BOUNDARY, policy.seg_boundary);
	u32(EDGEDMA_A_POLICY_MAX_SEG_SIZE, policy.max_seg_size);
	u32(EDGEDMA_A_POLICY_CACHE_LINE, policy.cache_line);
	u32(EDGEDMA_A_POLICY_SNAPSHOT_TRIGGERS, policy.snapshot_triggers);
	u32(EDGEDMA_A_POLICY_SNAPSHOT_FINDINGS, policy.snapshot_findings);
	u32(EDGEDMA_A_POLICY_OWNED_HASH_MAX, policy.owned_hash_max);
	return message;
}

} // namespace edgedma::test
