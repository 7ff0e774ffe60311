# SPDX-License-Identifier: Apache-2.0
"""Python signals interrupt native code that polls TVMFFIEnvCheckSignals."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

# A child starts with the SIGINT disposition of the process that starts it, and Python installs
# its handler only over the default one: the child puts it back, as the sanitized runs have been
# seen to start it with SIGINT ignored.
RESTORE_SIGINT = """
import signal
signal.signal(signal.SIGINT, signal.default_int_handler)
"""

CHILD = """
import sys
import tvm_ffi
sleeper = tvm_ffi.get_global_func("testing.run_check_signal")
sleeper.release_gil = {release_gil}
open("ready", "w").close()
sleeper(10)
print("finished without interruption", flush=True)
"""

CALLBACK_CHILD = """
import time
import tvm_ffi
apply = tvm_ffi.get_global_func("testing.apply")
apply.release_gil = {release_gil}

def python_side_of_the_call():
    open("ready", "w").close()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        pass

try:
    apply(python_side_of_the_call)
except KeyboardInterrupt:
    print("caught KeyboardInterrupt", flush=True)
    raise
print("finished without interruption", flush=True)
"""


# A long native call on a huge input polls too (the runtime's long walks: printing, recursive
# equality and hashing, deep copy, building a Map or Dict; tests/cpp/test_signal_polls.cc counts
# each walk's polls). The child builds an Array that prints as 50 million numbers while holding
# only 51,000 (one inner Array shared 50,000 times: printing takes seconds, the input no memory)
# and prints the monotonic time at which the KeyboardInterrupt reached it. Without polls the
# call ends first, and Python raises the KeyboardInterrupt only then.
HUGE_PRINT_CHILD = r"""
import time
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


def wait_for_file(path: Path, child: subprocess.Popen, timeout: float) -> bool:
    """Wait until ``path`` exists; False if the child exits or the timeout passes first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and child.poll() is None:
        if path.exists():
            return True
        time.sleep(0.01)
    if child.poll() is None:
        child.kill()
    return False


def interrupt_child(tmp_path: Path, source: str) -> tuple[str, str, int, float]:
    """Run ``source``, send SIGINT once it has created ``ready``; (stdout, stderr, rc, seconds)."""
    child = subprocess.Popen(
        [sys.executable, "-c", RESTORE_SIGINT + source],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    with child:
        assert wait_for_file(tmp_path / "ready", child, timeout=60.0)
        time.sleep(1.0)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        stdout, stderr = child.communicate(timeout=30)
        elapsed = time.monotonic() - sent
    return stdout, stderr, child.returncode, elapsed


@pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX signals")
@pytest.mark.parametrize("release_gil", [True, False])
def test_sigint_interrupts_native_sleep(tmp_path: Path, release_gil: bool) -> None:
    stdout, stderr, returncode, elapsed = interrupt_child(
        tmp_path, CHILD.format(release_gil=release_gil)
    )
    assert elapsed < 5.0
    assert "finished without interruption" not in stdout
    assert "KeyboardInterrupt" in stderr
    assert returncode != 0


@pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX signals")
@pytest.mark.parametrize("release_gil", [True, False])
def test_sigint_in_python_callback_raises_keyboard_interrupt(
    tmp_path: Path, release_gil: bool
) -> None:
    stdout, stderr, returncode, elapsed = interrupt_child(
        tmp_path, CALLBACK_CHILD.format(release_gil=release_gil)
    )
    assert elapsed < 5.0
    assert "caught KeyboardInterrupt" in stdout
    assert "finished without interruption" not in stdout
    assert "python_side_of_the_call" in stderr
    assert returncode != 0


@pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX signals")
def test_sigint_stops_printing_a_huge_value_promptly(tmp_path: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", RESTORE_SIGINT + HUGE_PRINT_CHILD],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    with child:
        assert wait_for_file(tmp_path / "ready", child, timeout=60.0), "the child never ran"
        time.sleep(0.3)  # well inside the call, which takes seconds
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        stdout, stderr = child.communicate(timeout=120)
    assert child.returncode == 0, stderr
    outcome, *when = stdout.split()
    assert outcome == "interrupted"
    # CLOCK_MONOTONIC is one clock for every process: the time the signal took to stop the call.
    # A poll comes every 64Ki values (milliseconds); the whole call takes seconds.
    assert float(when[0]) - sent < 0.5
