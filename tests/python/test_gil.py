# SPDX-License-Identifier: Apache-2.0
"""The GIL is released during native calls unless Function.release_gil is False."""

from __future__ import annotations

import threading

import pytest
from conftest import RunPython

import tvm_ffi


def spin_iterations_during_sleep(release_gil: bool) -> int:
    """How far another Python thread gets while a native call sleeps one second."""
    sleeper = tvm_ffi.get_global_func("testing.run_check_signal")
    sleeper.release_gil = release_gil
    count = [0]
    stop = threading.Event()
    started = threading.Event()

    def spin() -> None:
        started.set()
        while not stop.is_set():
            count[0] += 1

    thread = threading.Thread(target=spin)
    thread.start()
    assert started.wait(timeout=30)
    before = count[0]
    sleeper(1)
    during = count[0] - before
    stop.set()
    thread.join(timeout=30)
    assert not thread.is_alive()
    return during


def test_release_gil_lets_other_threads_run() -> None:
    released = spin_iterations_during_sleep(True)
    held = spin_iterations_during_sleep(False)
    assert released > 100_000
    assert released > 10 * max(held, 1)


def test_release_gil_is_per_function_object() -> None:
    first = tvm_ffi.get_global_func("testing.add_one")
    second = tvm_ffi.get_global_func("testing.add_one")
    first.release_gil = False
    assert second.release_gil is True
    assert first(1) == second(1) == 2


def test_release_gil_accepts_truthy_values() -> None:
    func = tvm_ffi.get_global_func("testing.add_one")
    func.release_gil = 0
    assert func.release_gil is False
    func.release_gil = 1
    assert func.release_gil is True


@pytest.mark.parametrize("release_gil", [True, False])
def test_callback_runs_with_either_setting(release_gil: bool) -> None:
    apply = tvm_ffi.get_global_func("testing.apply")
    apply.release_gil = release_gil
    assert apply(lambda x: threading.current_thread().name + str(x), 1) == (
        threading.current_thread().name + "1"
    )


def test_environment_default_off_makes_calls_hold_the_gil(run_python: RunPython) -> None:
    code = (
        "import threading, tvm_ffi\n"
        "f = tvm_ffi.get_global_func('testing.run_check_signal')\n"
        "count = [0]; stop = threading.Event()\n"
        "def spin():\n"
        "    while not stop.is_set(): count[0] += 1\n"
        "t = threading.Thread(target=spin); t.start()\n"
        "before = count[0]; f(1); during = count[0] - before\n"
        "stop.set(); t.join()\n"
        "print(f.release_gil, during)\n"
    )
    off = run_python("-c", code, env={"TVM_FFI_RELEASE_GIL_BY_DEFAULT": "0"})
    on = run_python("-c", code, env={"TVM_FFI_RELEASE_GIL_BY_DEFAULT": "1"})
    off_flag, off_count = off.stdout.split()[-2:]
    on_flag, on_count = on.stdout.split()[-2:]
    assert (off_flag, on_flag) == ("False", "True")
    assert int(on_count) > 10 * max(int(off_count), 1)
