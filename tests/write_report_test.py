#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/write-report: the host replay section (the figures of
edgedma-replay-bench's JSON, the targets read from them, a benchmark that
failed shown as failed with its target missed, not left out), the
targets' reading of the instruction counts, and what the emulator charges
for the operations every pair needs."""
import importlib.machinery
import importlib.util
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def load_write_report():
    loader = importlib.machinery.SourceFileLoader("write_report",
                                                  str(REPO / "bench/write-report"))
    spec = importlib.util.spec_from_loader("write_report", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


report = load_write_report()


def median(name, **fields):
    return {"name": f"{name}_median", "run_type": "aggregate", "aggregate_name": "median",
            "time_unit": "ms", **fields}


class ReplaySection(unittest.TestCase):
    def section(self, benchmarks):
        verdicts = report.Verdicts()
        text = report.replay_section({"replay": {"benchmarks": benchmarks, "context": {}}},
                                     verdicts)
        return text, {row[0]: row for row in verdicts.rows}

    def test_explain_target_read_per_snapshot(self):
        # 10002 snapshots (a multiple of six fixtures) in 2.1 s: 210 us each.
        text, targets = self.section([
            median("BM_Explain", real_time=2100.4, items_per_second=4762.0,
                   time_per_snapshot=210e-6)])
        row = targets["explain 10^4 snapshots < 5 s"]
        self.assertEqual(row[2], "2.10 s (210.0 us per snapshot)")
        self.assertEqual(row[3], "met")
        self.assertIn("BM_Explain_median", text)

    def test_slow_explain_missed(self):
        _, targets = self.section([
            median("BM_Explain", real_time=6000.0, items_per_second=1667.0,
                   time_per_snapshot=600e-6)])
        self.assertEqual(targets["explain 10^4 snapshots < 5 s"][3], "missed")

    def test_replay_rate_against_ten_million(self):
        _, targets = self.section([median("BM_Replay", real_time=95.0, items_per_second=10.5e6),
                                   median("BM_Read", real_time=80.0, items_per_second=12e6)])
        row = targets["replay >= 10 M records/s/core"]
        self.assertEqual((row[2], row[3]), ("10.50 M/s", "met"))
        _, targets = self.section([median("BM_Replay", real_time=150.0, items_per_second=6.5e6)])
        self.assertEqual(targets["replay >= 10 M records/s/core"][3], "missed")

    def test_failed_benchmark_shown_and_its_target_missed(self):
        text, targets = self.section([
            {"name": "BM_Explain", "run_type": "iteration", "error_occurred": True,
             "error_message": "no snapshot fixtures"},
            median("BM_Replay", real_time=100.0, items_per_second=10e6)])
        self.assertIn("failed: no snapshot fixtures", text)
        row = targets["explain 10^4 snapshots < 5 s"]
        self.assertEqual((row[2], row[3]), ("failed: no snapshot fixtures", "missed"))
        self.assertEqual(targets["replay >= 10 M records/s/core"][3], "met")

    def test_other_aggregates_ignored(self):
        text, targets = self.section([
            {"name": "BM_Replay_mean", "run_type": "aggregate", "aggregate_name": "mean",
             "items_per_second": 1.0}])
        self.assertNotIn("BM_Replay_mean", text)
        self.assertEqual(targets, {})


class OwnInstructionsReading(unittest.TestCase):
    """The targets' reading quotes this run's instruction counts and its ns
    per instruction, not figures written by hand."""

    def insn_run(self, hook, variant, insns, own):
        return {"path": "direct", "hook": hook, "variant": variant,
                "summary": {"insns": insns, "edgedma_insns": own}}

    def boot(self, tracepoint_ns, none_ns):
        runs = [{"config": config, "threads": 1, "pages": 1, "repeat": 0, "mean_ns": ns}
                for config, ns in (("tracepoint", tracepoint_ns), ("none", none_ns))]
        return {"boot": {"arch": "x86_64", "kernel": "6.12", "path": "direct"}, "map": runs}

    def test_counts_and_ns_per_instruction_from_the_run(self):
        results = {"insns": [self.insn_run("tracepoint", "full", 1400.0, 950.0),
                             self.insn_run("kprobe", "full", 1900.0, 840.0),
                             self.insn_run(None, "none", 200.0, 0.0)],
                   "boots": [self.boot(2200.0, 200.0)]}
        text = report.own_insns_reading(results)
        self.assertIn(": 950 guest instructions of edgedma's own per pair", text)
        self.assertIn("(840 in kprobe mode)", text)
        # 2000 ns over 1200 instructions: 1.67 ns each, 1 us is 600.
        self.assertIn("added 2000 ns for 1200 instructions, 1.67 ns each", text)
        self.assertIn("1 us is about 600 of them", text)

    def test_nothing_counted_nothing_said(self):
        self.assertEqual(report.own_insns_reading({"insns": None, "boots": []}), "")


class PrimitiveCosts(unittest.TestCase):
    """The primitives' table and reading: medians of the guest's lines in
    ns, the pair's share from PAIR_PRIMITIVES' counts, a boot without them
    left out."""

    def boot(self, arch, primitives, tracepoint_ns=2000, none_ns=100):
        runs = [{"config": config, "threads": 1, "pages": 1, "repeat": 0, "mean_ns": ns}
                for config, ns in (("tracepoint", tracepoint_ns), ("none", none_ns))]
        return {"boot": {"name": f"{arch}-6.12 direct", "arch": arch, "kernel": "6.12",
                         "path": "direct", "tag": ""},
                "map": runs, "primitives": primitives}

    @staticmethod
    def line(repeat, call, irq, clock, lock):
        return {"repeat": repeat, "iterations": 100000, "loop_ps": 1000,
                "call_ps": call, "irq_save_restore_ps": irq, "clock_ps": clock,
                "spin_lock_unlock_ps": lock}

    def test_medians_and_the_pairs_share(self):
        boot = self.boot("x86_64", [self.line(1, 9000, 30000, 60000, 30000),
                                    self.line(2, 7000, 20000, 80000, 40000),
                                    self.line(3, 8000, 40000, 70000, 35000)])
        self.assertEqual(report.primitive_ns(boot, "clock"), 70.0)
        self.assertEqual(report.primitive_ns(boot, "call"), 8.0)
        # 2 x 30 (interrupts) + 2 x 70 (clock) + 2 x 35 (locks)
        self.assertEqual(report.pair_primitives_ns(boot), 270.0)
        text = report.primitives_section({"boots": [boot, self.boot("arm64", [])]})
        self.assertIn("x86_64 6.12, direct", text)
        self.assertIn("270 ns", text)
        self.assertNotIn("arm64", text)

    def test_reading_sets_them_against_tracepoint_mode(self):
        boot = self.boot("x86_64", [self.line(1, 9000, 30000, 60000, 30000)],
                         tracepoint_ns=1600, none_ns=100)
        text = report.primitives_reading({"boots": [boot]})
        # 2 x 30 + 2 x 60 + 2 x 30
        self.assertIn("on x86_64 6.12, direct, 240 ns of tracepoint mode's 1500 ns "
                      "(a clock read alone 60 ns)", text)
        self.assertIn("(2 interrupts off and on, 2 clock reads, 2 lock round trips)", text)

    def test_tsc_line_only_where_every_x86_guest_booted_so(self):
        def boot(arch, cmdline):
            return {"boot": {"arch": arch, "cmdline": cmdline}}
        said = report.tsc_reliable_method(
            {"boots": [boot("x86_64", "console=ttyS0,tsc=reliable"), boot("arm64", "")]})
        self.assertEqual(1, len(said))
        self.assertIn("tsc=reliable", said[0])
        self.assertEqual([], report.tsc_reliable_method(
            {"boots": [boot("x86_64", "console=ttyS0,tsc=reliable"),
                       boot("x86_64", "console=ttyS0,dma_debug=off")]}))

    def test_nothing_measured_nothing_said(self):
        boot = self.boot("x86_64", [])
        self.assertEqual(report.primitives_section({"boots": [boot]}), "")
        self.assertEqual(report.primitives_reading({"boots": [boot]}), "")


if __name__ == "__main__":
    unittest.main()
