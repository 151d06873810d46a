#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""edgedma-vm's verdict on a finished guest: the rules that make the bed fail closed."""
import importlib.machinery
import importlib.util
import tempfile
import unittest
from pathlib import Path

TOOL = Path(__file__).resolve().parent.parent / "tools" / "edgedma-vm"
_loader = importlib.machinery.SourceFileLoader("edgedma_vm", str(TOOL))
_spec = importlib.util.spec_from_loader("edgedma_vm", _loader)
vm = importlib.util.module_from_spec(_spec)
_loader.exec_module(vm)


class Guest(unittest.TestCase):
    """A finished guest's run folder, for the verdicts below."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.run = Path(self.tmp.name)
        self.out = self.run / "out"
        self.out.mkdir()
        self.serial = self.run / "serial.log"
        self.serial.write_text("edgedma-vm-guest: running the command\n")

    def tearDown(self):
        self.tmp.cleanup()

    def judge(self, result=None, elapsed=20.0, timed_out=False, boots=1):
        if result is not None:
            (self.out / "result").write_text(result + "\n")
        return vm.judge(self.run, self.serial, self.out, 0, timed_out, 25, elapsed,
                        boots=boots)


class Judge(Guest):
    def test_a_clean_run_passes_the_commands_status_through(self):
        self.assertEqual(self.judge("EDGEDMA_VM_RESULT rc=7 unload=ok ran=1.50 clock=tsc boot=1"),
                         (7, None))

    def test_a_guest_clock_that_ran_fast_fails_the_run(self):
        # `sleep 3600` ending after 20 s of real time: the guest's clock
        # raced ahead, and the hang must not pass.
        status, reason = self.judge(
            "EDGEDMA_VM_RESULT rc=0 unload=ok ran=3600.02 clock=tsc boot=1", elapsed=20.0)
        self.assertEqual(status, vm.EXIT_CLOCK_FAST)
        self.assertIn("3600.02 s by the guest's clock (tsc)", reason)
        self.assertIn("20.00 s on the host", reason)

    def test_a_guest_clock_a_little_ahead_is_tolerated(self):
        status, _ = self.judge("EDGEDMA_VM_RESULT rc=0 unload=ok ran=21.00 clock=hpet boot=1",
                               elapsed=20.0)
        self.assertEqual(status, 0)

    def test_a_result_without_the_guests_duration_is_no_result(self):
        status, _ = self.judge("EDGEDMA_VM_RESULT rc=0 unload=ok")
        self.assertEqual(status, vm.EXIT_NO_RESULT)

    def test_no_result_fails(self):
        status, reason = self.judge(None)
        self.assertEqual(status, vm.EXIT_NO_RESULT)
        self.assertIn("no result from the guest", reason)

    def test_a_timeout_fails_even_with_a_result(self):
        status, _ = self.judge("EDGEDMA_VM_RESULT rc=0 unload=ok ran=1.00 clock=tsc boot=1",
                               timed_out=True)
        self.assertEqual(status, vm.EXIT_TIMEOUT)

    def test_a_kernel_warning_fails_a_successful_command(self):
        self.serial.write_text("WARNING: CPU: 0 PID: 1 at mm/slub.c:1 x\n")
        status, _ = self.judge("EDGEDMA_VM_RESULT rc=0 unload=ok ran=1.00 clock=tsc boot=1")
        self.assertEqual(status, vm.EXIT_KERNEL_PROBLEM)

    def test_a_failed_unload_fails(self):
        status, _ = self.judge(
            "EDGEDMA_VM_RESULT rc=0 unload=failed:edgedma ran=1.00 clock=tsc boot=1")
        self.assertEqual(status, vm.EXIT_UNLOAD_FAILED)



CRASHED_FIRST_BOOT = """Linux version 6.12.0 (first boot)
edgedma-vm-guest: running the command
[   3.1] edgedma-vm-guest: crashing on purpose
[   3.2] sysrq: Trigger a crash
[   3.2] Oops: general protection fault 0000 [#1] SMP
[   3.3] Kernel panic - not syncing: Fatal exception
Linux version 6.12.0 (second boot)
edgedma-vm-guest: running the after-reboot command (boot 2)
"""


class CrashCycle(Guest):
    def test_the_asked_for_crash_does_not_count(self):
        self.serial.write_text(CRASHED_FIRST_BOOT)
        self.assertEqual(self.judge("EDGEDMA_VM_RESULT rc=0 unload=ok ran=1.00 clock=tsc "
                                    "boot=2", boots=2), (0, None))

    def test_outside_a_crash_cycle_the_same_log_fails(self):
        self.serial.write_text(CRASHED_FIRST_BOOT)
        status, _ = self.judge("EDGEDMA_VM_RESULT rc=0 unload=ok ran=1.00 clock=tsc boot=1")
        self.assertEqual(status, vm.EXIT_KERNEL_PROBLEM)

    def test_a_warning_before_the_mark_fails(self):
        self.serial.write_text(CRASHED_FIRST_BOOT.replace(
            "edgedma-vm-guest: running the command\n",
            "edgedma-vm-guest: running the command\nWARNING: CPU: 0 PID: 9 at x.c:1 f\n"))
        status, reason = self.judge("EDGEDMA_VM_RESULT rc=0 unload=ok ran=1.00 clock=tsc "
                                    "boot=2", boots=2)
        self.assertEqual(status, vm.EXIT_KERNEL_PROBLEM)
        self.assertIn("WARNING: CPU: 0 PID: 9", reason)
        self.assertNotIn("Kernel panic", reason)

    def test_a_problem_on_the_second_boot_fails(self):
        self.serial.write_text(CRASHED_FIRST_BOOT + "BUG: unable to handle page fault\n")
        status, reason = self.judge("EDGEDMA_VM_RESULT rc=0 unload=ok ran=1.00 clock=tsc "
                                    "boot=2", boots=2)
        self.assertEqual(status, vm.EXIT_KERNEL_PROBLEM)
        self.assertIn("BUG: unable to handle", reason)

    def test_the_mark_on_the_second_boot_excuses_nothing(self):
        self.serial.write_text(CRASHED_FIRST_BOOT +
                               "edgedma-vm-guest: crashing on purpose\nKernel panic - x\n")
        status, _ = self.judge("EDGEDMA_VM_RESULT rc=0 unload=ok ran=1.00 clock=tsc "
                               "boot=2", boots=2)
        self.assertEqual(status, vm.EXIT_KERNEL_PROBLEM)

    def test_a_result_of_the_first_boot_is_no_result(self):
        status, reason = self.judge("EDGEDMA_VM_RESULT rc=0 unload=ok ran=1.00 clock=tsc "
                                    "boot=1", boots=2)
        self.assertEqual(status, vm.EXIT_NO_RESULT)
        self.assertIn("boot 1, not boot 2", reason)


ARM64_REGISTERS = """
CPU#0
 PC=ffff800080f2fb18 X00=00000000002c4d34 X01=fff000003fbc5610
PSTATE=414000c5 -Z-- EL1h

CPU#1
 PC=ffff80007acb159c X00=0000000000000000 X01=0000000000000001
"""

X86_REGISTERS = """
CPU#0
RAX=0e58cc0af72965f3 RBX=ff350e69023c60b0
RIP=ffffffffb0cc88cd RFL=00000257 [---ZAPC] CPL=0 II=0 A20=1 SMM=0 HLT=1
CPU#1
RIP=ffffffffb0c29964 RFL=00000257 [---ZAPC] CPL=0 II=0 A20=1 SMM=0 HLT=0
"""


class Hang(Guest):
    """A guest that hits the timeout: where its vCPUs were is in the reason."""

    def test_each_vcpus_pc_is_read_on_both_architectures(self):
        self.assertEqual(vm.vcpu_pcs(ARM64_REGISTERS),
                         {0: "ffff800080f2fb18", 1: "ffff80007acb159c"})
        self.assertEqual(vm.vcpu_pcs(X86_REGISTERS),
                         {0: "ffffffffb0cc88cd", 1: "ffffffffb0c29964"})

    def test_the_timeout_reason_says_where_the_vcpus_were(self):
        (self.run / "vcpus.txt").write_text(
            "CPU#0 pc 1 1 1 (did not move in 1.0 s)\nCPU#1 pc 2 3 4 (moved in 1.0 s)\n\n"
            + ARM64_REGISTERS)
        status, reason = self.judge(None, timed_out=True)
        self.assertEqual(status, vm.EXIT_TIMEOUT)
        self.assertIn("CPU#0 pc 1 1 1 (did not move", reason)
        self.assertIn("CPU#1 pc 2 3 4 (moved", reason)
        self.assertNotIn("X00=", reason)

    def test_a_timeout_without_a_monitor_answer_still_fails(self):
        status, reason = self.judge(None, timed_out=True)
        self.assertEqual(status, vm.EXIT_TIMEOUT)
        self.assertNotIn("vCPUs", reason)

    def test_guests_report_a_task_stuck_in_d_state_before_the_timeout(self):
        self.serial.write_text("INFO: task dd:297 blocked for more than 45 seconds.\n")
        status, _ = self.judge(None)
        self.assertEqual(status, vm.EXIT_KERNEL_PROBLEM)
        self.assertLess(vm.HUNG_TASK_S, 120)


if __name__ == "__main__":
    unittest.main()
