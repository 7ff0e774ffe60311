# SPDX-License-Identifier: Apache-2.0
"""tvm_ffi.cpp: the GPU targets of nvcc ($TVM_FFI_CUDA_ARCH_LIST, nvidia-smi, user flags)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tvm_ffi.cpp import cuda_arch, library, toolchain
from tvm_ffi.cpp.ninja_build import CompileStep


@pytest.fixture(autouse=True)
def no_arch_setting(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv(cuda_arch.ARCH_LIST_ENV, raising=False)
    cuda_arch.detected_archs.cache_clear()
    yield
    cuda_arch.detected_archs.cache_clear()


def fake_nvidia_smi(directory: Path, monkeypatch: pytest.MonkeyPatch, script: str) -> None:
    """Put an ``nvidia-smi`` running ``script`` (sh) first on PATH."""
    program = directory / "nvidia-smi"
    program.write_text("#!/bin/sh\n" + script)
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{directory}{os.pathsep}{os.environ.get('PATH', '')}")


def test_parse_arch_list_accepts_separators_and_suffixes() -> None:
    assert cuda_arch.parse_arch_list(" 8.0 9.0a,12.0;8.0 10.0F ") == ["80", "90a", "120", "100f"]


@pytest.mark.parametrize("entry", ["sm_90", "9", "9.0b", "nine"])
def test_parse_arch_list_names_a_bad_entry(entry: str) -> None:
    with pytest.raises(ValueError, match=f"'{entry}' is not a compute capability"):
        cuda_arch.parse_arch_list(f"8.0 {entry}")


def test_gencode_flags_add_ptx_of_the_last_arch() -> None:
    assert cuda_arch.gencode_flags(["80", "90a"]) == [
        "-gencode=arch=compute_80,code=sm_80",
        "-gencode=arch=compute_90a,code=sm_90a",
        "-gencode=arch=compute_90a,code=compute_90a",
    ]
    assert cuda_arch.gencode_flags([]) == []


def test_environment_setting_decides(monkeypatch, tmp_path) -> None:
    fake_nvidia_smi(tmp_path, monkeypatch, "echo 7.5\n")
    monkeypatch.setenv(cuda_arch.ARCH_LIST_ENV, "9.0")
    assert cuda_arch.arch_flags([]) == [
        "-gencode=arch=compute_90,code=sm_90",
        "-gencode=arch=compute_90,code=compute_90",
    ]


@pytest.mark.parametrize(
    "user_flags",
    [
        ["-arch=sm_80"],
        ["-arch", "sm_80"],
        ["--gpu-architecture=sm_80"],
        ["-gencode", "arch=compute_80,code=sm_80"],
        ["--generate-code=arch=compute_80"],
    ],
)
def test_user_flags_naming_targets_win(monkeypatch, user_flags) -> None:
    monkeypatch.setenv(cuda_arch.ARCH_LIST_ENV, "9.0")
    assert cuda_arch.arch_flags(["-O3", *user_flags]) == []


def test_present_gpus_are_detected_once(monkeypatch, tmp_path) -> None:
    calls = tmp_path / "calls"
    fake_nvidia_smi(tmp_path, monkeypatch, f"echo x >> {calls}\nprintf '9.0\\n8.6\\n9.0\\n'\n")
    assert cuda_arch.detected_archs() == ("86", "90")
    assert cuda_arch.arch_flags([])[0] == "-gencode=arch=compute_86,code=sm_86"
    assert calls.read_text() == "x\n"


@pytest.mark.parametrize("script", ["exit 9\n", "echo 'Field \"compute_cap\" is not valid'\n"])
def test_failing_nvidia_smi_adds_nothing(monkeypatch, tmp_path, script) -> None:
    fake_nvidia_smi(tmp_path, monkeypatch, script)
    assert cuda_arch.arch_flags([]) == []


def test_without_nvidia_smi_nvcc_keeps_its_default(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert cuda_arch.detected_archs() == ()
    assert cuda_arch.arch_flags([]) == []


def test_build_flags_carry_the_targets_before_user_flags(monkeypatch) -> None:
    fake = toolchain.GpuToolchain("cuda", "/usr/bin/true", None, ("-Xcompiler", "-fPIC"), ())
    monkeypatch.setattr(toolchain, "find_gpu_toolchain", lambda backend: fake)
    monkeypatch.setenv(cuda_arch.ARCH_LIST_ENV, "9.0a")
    steps = [CompileStep("compile_gpu", "kernel.cu", "kernel_cu.o")]

    def gpu_flags(extra: list[str]) -> list[str]:
        options = library.make_build_options(
            None, extra, None, None, build_directory=None, backend=None, output=None
        )
        return library._tools(steps, options)["gpuflags"]

    flags = gpu_flags(["-lineinfo"])
    assert flags.index("-gencode=arch=compute_90a,code=sm_90a") < flags.index("-lineinfo")
    assert not any(flag.startswith("-gencode") for flag in gpu_flags(["-arch=sm_80"]))
