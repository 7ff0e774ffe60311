# SPDX-License-Identifier: Apache-2.0
"""A library built with the delete queue of earlier headers works on the current runtime.

Earlier headers kept the queue that bounds nested deletions in a thread_local of each library
(``tests/compat/old_delete_queue``); the current ones call the runtime's
(``TVMFFIDeleteQueueRun``). ``tests/compat/old_queue_lib.cc``, compiled with the earlier queue,
frees long chains whose links alternate between its objects (freed through its own queue) and
Arrays of the runtime (freed through the runtime's), on several threads at once and from a
thread_local destructor at thread exit, and a chain of the runtime's Arrays it releases. Each
queue keeps its own depth, so the two together still bound the nesting: a chain far deeper than
a thread's stack allows is freed whole.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from reference_wheels import REPO_ROOT

import tvm_ffi
from tvm_ffi import libinfo

pytestmark = [
    pytest.mark.compiles,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="builds an ELF library"),
    pytest.mark.skipif(shutil.which("g++") is None, reason="needs the system compiler 'g++'"),
]

COMPAT_DIR = REPO_ROOT / "tests" / "compat"
# Deep enough that one stack frame per link would overflow a thread's 8 MiB stack.
LINKS = 200_000


@pytest.fixture(scope="module")
def old_queue_lib(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("old_queue") / "libold_queue.so"
    lib_dir = Path(libinfo.find_libtvm_ffi()).parent
    cmd = ["g++", "-std=c++17", "-O2", "-fPIC", "-shared", "-pthread"]
    cmd += [f"-I{COMPAT_DIR / 'old_delete_queue'}", f"-I{libinfo.find_include_path()}"]
    cmd += [f"-I{libinfo.find_dlpack_include_path()}", str(COMPAT_DIR / "old_queue_lib.cc")]
    cmd += ["-o", str(out), f"-L{lib_dir}", "-ltvm_ffi", f"-Wl,-rpath,{lib_dir}"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr
    return out


def test_the_library_keeps_a_queue_of_its_own(old_queue_lib: Path) -> None:
    symbols = subprocess.run(
        ["readelf", "-sW", str(old_queue_lib)], capture_output=True, text=True, check=True
    ).stdout
    tls = [line.split()[-1] for line in symbols.splitlines() if " TLS " in line]
    assert any("DeleteQueue" in name for name in tls), tls
    assert "TVMFFIDeleteQueueRun" not in symbols


def test_chains_are_freed_across_both_queues(old_queue_lib: Path) -> None:
    module = tvm_ffi.load_module(str(old_queue_lib))
    assert module.free_chains(LINKS, 1) == LINKS
    assert module.free_chains(LINKS, 4) == 4 * LINKS
    assert module.free_runtime_chain(LINKS) == 1
    assert module.free_chain_at_thread_exit(LINKS) == LINKS
