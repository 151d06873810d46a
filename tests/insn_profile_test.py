#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/insn-profile's host half: reading the guest's symbols and the
plugin's block counts, attributing blocks to functions, the per-pair
difference of two runs; and that the QEMU plugin builds and exports what
QEMU's loader looks for."""
import importlib.machinery
import importlib.util
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def load_script(name, path):
    """A Python script without a .py suffix, as a module."""
    loader = importlib.machinery.SourceFileLoader(name, str(REPO / path))
    spec = importlib.util.spec_from_loader(name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


tool = load_script("insn_profile", "bench/insn-profile")

KALLSYMS = """\
ffffffff81000000 T _text
ffffffff81000100 t ktime_get
ffffffff81000200 D some_data
ffffffff81000300 T dma_map_page_attrs
0000000000000000 t hidden_symbol
ffffffffc0001000 t edgedma_track_call\t[edgedma]
ffffffffc0001080 t edgedma_judge_call\t[edgedma]
""".splitlines()


class Symbols(unittest.TestCase):
    def test_text_symbols_sorted_with_their_module(self):
        symbols = tool.parse_symbols(KALLSYMS)
        names = [n for _, n in symbols]
        self.assertEqual(names, ["_text", "ktime_get", "dma_map_page_attrs",
                                 "edgedma_track_call [edgedma]",
                                 "edgedma_judge_call [edgedma]"])
        self.assertEqual([a for a, _ in symbols], sorted(a for a, _ in symbols))

    def test_data_and_hidden_addresses_left_out(self):
        names = [n for _, n in tool.parse_symbols(KALLSYMS)]
        self.assertNotIn("some_data", names)
        self.assertNotIn("hidden_symbol", names)


class ProgramSymbols(unittest.TestCase):
    def test_demangled_names_kept_whole(self):
        symbols = tool.parse_program_symbols([
            "0000000000401000 T main",
            "0000000000402000 t edgedma::detail::decode_map_event_into(edgedma::AttributeStream, std::basic_string_view<char>)",
            "0000000000500000 B some_bss",
            "                 U undefined_one",
        ], "consumer")
        self.assertEqual(symbols, [
            (0x401000, "main [consumer]"),
            (0x402000, "edgedma::detail::decode_map_event_into(edgedma::AttributeStream, "
                       "std::basic_string_view<char>) [consumer]")])


class Blocks(unittest.TestCase):
    def test_lines_read(self):
        self.assertEqual(tool.parse_blocks(["ffffffff81000100 5 10", "", "ffffffffc0001004 3 2"]),
                         [(0xffffffff81000100, 5, 10), (0xffffffffc0001004, 3, 2)])

    def test_an_incomplete_count_is_refused(self):
        with self.assertRaises(tool.ProfileError):
            tool.parse_blocks(["# incomplete: more than 2097152 kernel blocks",
                               "ffffffff81000100 5 10"])

    def test_blocks_go_to_the_function_they_start_in(self):
        symbols = tool.parse_symbols(KALLSYMS)
        totals = tool.by_function(symbols, [
            (0xffffffff81000100, 5, 10),   # ktime_get's start
            (0xffffffff81000180, 2, 10),   # inside ktime_get
            (0xffffffffc0001090, 7, 3),    # inside edgedma_judge_call
            (0xffffffffc0001000, 1, 4),    # edgedma_track_call's start
        ])
        self.assertEqual(totals["ktime_get"], [70, 20])
        self.assertEqual(totals["edgedma_judge_call [edgedma]"], [21, 3])
        self.assertEqual(totals["edgedma_track_call [edgedma]"], [4, 4])

    def test_a_block_below_every_symbol_is_unknown(self):
        totals = tool.by_function(tool.parse_symbols(KALLSYMS), [(0xffff000000000000, 3, 1)])
        self.assertEqual(totals["?"], [3, 1])


class ModuleBlocks(unittest.TestCase):
    def test_keyed_by_function_and_offset(self):
        symbols = tool.parse_symbols(KALLSYMS)
        blocks = tool.module_blocks(symbols, [
            (0xffffffffc0001090, 7, 3),    # edgedma_judge_call + 0x10
            (0xffffffffc0001090, 7, 2),    # the same block counted twice
            (0xffffffffc0001000, 1, 4),    # edgedma_track_call + 0
            (0xffffffff81000100, 5, 10),   # the kernel's: left out
        ])
        self.assertEqual(blocks, {("edgedma_judge_call", 0x10, 7): 5,
                                  ("edgedma_track_call", 0, 1): 4})


class PerPair(unittest.TestCase):
    def test_difference_divided_by_pairs(self):
        base = {"a": [1000, 100], "boot_only": [50, 5]}
        more = {"a": [3000, 300], "boot_only": [50, 5], "new": [400, 40]}
        costs = tool.per_pair(base, more, 200)
        self.assertEqual(costs["a"], (10.0, 1.0))
        self.assertEqual(costs["boot_only"], (0.0, 0.0))
        self.assertEqual(costs["new"], (2.0, 0.2))

    def test_summary_separates_edgedma(self):
        costs = {"ktime_get": (40.0, 8.0), "edgedma_track [edgedma]": (100.0, 20.0),
                 "bench_thread_fn [edgedma_bench_edu]": (30.0, 7.0)}
        costs["decode [consumer]"] = (50.0, 5.0)
        self.assertEqual(tool.summary(costs), {"insns": 220.0, "blocks": 40.0,
                                               "edgedma_insns": 100.0,
                                               "edgedma_blocks": 20.0,
                                               "consumer_insns": 50.0,
                                               "consumer_blocks": 5.0})

    def test_render_shows_both_columns_and_their_difference(self):
        first = {"edgedma_track [edgedma]": (100.0, 20.0), "tiny": (1.0, 1.0)}
        second = {"edgedma_track [edgedma]": (60.0, 10.0), "tiny": (1.0, 1.0)}
        text = tool.render([("old.ko", first), ("new.ko", second)], limit=3)
        self.assertIn("old.ko", text)
        self.assertIn("new.ko", text)
        self.assertIn("-40.0", text)
        self.assertNotIn("tiny", text)


class Binutils(unittest.TestCase):
    """An arm64 module's lines are read with the arm64 binutils where the
    machine has them (the host's read its symbols, not its line table)."""

    def elf(self, directory, machine):
        path = Path(directory) / f"m{machine}.ko"
        header = bytearray(64)
        header[:6] = b"\x7fELF\x02\x01"
        header[18:20] = machine.to_bytes(2, "little")
        path.write_bytes(bytes(header))
        return path

    def test_tool_by_machine(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.assertEqual(tool.binutil(self.elf(tmp, 62), "addr2line"), "addr2line")
            arm64 = tool.binutil(self.elf(tmp, 183), "addr2line")
            expected = ("aarch64-linux-gnu-addr2line"
                        if shutil.which("aarch64-linux-gnu-addr2line") else "addr2line")
            self.assertEqual(arm64, expected)

    def test_not_elf_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "x.ko"
            path.write_bytes(b"not an elf file at all")
            with self.assertRaises(tool.ProfileError):
                tool.binutil(path, "objdump")


class BenchmarksPage(unittest.TestCase):
    """make bench's "Instructions per pair" section (bench/write-report)."""

    def run_of(self, hook, variant, insns, own, functions):
        return {"arch": "x86_64", "kernel": "6.12", "path": "direct", "hook": hook,
                "variant": variant, "pairs": 400000, "base_pairs": 20000,
                "summary": {"insns": insns, "blocks": insns / 4, "edgedma_insns": own,
                            "edgedma_blocks": own / 4, "consumer_insns": 0,
                            "consumer_blocks": 0},
                "functions": functions}

    def test_added_over_not_loaded_and_the_costliest_functions(self):
        report = load_script("write_report", "bench/write-report")
        runs = [self.run_of("tracepoint", "full", 1700.0, 1300.0,
                            {"edgedma_judge_call [edgedma]": {"insns": 200.0, "blocks": 45.0},
                             "tiny [edgedma]": {"insns": 4.0, "blocks": 1.0}}),
                self.run_of(None, "none", 180.0, 0.0, {})]
        text = report.insns_section({"insns": runs})
        self.assertIn("x86_64 6.12, direct", text)
        self.assertRegex(text, r"edgedma, tracepoint mode \| 1700 +\| 425 +\| 1520 +\| 1300")
        self.assertIn("``edgedma_judge_call [edgedma]``", text)
        self.assertNotIn("tiny", text)
        self.assertNotIn("behind the IOMMU", text)

    def test_no_counts_no_section(self):
        self.assertEqual(load_script("write_report", "bench/write-report").insns_section({"insns": None}), "")


@unittest.skipIf(shutil.which("gcc") is None, "no gcc")
class Plugin(unittest.TestCase):
    def test_builds_and_exports_the_loader_symbols(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "tb_count.so"
            subprocess.run(["gcc", "-O2", "-Wall", "-Werror", "-shared", "-fPIC",
                            "-o", str(out), str(tool.PLUGIN_SOURCE), "-lpthread"],
                           check=True)
            symbols = subprocess.run(["nm", "-D", "--defined-only", str(out)],
                                     capture_output=True, text=True, check=True).stdout
            self.assertRegex(symbols, r"\bqemu_plugin_install\b")
            self.assertRegex(symbols, r"\bqemu_plugin_version\b")


if __name__ == "__main__":
    unittest.main()
