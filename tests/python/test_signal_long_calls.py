# SPDX-License-Identifier: Apache-2.0
"""Ctrl-C stops a long native call on a huge input (issue 38, item 4): the runtime's long walks
(printing, recursive equality and hashing, deep copy, building a Map or Dict from pairs) poll
TVMFFIEnvCheckSignals every 64Ki steps. tests/cpp/test_signal_polls.cc checks each walk's
polls; here a real SIGINT interrupts a real call."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

# The child puts back Python's SIGINT handler (it may start with SIGINT ignored, see
# test_signal.py), builds an Array that prints as 50 million numbers while holding only 51,000
# (one inner Array shared 50,000 times: printing takes seconds, about 5 on a 2024 x86 core, and
# the input no memory), says it is ready, and prints the monotonic time at which the
# KeyboardInterrupt reached it. Without polls the call ends first, and Python raises the
# KeyboardInterrupt only then.
CHILD = r"""
import signal
import time

signal.signal(signal.SIGINT, signal.default_int_handler)

import tvm_ffi

print_value = tvm_ffi.get_global_func("ffi.ReprPrint")
inner = tvm_ffi.Array(range(1000))
outer = tvm_ffi.Array([inner] * 50_000)
open("ready", "w").close()
try:
    print_value(outer)
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", time.monotonic(), flush=True)
"""


def test_sigint_stops_printing_a_huge_value_promptly(tmp_path: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    with child:
        deadline = time.monotonic() + 60
        while not (tmp_path / "ready").exists():
            assert child.poll() is None and time.monotonic() < deadline, "the child never ran"
            time.sleep(0.01)
        time.sleep(0.3)  # well inside the call, which takes seconds
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        try:
            stdout, stderr = child.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            child.kill()
            raise
    assert child.returncode == 0, stderr
    outcome, *when = stdout.split()
    assert outcome == "interrupted"
    # CLOCK_MONOTONIC is one clock for every process: the time the signal took to stop the call.
    # A poll comes every 64Ki values (milliseconds); the whole call takes seconds.
    assert float(when[0]) - sent < 0.5
