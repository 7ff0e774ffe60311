# SPDX-License-Identifier: Apache-2.0
"""Code compiled against the headers defines no thread-local storage.

The runtime keeps the per-thread state the headers need (the delete queue, the stack reserve of
structural descents) behind exported functions (``tvm/ffi/c_thread_api.h``). Code built against
Apache's headers has none either, and in-memory JIT loaders rely on that: LLVM's ORC JIT cannot
run thread-local data of a loaded object ("No thread local data section for key", then a crash)
and cannot relocate it in a position-independent one (``R_X86_64_TPOFF32``).

One translation unit includes every public header and builds, uses and frees values of each
kind. Compiled as a position-independent object and as a shared library, readelf must find in
it no TLS symbol, relocation, section or segment and no reference to ``__tls_get_addr``. The
published ORC JIT loader (``apache-tvm-ffi-orcjit``, fetched by
``scripts/fetch_downstream_packages.sh``; without it the loader tests skip locally and fail in
CI) then loads the object and calls into it, on our runtime and on Apache's.
"""

from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import environment_with_path_first
from pinned_versions import DOWNSTREAM_ORCJIT_VERSION, MATCHED_VERSION
from reference_wheels import REPO_ROOT, install_reference_package, missing_compat_input

import tvm_ffi
from tvm_ffi import libinfo

pytestmark = [
    pytest.mark.compiles,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF checks need Linux"),
    pytest.mark.skipif(
        shutil.which("g++") is None or shutil.which("readelf") is None,
        reason="needs g++ and readelf",
    ),
]

# Headers left out of the probe: they need another toolchain's headers.
_SKIPPED_HEADERS = {
    "tvm/ffi/extra/cuda/": "needs the CUDA toolkit's headers (test_cuda_headers.py)",
}

# Builds, uses and frees values of every kind, through each path that releases an object.
_PROBE_BODY = r"""
#include <string>

namespace tls_probe {
using namespace tvm::ffi;  // NOLINT(*)

/// A reflected object: structural rewrites descend into its field.
class NodeObj : public Object {
 public:
  Any child;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tls_probe.Node", NodeObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::ObjectDef<NodeObj>().def_rw("child", &NodeObj::child);
}

int64_t Exercise(int64_t n) {
  ObjectPtr<NodeObj> node = make_object<NodeObj>();
  node->child = Array<Any>{n, String(std::string(40, 's'))};
  ObjectRef ref(node);
  WeakObjectPtr<NodeObj> weak(node);
  node.reset();
  Any any = ref;
  List<Any> list{any, Bytes("bytes")};
  Map<String, Any> map{{"list", list}};
  Dict<Any, Any> dict{{1, map}};
  Function twice = Function::FromTyped([](int64_t x) { return x * 2; });
  Optional<String> name = String("probe");
  Expected<int64_t> doubled = twice(n).cast<int64_t>();
  Shape shape{2, 3};
  Any mapped = StructuralMap<WalkOrder::kPostOrder>(
      Any(Array<Any>{ref, dict}), [](int64_t x) -> Any { return x + 1; });
  int64_t sum = doubled.value() + static_cast<int64_t>(list.size() + map.size() + dict.size());
  sum += static_cast<int64_t>(shape.size() + mapped.cast<Array<Any>>().size());
  try {
    Expected<int64_t> failed = Unexpected(Error("ValueError", "probe", ""));
    return failed.value();
  } catch (const Error& err) {
    sum += err.kind() == "ValueError" ? 1 : 100;
  }
  ref = ObjectRef();
  any = nullptr;
  list.clear();
  dict.clear();
  map = Map<String, Any>();
  mapped = nullptr;
  return weak.lock() == nullptr ? sum : -sum;
}
}  // namespace tls_probe

TVM_FFI_DLL_EXPORT_TYPED_FUNC(exercise, tls_probe::Exercise);
"""
# Exercise(3): 6 + 2 + 1 + 1 + 2 + 2 + 1.
_EXPECTED_RESULT = 15

_TLS_RELOCATION = re.compile(r"TLS|TPOFF|DTPMOD|DTPOFF")
_TLS_RUNTIME_CALLS = {"__tls_get_addr", "___tls_get_addr", "__tls_get_offset"}
_TLS_SECTIONS = {".tdata", ".tbss"}


def _public_headers() -> list[str]:
    include = Path(libinfo.find_include_path())
    headers = sorted(
        str(path.relative_to(include))
        for path in include.rglob("*.h")
        if path.relative_to(include).parts[:2] == ("tvm", "ffi")
    )
    return [h for h in headers if not any(h.startswith(skip) for skip in _SKIPPED_HEADERS)]


def _write_probe(folder: Path) -> Path:
    source = folder / "tls_probe.cc"
    includes = "".join(f"#include <{header}>\n" for header in _public_headers())
    source.write_text(includes + _PROBE_BODY)
    return source


def _compile(source: Path, out: Path, *flags: str) -> Path:
    include, dlpack = libinfo.find_include_path(), libinfo.find_dlpack_include_path()
    cmd = ["g++", "-std=c++17", f"-I{include}", f"-I{dlpack}", *flags, str(source), "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return out


def _readelf(*args: str) -> list[list[str]]:
    out = subprocess.run(["readelf", "-W", *args], capture_output=True, text=True, check=True)
    return [line.split() for line in out.stdout.splitlines()]


def _tls_findings(binary: Path) -> list[str]:
    """Everything in binary that is or uses thread-local storage."""
    findings = []
    for row in _readelf("-s", str(binary)):
        # Num: Value Size Type Bind Vis Ndx Name
        if len(row) >= 8 and row[0].rstrip(":").isdigit():
            name = row[7].split("@")[0]
            if row[3] == "TLS":
                findings.append(f"TLS symbol {name}")
            if name in _TLS_RUNTIME_CALLS:
                findings.append(f"reference to {name}")
    for row in _readelf("-r", str(binary)):
        # Offset Info Type [Symbol's value, name + addend]
        if len(row) >= 3 and re.fullmatch(r"[0-9a-f]+", row[0]) and _TLS_RELOCATION.search(row[2]):
            findings.append(f"relocation {row[2]} {' '.join(row[3:])}")
    for row in _readelf("-S", str(binary)):
        findings += [f"section {word}" for word in row if word in _TLS_SECTIONS]
    for row in _readelf("-l", str(binary)):
        if row and row[0] == "TLS":
            findings.append("TLS segment")
    return findings


@pytest.fixture(scope="module")
def probe_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _write_probe(tmp_path_factory.mktemp("tls_probe"))


def test_probe_includes_every_public_header(probe_source: Path) -> None:
    headers = _public_headers()
    assert len(headers) > 60
    assert "tvm/ffi/delete_queue.h" in headers
    assert "tvm/ffi/extra/structural_visit.h" in headers


def test_the_check_sees_thread_local_storage(tmp_path: Path) -> None:
    source = tmp_path / "tls.cc"
    source.write_text("thread_local int counter;\nint Next() { return ++counter; }\n")
    pie = _compile(source, tmp_path / "tls.o", "-O2", "-fPIE", "-c")
    shared = _compile(source, tmp_path / "libtls.so", "-O2", "-fPIC", "-shared")
    assert any(f.startswith("TLS symbol") for f in _tls_findings(pie))
    assert any(f.startswith("relocation") for f in _tls_findings(pie))
    assert "TLS segment" in _tls_findings(shared)
    assert any(f.startswith("reference to") for f in _tls_findings(shared))


@pytest.mark.parametrize(
    ("name", "flags"),
    [
        ("pie_O2.o", ("-O2", "-fPIE", "-c")),
        ("pie_O0.o", ("-O0", "-fPIE", "-c")),
        ("libprobe.so", ("-O2", "-fPIC", "-shared")),
    ],
)
def test_headers_create_no_thread_local_storage(
    probe_source: Path, name: str, flags: tuple[str, ...]
) -> None:
    binary = _compile(probe_source, probe_source.parent / name, *flags)
    assert _tls_findings(binary) == []
    # The object-freeing path is in it: it calls the runtime's queue, imported weakly.
    weak = [row for row in _readelf("-s", str(binary)) if row[-1:] == ["TVMFFIDeleteQueueRun"]]
    assert weak and all(row[4] == "WEAK" and row[6] == "UND" for row in weak)


# ---- loading through the published ORC JIT loader -------------------------------------------

_ORCJIT_REQUIREMENT = f"apache-tvm-ffi-orcjit=={DOWNSTREAM_ORCJIT_VERSION}"
_DOWNSTREAM_DIR = Path(
    os.environ.get("TVM_FFI_DOWNSTREAM_DIR", str(REPO_ROOT / ".cache" / "downstream"))
)
_LOAD_AND_CALL = """
import sys
import tvm_ffi, tvm_ffi_orcjit
print(tvm_ffi.__file__, file=sys.stderr)
module = tvm_ffi_orcjit.ExecutionSession().load_module(sys.argv[1])
print(module.exercise(3))
"""


@pytest.fixture(scope="module")
def orcjit_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the ORC JIT addon installed (without its dependency: our tvm_ffi)."""
    if sys.version_info < (3, 10) or platform.machine() != "x86_64":
        pytest.skip(f"{_ORCJIT_REQUIREMENT} is published for Python >= 3.10 on x86_64")
    pattern = f"apache_tvm_ffi_orcjit-{DOWNSTREAM_ORCJIT_VERSION}-*.whl"
    wheels = sorted(_DOWNSTREAM_DIR.glob(pattern))
    if not wheels:
        missing_compat_input(
            f"{_ORCJIT_REQUIREMENT} is not in '{_DOWNSTREAM_DIR}'; run "
            "scripts/fetch_downstream_packages.sh (it needs access to PyPI)"
        )
    site = tmp_path_factory.mktemp("orcjit") / "site"
    pip = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index"]
    installed = subprocess.run(
        [*pip, "--target", str(site), str(wheels[0])], capture_output=True, text=True
    )
    assert installed.returncode == 0, installed.stderr
    return site


@pytest.mark.parametrize("runtime", ["ours", "apache"])
@pytest.mark.parametrize(("name", "flags"), [("pic.o", ("-fPIC",)), ("pie.o", ("-fPIE",))])
def test_object_runs_through_orc_jit(
    probe_source: Path,
    orcjit_site: Path,
    tmp_path: Path,
    runtime: str,
    name: str,
    flags: tuple[str, ...],
) -> None:
    obj = _compile(probe_source, tmp_path / name, "-O2", "-c", *flags)
    env = environment_with_path_first(orcjit_site)
    package = Path(tvm_ffi.__file__).parent
    if runtime == "apache":
        # Apache's runtime lacks the functions of c_thread_api.h: the object does without them.
        apache_site = install_reference_package(MATCHED_VERSION, tmp_path)
        env["PYTHONPATH"] = os.pathsep.join([str(apache_site), env["PYTHONPATH"]])
        package = apache_site / "tvm_ffi"
    proc = subprocess.run(
        [sys.executable, "-c", _LOAD_AND_CALL, str(obj)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.split() == [str(_EXPECTED_RESULT)]
    assert Path(proc.stderr.splitlines()[0]).parent == package
