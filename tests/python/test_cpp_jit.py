# SPDX-License-Identifier: Apache-2.0
"""tvm_ffi.cpp: compiling C++/C/CUDA sources through ninja into a content-hashed cache (the
checks that need no compiler are in test_cpp_jit_inputs.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

import tvm_ffi
import tvm_ffi.cpp

RICH_SOURCE = """
#include <tvm/ffi/container/array.h>
#include "jit_offset.h"

int add_one(int x) { return x + 1; }
int64_t scaled(int64_t x) { return x * VALUE + header_offset(); }
int64_t sum(tvm::ffi::Array<int64_t> values) {
  int64_t total = 0;
  for (int64_t v : values) total += v;
  return total;
}
tvm::ffi::String greet(tvm::ffi::String who) { return "hello " + std::string(who); }
void fail(int code) { TVM_FFI_THROW(ValueError) << "bad input " << code; }
"""

ADD_ONE = "int add_one(int x) { return x + 1; }\n"

pytestmark = [pytest.mark.compiles, pytest.mark.usefixtures("cache_dir")]


@pytest.fixture(scope="module")
def header_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("headers")
    (path / "jit_offset.h").write_text("inline int header_offset() { return 100; }\n")
    return path


def _build_rich(header_dir: Path) -> str:
    return tvm_ffi.cpp.build_inline(
        "jit_rich",
        cpp_sources=RICH_SOURCE,
        functions={"add_one": "Add one to x.", "scaled": "", "sum": "", "greet": "", "fail": ""},
        extra_cflags=["-DVALUE=7"],
        extra_include_paths=[str(header_dir)],
    )


@pytest.fixture(scope="module")
def rich_library(header_dir: Path) -> str:
    return _build_rich(header_dir)


@pytest.fixture(scope="module")
def rich_module(rich_library: str) -> tvm_ffi.Module:
    return tvm_ffi.load_module(rich_library)


def test_load_inline_add_one(rich_module):
    assert rich_module.add_one(41) == 42


def test_extra_cflags_and_include_paths(rich_module):
    assert rich_module.scaled(2) == 2 * 7 + 100


def test_exported_containers_and_strings(rich_module):
    assert rich_module.sum([1, 2, 3]) == 6
    assert rich_module.greet("jit") == "hello jit"


def test_function_docstrings(rich_module):
    assert rich_module.get_function_doc("add_one") == "Add one to x."
    assert rich_module.get_function_doc("scaled") is None


def test_cpp_error_becomes_python_error(rich_module):
    with pytest.raises(ValueError, match="bad input 3"):
        rich_module.fail(3)


def test_library_is_in_hashed_cache_dir(rich_library, cache_dir):
    path = Path(rich_library)
    assert path.parent.parent == cache_dir
    assert path.parent.name.startswith("jit_rich_")
    assert (path.parent / "build.ninja").exists()


def test_second_call_reuses_the_cached_library(rich_library, header_dir, monkeypatch):
    before = os.stat(rich_library)

    def no_process(args, *rest, **kwargs):
        raise AssertionError(f"a cached build started a process: {args}")

    # subprocess.run starts its processes through subprocess.Popen: no ninja, no compiler.
    monkeypatch.setattr(subprocess, "Popen", no_process)
    assert _build_rich(header_dir) == rich_library
    after = os.stat(rich_library)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_functions_as_list_with_build_directory(tmp_path, monkeypatch):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "step.h").write_text("constexpr int kStep = 1;\n")
    monkeypatch.chdir(tmp_path)  # relative include paths resolve against the caller's cwd
    source = '#include "step.h"\n' + ADD_ONE + "int sub_one(int x) { return x - kStep; }\n"
    module = tvm_ffi.cpp.load_inline(
        "jit_list",
        cpp_sources=[source],
        functions=["add_one", "sub_one"],
        extra_include_paths=["inc"],
        build_directory=str(tmp_path),
    )
    assert (module.add_one(1), module.sub_one(1)) == (2, 0)
    assert (tmp_path / "jit_list.so").exists()
    assert "TVM_FFI_DLL_EXPORT_INCLUDE_METADATA" not in (tmp_path / "main.cpp").read_text()


C_SOURCE = """
#include <tvm/ffi/c_api.h>

int c_triple(int x) { return 3 * x; }

TVM_FFI_DLL_EXPORT int __tvm_ffi_add_two(void* self, const TVMFFIAny* args, int32_t num_args,
                                         TVMFFIAny* result) {
  (void)self;
  (void)num_args;
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = args[0].v_int64 + 2;
  return 0;
}
"""

CC_SOURCE = """
#include <tvm/ffi/function.h>

extern "C" int c_triple(int x);
int triple_plus_one(int x) { return c_triple(x) + 1; }
TVM_FFI_DLL_EXPORT_TYPED_FUNC(triple_plus_one, triple_plus_one)
"""


def test_build_and_load_files(tmp_path, monkeypatch):
    (tmp_path / "part.cc").write_text(CC_SOURCE)
    (tmp_path / "helper.c").write_text(C_SOURCE)
    c_compiler = shutil.which("gcc") or shutil.which("cc")
    monkeypatch.setenv("CC", c_compiler)
    build_dir = tmp_path / "build"
    path = tvm_ffi.cpp.build(
        "jit_files",
        sources=[tmp_path / "part.cc"],
        cpp_files=[str(tmp_path / "helper.c")],
        build_directory=str(build_dir),
    )
    assert f"cc = {c_compiler}\n" in (build_dir / "build.ninja").read_text()
    module = tvm_ffi.cpp.load(
        "jit_files",
        sources=[tmp_path / "part.cc", tmp_path / "helper.c"],
        build_directory=str(build_dir),
    )
    assert path == str(build_dir / "jit_files.so")
    assert module.triple_plus_one(2) == 7
    assert module.add_two(5) == 7


def _is_relocatable_elf(path: Path) -> bool:
    header = path.read_bytes()[:18]
    return header[:4] == b"\x7fELF" and int.from_bytes(header[16:18], "little") == 1


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="checks the ELF header")
def test_output_object_file(tmp_path):
    path = Path(
        tvm_ffi.cpp.build_inline(
            "jit_object", cpp_sources=ADD_ONE, functions="add_one", output="add_one.o"
        )
    )
    assert path.name == "add_one.o"
    assert _is_relocatable_elf(path)
    assert b"__tvm_ffi_add_one" in path.read_bytes()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="checks the ELF header")
def test_files_build_rebuilds_changed_source(tmp_path):
    source = tmp_path / "only.c"
    source.write_text("int value(void) { return 1; }\n")
    build_dir = tmp_path / "build"
    options = {"sources": [source], "build_directory": str(build_dir), "output": "only.o"}
    path = Path(tvm_ffi.cpp.build("jit_c_object", **options))
    assert _is_relocatable_elf(path)
    before = path.read_bytes()
    source.write_text("int value(void) { return 12345; }\n")
    assert Path(tvm_ffi.cpp.build("jit_c_object", **options)) == path
    assert path.read_bytes() != before


def test_compile_error_carries_compiler_message(cache_dir):
    source = "int broken() { return undeclared_thing_xyz; }\n"
    with pytest.raises(RuntimeError) as info:
        tvm_ffi.cpp.load_inline("jit_broken", cpp_sources=source, functions="broken")
    message = str(info.value)
    assert message.startswith("ninja exited with status 1\nstdout:\n")
    assert "undeclared_thing_xyz" in message
    assert not list(cache_dir.glob("jit_broken_*/*.so"))


CONCURRENT_SCRIPT = """
import sys
import tvm_ffi.cpp
module = tvm_ffi.cpp.load_inline(
    "jit_race", cpp_sources="int add_one(int x) { return x + 1; }\\n", functions="add_one"
)
assert module.add_one(int(sys.argv[1])) == int(sys.argv[1]) + 1
"""


def test_concurrent_builds_share_the_cache(tmp_path):
    cache = tmp_path / "cache"
    env = {**os.environ, "TVM_FFI_CACHE_DIR": str(cache)}
    script = tmp_path / "race.py"
    script.write_text(CONCURRENT_SCRIPT)
    workers = [
        subprocess.Popen(
            [sys.executable, str(script), str(i)],
            env=env,
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(2)
    ]
    for worker in workers:
        _, stderr = worker.communicate(timeout=300)
        assert worker.returncode == 0, stderr
    (build_dir,) = cache.glob("jit_race_*")
    assert sorted(p.name for p in build_dir.glob("*.so")) == ["jit_race.so"]
    assert not list(build_dir.glob("*.tmp*"))
    compiled = (build_dir / ".ninja_log").read_text().splitlines()[1:]  # one line per edge run
    assert [line.split("\t")[3] for line in compiled].count("main_cpp.o") == 1
    subprocess.run([sys.executable, str(script), "7"], env=env, check=True, timeout=60)


EMBEDDED_IMAGES = """
extern "C" const char __tvm_ffi__cubin_alpha[], __tvm_ffi__cubin_alpha_end[];
extern "C" const char __tvm_ffi__cubin_beta[], __tvm_ffi__cubin_beta_end[];
tvm::ffi::Bytes image(int which) {
  const char* begin = which ? __tvm_ffi__cubin_beta : __tvm_ffi__cubin_alpha;
  const char* end = which ? __tvm_ffi__cubin_beta_end : __tvm_ffi__cubin_alpha_end;
  return tvm::ffi::Bytes(begin, end - begin);
}
"""


def _needs_binutils():
    if not sys.platform.startswith("linux") or not (shutil.which("ld") and shutil.which("objcopy")):
        pytest.skip("embed_cubin needs GNU ld and objcopy (Linux)")


def test_embed_cubin_images_are_in_the_library():
    _needs_binutils()
    images = {"alpha": b"first\0image", "beta": bytes(range(256)) * 4}
    mod = tvm_ffi.cpp.load_inline(
        "jit_cubin", cpp_sources=EMBEDDED_IMAGES, functions="image", embed_cubin=images
    )
    assert mod.image(0) == images["alpha"]
    assert mod.image(1) == images["beta"]
    # A changed image is a new build.
    changed = {**images, "alpha": b"changed"}
    mod = tvm_ffi.cpp.load_inline(
        "jit_cubin", cpp_sources=EMBEDDED_IMAGES, functions="image", embed_cubin=changed
    )
    assert mod.image(0) == b"changed"


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc")
def test_cuda_sources_compile_with_nvcc():
    cuda_source = "__global__ void fill(float* x) { x[threadIdx.x] = 1.0f; }\n" + ADD_ONE
    module = tvm_ffi.cpp.load_inline(
        "jit_cuda_host", cuda_sources=cuda_source, functions="add_one", backend="cuda"
    )
    assert module.add_one(1) == 2


TENSOR_SOURCE = """
void scale_into(tvm::ffi::TensorView x, tvm::ffi::TensorView y, double factor) {
  TVM_FFI_CHECK(x.dtype() == DLDataType({kDLFloat, 32, 1}), TypeError) << "x must be float32";
  TVM_FFI_CHECK(x.numel() == y.numel(), ValueError) << "size mismatch";
  const float* in = static_cast<const float*>(x.data_ptr());
  float* out = static_cast<float*>(y.data_ptr());
  for (int64_t i = 0; i < x.size(0); ++i) out[i * y.stride(0)] = in[i * x.stride(0)] * factor;
}

// A new float32 tensor of ones shaped like `like`, from the caller's framework allocator.
tvm::ffi::Tensor ones_like(tvm::ffi::TensorView like) {
  tvm::ffi::Tensor t = tvm::ffi::Tensor::FromEnvAlloc(
      TVMFFIEnvTensorAlloc, like.shape(), DLDataType{kDLFloat, 32, 1}, like.device());
  float* data = static_cast<float*>(t.data_ptr());
  for (int64_t i = 0; i < t.numel(); ++i) data[i] = 1.0f;
  return t;
}
"""


@pytest.fixture(scope="module")
def tensor_module() -> tvm_ffi.Module:
    return tvm_ffi.cpp.load_inline(
        "jit_tensor", cpp_sources=TENSOR_SOURCE, functions=["scale_into", "ones_like"]
    )


def test_inline_tensor_kernel_on_numpy(tensor_module):
    np = pytest.importorskip("numpy")
    x = np.arange(4, dtype="float32")
    y = np.zeros(8, dtype="float32")
    tensor_module.scale_into(x, y[::2], 2.0)
    assert y.tolist() == [0, 0, 2, 0, 4, 0, 6, 0]
    with pytest.raises(TypeError, match="x must be float32"):
        tensor_module.scale_into(x.astype("float64"), y, 1.0)


def test_inline_tensor_kernel_on_torch(tensor_module):
    torch = pytest.importorskip("torch")
    x = torch.ones(3)
    y = torch.zeros(3)
    tensor_module.scale_into(x, y, 0.5)
    assert y.tolist() == [0.5, 0.5, 0.5]


def test_env_alloc_output_follows_the_caller_framework(tensor_module):
    torch = pytest.importorskip("torch")
    np = pytest.importorskip("numpy")
    ones = tensor_module.ones_like(torch.zeros(2, 3))
    assert isinstance(ones, torch.Tensor)
    assert ones.shape == (2, 3)
    assert ones.sum().item() == 6.0
    with pytest.raises(RuntimeError, match="allocator is nullptr"):
        tensor_module.ones_like(np.zeros(3))


@pytest.mark.compiles
def test_traceback_of_inline_code_names_the_generated_file(tmp_path: Path) -> None:
    module = tvm_ffi.cpp.load_inline(
        "jit_traceback",
        cpp_sources=(
            "#include <tvm/ffi/error.h>\n"
            "int fail(int x) {\n"
            '  TVM_FFI_THROW(ValueError) << "bad " << x;\n'
            "}\n"
        ),
        functions=["fail"],
        build_directory=str(tmp_path),
    )
    with pytest.raises(ValueError, match="bad 3") as info:
        module.fail(3)
    text = "".join(
        traceback.format_exception(type(info.value), info.value, info.value.__traceback__)
    )
    source = tmp_path / "main.cpp"
    assert f'File "{source}", line ' in text
    assert 'TVM_FFI_THROW(ValueError) << "bad " << x;' in text
