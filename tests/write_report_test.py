#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/write-report's host replay section: the figures of
edgedma-replay-bench's JSON, the targets read from them, and a benchmark
that failed shown as failed with its target missed, not left out."""
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


if __name__ == "__main__":
    unittest.main()
