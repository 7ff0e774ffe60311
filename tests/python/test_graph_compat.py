# SPDX-License-Identifier: Apache-2.0
"""JSON graphs are interchangeable with Apache TVM FFI: each runtime reads what the other writes.

tests/compat/graph_driver.cc is built twice with plain g++: against our headers and runtime, and
against those of Apache's reference wheel. ``driver <testing lib> write`` prints the graph text
of every case value (``name=<text>``) through ``ffi.ToJSONGraphString``; ``driver <testing lib>
read <file>`` rebuilds each graph of a file through ``ffi.FromJSONGraphString`` and prints the
rebuilt value's graph. Both runtimes must write the same text, and a graph read on one side
must write back exactly as that side writes the original value (the graph records every shared
node, so equal text means equal values, types and sharing). The reference wheel comes from
scripts/fetch_reference_wheels.sh: without it the tests skip, or fail when ``CI`` is set.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from pinned_versions import MATCHED_VERSION
from reference_wheels import REPO_ROOT, require_reference

from tvm_ffi import libinfo

pytestmark = pytest.mark.compiles

DRIVER_SOURCE = REPO_ROOT / "tests" / "compat" / "graph_driver.cc"
VERSION = MATCHED_VERSION


@dataclass(frozen=True)
class Side:
    """One implementation: headers, the folder of libtvm_ffi.so and its testing library."""

    name: str
    include_dirs: tuple[str, ...]
    lib_dir: str
    testing_lib: str


def _ours() -> Side:
    includes = (libinfo.find_include_path(), libinfo.find_dlpack_include_path())
    lib_dir = os.path.dirname(libinfo.find_libtvm_ffi())
    return Side("ours", includes, lib_dir, libinfo.find_libtvm_ffi_testing())


def _apache() -> Side:
    root = require_reference(VERSION)
    lib_dir = str(root / "lib")
    return Side(
        VERSION, (str(root / "include"),), lib_dir, str(root / "lib" / "libtvm_ffi_testing.so")
    )


def _build(side: Side, out_dir: Path) -> Path:
    out = out_dir / f"graph_driver_{side.name}"
    cmd = ["g++", "-std=c++17", "-O1", "-fPIC", *(f"-I{d}" for d in side.include_dirs)]
    cmd += [str(DRIVER_SOURCE), f"-L{side.lib_dir}", "-ltvm_ffi", "-ldl", "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stdout}{proc.stderr}"
    return out


@dataclass(frozen=True)
class Driver:
    """A built graph_driver and the side it runs on."""

    path: Path
    side: Side

    def run(self, *args: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "LD_PRELOAD")}
        env["LD_LIBRARY_PATH"] = self.side.lib_dir
        cmd = [str(self.path), self.side.testing_lib, *args]
        proc = subprocess.run(
            cmd, env=env, capture_output=True, text=True, timeout=120, check=False
        )
        assert proc.returncode == 0, f"{cmd} exited with {proc.returncode}\n{proc.stderr}"
        return dict(line.split("=", 1) for line in proc.stdout.splitlines())

    def write(self) -> dict[str, str]:
        return self.run("write")

    def read(self, graphs: dict[str, str], tmp_path: Path) -> dict[str, str]:
        path = tmp_path / f"graphs_for_{self.side.name}.txt"
        path.write_text("".join(f"{k}={v}\n" for k, v in graphs.items()), encoding="utf-8")
        return self.run("read", str(path))


@pytest.fixture(scope="module")
def drivers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Driver]:
    if shutil.which("g++") is None:
        pytest.skip("graph compat tests need the system compiler 'g++'")
    apache = _apache()
    ours = _ours()
    out_dir = tmp_path_factory.mktemp("graph_compat")
    return {side.name: Driver(_build(side, out_dir), side) for side in (ours, apache)}


def _normalized(text: str) -> str:
    """The graph text without metadata (reading drops it), in one canonical spelling."""
    if text.startswith("ERROR"):
        return text
    graph = json.loads(text)
    graph.pop("metadata", None)
    return json.dumps(graph, separators=(",", ":"), ensure_ascii=False)


def test_apache_writes_every_case(drivers: dict[str, Driver]) -> None:
    written = drivers[VERSION].write()
    assert len(written) >= 25
    assert {k: v for k, v in written.items() if v.startswith("ERROR")} == {}


def test_both_runtimes_write_the_same_text(drivers: dict[str, Driver]) -> None:
    ours, apache = drivers["ours"].write(), drivers[VERSION].write()
    assert ours.keys() == apache.keys()
    assert ours == apache


@pytest.mark.parametrize(("reader", "writer"), [("ours", VERSION), (VERSION, "ours")])
def test_reader_rebuilds_what_the_other_side_wrote(
    drivers: dict[str, Driver], tmp_path: Path, reader: str, writer: str
) -> None:
    written = drivers[writer].write()
    rebuilt = drivers[reader].read(written, tmp_path)
    own = drivers[reader].write()
    assert {k: _normalized(v) for k, v in rebuilt.items()} == {
        k: _normalized(v) for k, v in own.items()
    }


def test_each_runtime_reads_its_own_graphs(drivers: dict[str, Driver], tmp_path: Path) -> None:
    for driver in drivers.values():
        written = driver.write()
        rebuilt = driver.read(written, tmp_path)
        assert {k: _normalized(v) for k, v in rebuilt.items()} == {
            k: _normalized(v) for k, v in written.items()
        }
