# SPDX-License-Identifier: Apache-2.0
"""A nanobind extension built in-process, when nanobind is installed: the peer the call
benchmarks compare with. The compiled module is cached under build/bench-nanobind/."""

from __future__ import annotations

import hashlib
import importlib.util
import subprocess
import sys
import sysconfig
from pathlib import Path
from types import ModuleType

NANOBIND_SOURCE = r"""
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <string>

namespace nb = nanobind;

NB_MODULE(bench_nanobind, m) {
  m.def("nop", []() {});
  m.def("nop_int", [](int64_t) {});
  m.def("return_str", []() { return std::string("abcdefghijklmnopqrstuvwxyz0123456789"); });
  m.def("echo_str", [](const std::string& text) { return text; });
}
"""

CACHE_DIR = Path(__file__).resolve().parent.parent / "build" / "bench-nanobind"


def _compile(nanobind: ModuleType, target: Path) -> None:
    source = target.with_name("bench_nanobind.cpp")
    source.write_text(NANOBIND_SOURCE)
    root = Path(nanobind.source_dir()).parent
    includes = [
        sysconfig.get_paths()["include"],
        nanobind.include_dir(),
        str(root / "ext" / "robin_map" / "include"),
    ]
    cmd = ["c++", "-O2", "-std=c++17", "-shared", "-fPIC", "-fvisibility=hidden", "-DNDEBUG"]
    cmd += [f"-I{path}" for path in includes]
    cmd += [str(root / "src" / "nb_combined.cpp"), str(source), "-o", str(target)]
    print("building the nanobind reference module (cached afterwards) ...", file=sys.stderr)
    subprocess.run(cmd, check=True)


def load_nanobind_reference() -> ModuleType | None:
    """The nanobind reference module, or None when nanobind is not installed."""
    try:
        import nanobind
    except ImportError:
        return None
    key = f"{nanobind.__version__}|{sys.version}|{NANOBIND_SOURCE}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    target = CACHE_DIR / digest / ("bench_nanobind" + sysconfig.get_config_var("EXT_SUFFIX"))
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        _compile(nanobind, target)
    spec = importlib.util.spec_from_file_location("bench_nanobind", target)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
