#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/run-check fails a skip that tests/known-skips does not expect."""
import importlib.machinery
import importlib.util
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import ktap  # noqa: E402

_loader = importlib.machinery.SourceFileLoader("run_check", str(HERE / "run-check"))
_spec = importlib.util.spec_from_loader("run_check", _loader)
run_check = importlib.util.module_from_spec(_spec)
_loader.exec_module(run_check)


def judged(lane, text, rules):
    c = ktap.count(text, f"{lane}: ")
    run_check.judge_skips(lane, c, rules, f"{lane}: ")
    return c


class KnownSkips(unittest.TestCase):
    rules = [("x86_64-6.1", "*(hook tracepoint): this kernel has no tracepoint hook mode*"),
             ("arm64-*", "*: refuses mode x*")]

    def test_an_expected_skip_passes(self):
        c = judged("x86_64-6.1", "1..1\nok 1 # SKIP a (hook tracepoint): this kernel has "
                   "no tracepoint hook mode (0x2)\n", self.rules)
        self.assertEqual((c.failed, c.skipped), (0, 1))

    def test_the_same_skip_on_another_lane_fails(self):
        c = judged("x86_64-6.12", "1..1\nok 1 # SKIP a (hook tracepoint): this kernel has "
                   "no tracepoint hook mode (0x2)\n", self.rules)
        self.assertEqual(c.failed, 1)
        self.assertIn("does not expect", c.failures[0])

    def test_lane_globs_match(self):
        c = judged("arm64-6.12-rt", "1..1\nok 1 # SKIP m: refuses mode x here\n", self.rules)
        self.assertEqual(c.failed, 0)

    def test_an_unknown_reason_fails(self):
        c = judged("arm64-6.12", "1..2\nok 1 # SKIP m: refuses mode x\n"
                   "ok 2 y # SKIP setup failed\n", self.rules)
        self.assertEqual(c.failures, ["arm64-6.12: a skip tests/known-skips does not "
                                      "expect: y # setup failed"])

    def test_the_file_parses_and_several_lanes_share_a_line(self):
        with tempfile.NamedTemporaryFile("w", suffix=".skips") as f:
            f.write("# comment\n\na b-*: pattern one\n")
            f.flush()
            rules = run_check.known_skips(Path(f.name))
        self.assertEqual(rules, [("a", "pattern one"), ("b-*", "pattern one")])
        self.assertTrue(run_check.known_skips())  # the project's own file parses

    def test_a_line_without_a_pattern_is_refused(self):
        with tempfile.NamedTemporaryFile("w", suffix=".skips") as f:
            f.write("lane-only\n")
            f.flush()
            with self.assertRaises(SystemExit):
                run_check.known_skips(Path(f.name))


class FailureExcerpt(unittest.TestCase):
    """What a failed guest kselftest logged, for the tail of the log."""

    def test_assertion_lines_and_the_harness_verdicts(self):
        out = ("  #  RUN           snapshot.slow ...\n"
               "  # slow: Test terminated by timeout\n"
               "  #          FAIL  snapshot.slow\n"
               "  not ok 3 snapshot.slow\n"
               "  #  RUN           snapshot.fine ...\n"
               "  # /x/edgedma_snapshot_test.c:9:fine:a log line of a test that passed\n"
               "  ok 4 snapshot.fine\n"
               "  #  RUN           snapshot.bad ...\n"
               "  # /x/edgedma_snapshot_test.c:12:bad:Expected 1 (1) == 2 (2)\n"
               "  # bad: Test terminated by assertion\n"
               "  not ok 5 snapshot.bad\n")
        self.assertEqual(run_check.failure_excerpt(out), [
            "snapshot.slow: Test terminated by timeout",
            "snapshot.bad: Expected 1 (1) == 2 (2)",
            "snapshot.bad: Test terminated by assertion"])

    def test_a_failed_scenario_names_its_fail_line_or_its_last_lines(self):
        out = ("KTAP version 1\n1..3\n"
               "  # x86_64-6.1 a: edgedma-vm ...: exit 0, 9 s\n"
               "  # FAIL: only a passed run's FAIL-looking line\n"
               "ok 1 x86_64-6.1 a\n"
               "  # arm64-6.1+ops b: edgedma-vm ...: exit 1, 60 s\n"
               "  # megaraid_sas: /dev/sda\n"
               "  # FAIL: loaded: 1 finding(s) do not blame their driver\n"
               "not ok 2 arm64-6.1+ops b # the scenario exited 1\n"
               "  # arm64-6.12 c: edgedma-vm ...: exit 124, 300 s\n"
               "  # dd: reading /dev/sda\n"
               "  # edgedma-vm: the guest timed out\n"
               "not ok 3 arm64-6.12 c # timeout\n")
        self.assertEqual(run_check.scenario_excerpt(out, limit=2), [
            "arm64-6.1+ops b # the scenario exited 1: FAIL: loaded: 1 finding(s) do not "
            "blame their driver",
            "arm64-6.12 c # timeout: dd: reading /dev/sda",
            "arm64-6.12 c # timeout: edgedma-vm: the guest timed out"])


if __name__ == "__main__":
    unittest.main()
