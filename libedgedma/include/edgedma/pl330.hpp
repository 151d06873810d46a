// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// ARM PL330 (CoreLink DMA-330) channel programs, as snapshots capture them
// (chain kind pl330-program): the module reads the channel's microcode
// buffer around its CPC register; this decodes the instructions, so that
// the addresses the program loads into the channel's source and
// destination registers (DMAMOV SAR/DAR) can be checked against the
// device's mappings. Encodings as drivers/dma/pl330.c emits them and the
// DMA-330 TRM defines them.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <edgedma/export.hpp>
#include <edgedma/snapshot.hpp>

namespace edgedma {

// What a DMAMOV loads.
enum class Pl330Register { sar, ccr, dar };

struct Pl330Instruction {
	std::uint64_t addr = 0;   // where the channel reads it
	std::uint8_t size = 0;    // 1, 2, 3 or 6 bytes
	std::string text;         // "DMAMOV SAR, 0x0ffff000", "DMALP lc0, 16"
	// DMAMOV only: the register and the 32-bit immediate it loads.
	std::optional<Pl330Register> moves;
	std::uint32_t immediate = 0;

	bool operator==(const Pl330Instruction &) const = default;
};

struct Pl330Program {
	std::uint64_t start = 0;         // the first byte read (the buffer's start)
	std::optional<std::uint64_t> pc; // the CPC the snapshot read
	std::vector<Pl330Instruction> instructions;
	// Why decoding stopped: "DMAEND", "unknown opcode 0xNN at 0xADDR",
	// "the bytes read end inside an instruction at 0xADDR", "the bytes
	// read end" (no DMAEND in them).
	std::string ended;
	// The CPC lies on an instruction's first byte.
	bool pc_on_instruction = false;
};

// Decode @bytes as a PL330 program whose first byte is at @start, up to
// its DMAEND (or an opcode it cannot be, or the end of the bytes).
EDGEDMA_API Pl330Program decode_pl330(std::span<const std::byte> bytes, std::uint64_t start,
				      std::optional<std::uint64_t> pc = std::nullopt);

// The program of a pl330-program chain: its blocks, consecutive and read,
// from the first; nothing when the chain is of another kind or the first
// block was not read.
EDGEDMA_API std::optional<Pl330Program> pl330_program(const DescriptorChain &chain);

EDGEDMA_API std::string pl330_register_label(Pl330Register reg);

} // namespace edgedma
