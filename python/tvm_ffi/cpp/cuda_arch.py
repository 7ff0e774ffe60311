# SPDX-License-Identifier: Apache-2.0
"""Which GPU architectures nvcc and hipcc build for: the configured list or the GPUs present.

The lists are ``$TVM_FFI_CUDA_ARCH_LIST`` and ``$TVM_FFI_ROCM_ARCH_LIST``.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path

ARCH_LIST_ENV = "TVM_FFI_CUDA_ARCH_LIST"
# A compute capability as written by nvidia-smi ("9.0"), optionally with nvcc's arch-specific
# ("a") or family ("f") suffix.
_CAPABILITY = re.compile(r"(\d+)\.(\d+)([af]?)")
# nvcc options that already choose the targets; then none are added.
_USER_ARCH_OPTIONS = ("-arch", "--gpu-architecture", "-gencode", "--generate-code", "-code")


def parse_arch_list(text: str) -> list[str]:
    """``"8.0 9.0a"`` (spaces, commas or semicolons between) -> ``["80", "90a"]``.

    Raises
    ------
    ValueError
        If an entry is not a compute capability like ``9.0`` or ``9.0a``.
    """
    archs = []
    for entry in re.split(r"[\s,;]+", text.strip()):
        if not entry:
            continue
        match = _CAPABILITY.fullmatch(entry.lower())
        if match is None:
            raise ValueError(
                f"build(): {ARCH_LIST_ENV} entry {entry!r} is not a compute capability "
                "such as '9.0' or '9.0a'"
            )
        arch = "".join(match.groups())
        if arch not in archs:
            archs.append(arch)
    return archs


@functools.lru_cache(maxsize=1)
def detected_archs() -> tuple[str, ...]:
    """Return the compute capabilities of the GPUs ``nvidia-smi`` lists (empty if unknown)."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return ()
    try:
        listing = subprocess.run(
            [smi, "--query-gpu=compute_cap", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout
        archs = parse_arch_list(listing)
    except (OSError, subprocess.SubprocessError, ValueError):
        return ()
    return tuple(sorted(archs, key=lambda arch: int(arch.rstrip("af"))))


def gencode_flags(archs: Sequence[str]) -> list[str]:
    """Machine code for each arch, plus PTX of the last so that newer GPUs can run it too."""
    flags = [f"-gencode=arch=compute_{arch},code=sm_{arch}" for arch in archs]
    if archs:
        flags.append(f"-gencode=arch=compute_{archs[-1]},code=compute_{archs[-1]}")
    return flags


def arch_flags(extra_cuda_cflags: Sequence[str]) -> list[str]:
    """Return nvcc's ``-gencode`` flags, or none if ``extra_cuda_cflags`` choose targets.

    ``$TVM_FFI_CUDA_ARCH_LIST`` decides when set; else the GPUs of this machine; else nothing
    is added and nvcc uses its default target.
    """
    if any(flag.startswith(_USER_ARCH_OPTIONS) for flag in extra_cuda_cflags):
        return []
    configured = os.environ.get(ARCH_LIST_ENV)
    if configured is not None and configured.strip():
        return gencode_flags(parse_arch_list(configured))
    return gencode_flags(detected_archs())


ROCM_ARCH_LIST_ENV = "TVM_FFI_ROCM_ARCH_LIST"


def _gfx_names(names: Iterable[str]) -> list[str]:
    """Return the distinct ``gfx`` target names among ``names``, in order, but ``gfx000``."""
    return list(dict.fromkeys(name for name in names if name and name != "gfx000"))


def _listing(command: Sequence[str]) -> str | None:
    try:
        return subprocess.run(
            list(command), capture_output=True, text=True, timeout=30, check=True
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None


def rocm_offload_arch_flags(rocm_home: str | None) -> list[str]:
    """Return hipcc's ``--offload-arch=gfx...`` flags.

    ``$TVM_FFI_ROCM_ARCH_LIST`` (e.g. ``"gfx90a gfx942"``) decides when set; else the GPUs
    ``rocm_agent_enumerator`` (from ``rocm_home/bin``, else PATH) or ``rocminfo`` lists.

    Raises
    ------
    RuntimeError
        If no GPU architecture can be found.
    """
    configured = os.environ.get(ROCM_ARCH_LIST_ENV)
    if configured is not None:
        return [f"--offload-arch={arch}" for arch in configured.split()]
    enumerator = Path(rocm_home or "") / "bin" / "rocm_agent_enumerator"
    listing = _listing([str(enumerator) if enumerator.exists() else "rocm_agent_enumerator"])
    archs = _gfx_names(line.strip() for line in (listing or "").splitlines())
    if not archs:
        info = _listing(["rocminfo"]) or ""
        names = (line.split(":")[-1].strip() for line in info.splitlines() if "Name:" in line)
        archs = _gfx_names(name for name in names if "gfx" in name.lower())
    if not archs:
        raise RuntimeError(
            "Could not detect ROCm GPU architecture automatically. Please set "
            f"{ROCM_ARCH_LIST_ENV} environment variable (e.g. 'gfx90a gfx942')."
        )
    return [f"--offload-arch={arch}" for arch in archs]
