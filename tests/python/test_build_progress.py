# SPDX-License-Identifier: Apache-2.0
"""TVM_FFI_BUILD_PROGRESS: a build under pip compiles through cmake/tvm_ffi_build_progress.sh,
which writes each compile step and its time to the terminal (pip shows the build's own output
only with -v), prints nothing without a terminal, and keeps the compiler's exit status."""

from __future__ import annotations

import os
import pty
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "cmake" / "tvm_ffi_build_progress.sh"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell script")


def run_on_terminal(command: list[str]) -> tuple[str, int]:
    """What command writes to its terminal (a new pseudo-terminal), and its exit status."""
    pid, master = pty.fork()
    if pid == 0:  # pragma: no cover - the child process
        os.execvp(command[0], command)
    output = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        output += chunk
    os.close(master)
    _, status = os.waitpid(pid, 0)
    return output.decode().replace("\r\n", "\n"), os.waitstatus_to_exitcode(status)


def compile_command(compiler: list[str], source: str, output: str) -> list[str]:
    return ["sh", str(SCRIPT), *compiler, "-O2", "-c", source, "-o", output]


def compile_on_terminal(compiler: list[str], source: str, output: str) -> tuple[str, int]:
    """What the script writes to the terminal around one compile, and its exit status."""
    return run_on_terminal(compile_command(compiler, source, output))


def test_terminal_shows_the_part_compiling_and_its_time() -> None:
    output, status = compile_on_terminal(
        ["sh", "-c", "sleep 1", "compiler"],
        "/src/python/tvm_ffi/cython/core.c",
        "CMakeFiles/tvm_ffi_cython.dir/python/tvm_ffi/cython/core.c.o",
    )
    assert status == 0
    started, finished = output.splitlines()
    assert started == "tvm_ffi build: compiling the Python extension, tvm_ffi.core (core.c) ..."
    match = re.fullmatch(
        r"tvm_ffi build: compiled the Python extension, tvm_ffi.core \(core.c\) in (\d+) s",
        finished,
    )
    assert match is not None, finished
    assert 1 <= int(match.group(1)) <= 60  # the compile took a second, on a clock of seconds


def test_a_unity_batch_is_named_by_its_library() -> None:
    output, status = compile_on_terminal(
        ["true"],
        "/b/CMakeFiles/tvm_ffi_shared.dir/Unity/unity_0_cxx.cxx",
        "CMakeFiles/tvm_ffi_shared.dir/Unity/unity_0_cxx.cxx.o",
    )
    assert status == 0
    assert output.splitlines()[0] == "tvm_ffi build: compiling the runtime, libtvm_ffi.so ..."


def test_a_failed_compile_keeps_its_status_and_says_how_to_see_why() -> None:
    output, status = compile_on_terminal(
        ["sh", "-c", "exit 3", "compiler"],
        "/src/ffi/object.cc",
        "CMakeFiles/tvm_ffi_testing.dir/src/ffi/object.cc.o",
    )
    assert status == 3
    last = output.splitlines()[-1]
    assert last.startswith(
        "tvm_ffi build: compiling the testing library, libtvm_ffi_testing.so (object.cc) failed"
    )
    assert "pip install -v ." in last


def test_without_a_terminal_it_prints_nothing_and_keeps_the_status() -> None:
    result = subprocess.run(
        compile_command(["sh", "-c", "echo compiler says hi; exit 5", "compiler"], "/a.cc", "a.o"),
        capture_output=True,
        text=True,
        start_new_session=True,  # no controlling terminal
        check=False,
    )
    assert result.returncode == 5
    assert result.stdout == "compiler says hi\n"
    assert result.stderr == ""


def configured_launchers(build_dir: Path, *options: str) -> set[str]:
    """The compiler launchers a fresh Ninja configure of the project writes to build.ninja."""
    subprocess.run(
        [
            "cmake",
            "-S",
            str(REPO),
            "-B",
            str(build_dir),
            "-G",
            "Ninja",
            "-DTVM_FFI_BUILD_TESTS=OFF",
            "-DTVM_FFI_USE_CCACHE=OFF",
            *options,
        ],
        check=True,
        capture_output=True,
        env={
            key: value
            for key, value in os.environ.items()
            if key not in ("CMAKE_C_COMPILER_LAUNCHER", "CMAKE_CXX_COMPILER_LAUNCHER")
        },
    )
    text = (build_dir / "build.ninja").read_text()
    return {match.strip() for match in re.findall(r"^\s*LAUNCHER = (.*)$", text, re.MULTILINE)}


@pytest.mark.compiles
@pytest.mark.skipif(
    shutil.which("cmake") is None or shutil.which("ninja") is None,
    reason="needs cmake and ninja on PATH",
)
def test_only_a_build_under_pip_compiles_through_the_script(tmp_path: Path) -> None:
    assert configured_launchers(tmp_path / "pip", "-DSKBUILD=2") == {f"sh {SCRIPT}"}
    assert configured_launchers(tmp_path / "plain") == set()
    assert (
        configured_launchers(tmp_path / "off", "-DSKBUILD=2", "-DTVM_FFI_BUILD_PROGRESS=OFF")
        == set()
    )
