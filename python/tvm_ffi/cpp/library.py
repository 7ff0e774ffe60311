# SPDX-License-Identifier: Apache-2.0
"""Compile sources into a shared library (or object file) in a locked, content-hashed directory."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from .. import __version__, libinfo
from . import cache, cuda_arch, ninja_build, toolchain
from .ninja_build import CompileStep

_NAME_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CXX_SUFFIXES = (".cc", ".cpp", ".cxx", ".c++", ".C")
_GPU_SUFFIXES = (".cu", ".hip")
_OBJECT_SUFFIXES = (".o", ".obj")
_STAMP_SUFFIX = ".tvm_ffi_stamp"


@dataclass(frozen=True)
class BuildOptions:
    """The user's flags, include paths and choices, shared by every build entry point."""

    extra_cflags: list[str] = field(default_factory=list)
    extra_cuda_cflags: list[str] = field(default_factory=list)
    extra_ldflags: list[str] = field(default_factory=list)
    extra_include_paths: list[str] = field(default_factory=list)
    build_directory: str | None = None
    backend: str | None = None
    output: str | None = None


def _checked_flags(flags: Sequence[str] | None, argument: str) -> list[str]:
    """Return ``flags`` as a list; each must be a str that build.ninja can hold."""
    checked = list(flags or [])
    for flag in checked:
        if not isinstance(flag, str):
            raise TypeError(f"build(): {argument} must hold str values, got {type(flag).__name__}")
        ninja_build.check_build_value(flag, argument)
    return checked


def _checked_path(path: str | os.PathLike[str], argument: str) -> str:
    """Return ``path`` made absolute, once checked as a path build.ninja can hold."""
    absolute = os.path.abspath(path)
    ninja_build.check_build_path(absolute, argument)
    return absolute


def make_build_options(
    extra_cflags: Sequence[str] | None,
    extra_cuda_cflags: Sequence[str] | None,
    extra_ldflags: Sequence[str] | None,
    extra_include_paths: Sequence[str] | None,
    *,
    build_directory: str | os.PathLike[str] | None,
    backend: str | None,
    output: str | None,
) -> BuildOptions:
    """Collect the optional arguments of the build functions; paths are made absolute.

    Raises
    ------
    ValueError
        If a value holds a control character (a line break would inject statements into
        build.ninja), or a path of a build statement holds ``|``.
    TypeError
        If a flag is not a str.
    """
    if output is not None:
        ninja_build.check_build_path(os.fspath(output), "output")
    include_paths = _checked_flags(
        [os.fspath(path) for path in extra_include_paths or []], "extra_include_paths"
    )
    directory = build_directory
    if directory is not None:
        directory = _checked_path(directory, "build_directory")
    return BuildOptions(
        extra_cflags=_checked_flags(extra_cflags, "extra_cflags"),
        extra_cuda_cflags=_checked_flags(extra_cuda_cflags, "extra_cuda_cflags"),
        extra_ldflags=_checked_flags(extra_ldflags, "extra_ldflags"),
        # ninja runs inside the build directory, so relative paths would change meaning
        extra_include_paths=[os.path.abspath(path) for path in include_paths],
        build_directory=directory,
        backend=backend,
        output=output,
    )


def check_identifier(value: str, what: str) -> None:
    """Raise ``ValueError`` unless ``value`` is identifier-like: ``[A-Za-z_][A-Za-z0-9_]*``."""
    if not isinstance(value, str) or _NAME_PATTERN.fullmatch(value) is None:
        raise ValueError(
            f"build(): {what} must be an identifier-like name (letters, digits, '_'), got {value!r}"
        )


def _rule_for(source: str) -> str | None:
    """Return the ninja rule compiling ``source``; ``None`` for an object file linked as-is."""
    if source.endswith(_OBJECT_SUFFIXES):
        return None
    if source.endswith(".c"):
        return "compile_c"
    if source.endswith(_GPU_SUFFIXES):
        return "compile_gpu"
    if source.endswith(_CXX_SUFFIXES):
        return "compile_cxx"
    raise ValueError(f"build(): cannot tell how to compile '{source}' from its extension")


def _compile_steps(sources: Sequence[str]) -> tuple[list[CompileStep], list[str]]:
    """Pair each compiled source with a unique object name; return them and the prebuilt objects."""
    steps: list[CompileStep] = []
    prebuilt: list[str] = []
    used: set[str] = set()
    for source in sources:
        rule = _rule_for(source)
        if rule is None:
            prebuilt.append(source)
            continue
        stem = Path(source).name.replace(".", "_")
        obj = f"{stem}.o" if f"{stem}.o" not in used else f"{stem}_{len(used)}.o"
        used.add(obj)
        steps.append(CompileStep(rule, source, obj))
    return steps, prebuilt


def _embed_command() -> list[str]:
    """Run the embed tool as a script: it needs no import of tvm_ffi in the ninja process."""
    from ..utils import embed_cubin

    return [sys.executable, str(Path(embed_cubin.__file__).resolve())]


def _check_cubins(cubins: dict[str, bytes]) -> None:
    for cubin_name, image in cubins.items():
        check_identifier(cubin_name, "embed_cubin name")
        if not isinstance(image, (bytes, bytearray)):
            raise TypeError(
                f"build(): embed_cubin['{cubin_name}'] must be bytes, got {type(image).__name__}"
            )


def _tools(steps: Sequence[CompileStep], options: BuildOptions) -> dict[str, list[str]]:
    """Compiler commands and flag lists for the rules the steps use (the ninja variables)."""
    lib_dir = str(Path(libinfo.find_libtvm_ffi()).parent)
    include_dirs = [*libinfo.include_paths(), *options.extra_include_paths]
    rules = {step.rule for step in steps}
    gpu = toolchain.find_gpu_toolchain(options.backend) if "compile_gpu" in rules else None
    if gpu is not None and gpu.home is not None:
        include_dirs.append(str(Path(gpu.home) / "include"))
    includes = [f"-I{path}" for path in include_dirs]
    tools = {
        "cxx": toolchain.find_cxx_compiler(),
        "cxxflags": ["-std=c++17", "-fPIC", "-O2", *includes, *options.extra_cflags],
        "ldflags": [
            "-shared",
            f"-L{lib_dir}",
            "-ltvm_ffi",
            f"-Wl,-rpath,{lib_dir}",
            *(gpu.link_flags if gpu else ()),
            *options.extra_ldflags,
        ],
    }
    if "compile_c" in rules:
        tools["cc"] = toolchain.find_c_compiler()
        tools["cflags"] = ["-fPIC", "-O2", *includes, *options.extra_cflags]
    if gpu is not None:
        tools["gpucc"] = [gpu.compiler]
        targets = cuda_arch.arch_flags(options.extra_cuda_cflags) if gpu.backend == "cuda" else []
        flags = [*gpu.compile_flags, *targets, "-std=c++17", "-O2", *includes]
        tools["gpuflags"] = [*flags, *options.extra_cuda_cflags]
    return tools


def _output_path(name: str, build_dir: Path, output: str | None) -> Path:
    if output is None:
        suffix = ".dll" if sys.platform.startswith("win32") else ".so"
        return build_dir / f"{name}{suffix}"
    return build_dir / output  # an absolute `output` replaces build_dir


def _file_digest(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _stamp_path(output: Path) -> Path:
    return output.with_name(output.name + _STAMP_SUFFIX)


def _is_current(output: Path, key: str) -> bool:
    """Whether ``output`` was built, completely, from inputs hashing to ``key``."""
    stamp = _stamp_path(output)
    return output.exists() and stamp.exists() and stamp.read_text(encoding="utf-8") == key


@dataclass(frozen=True)
class _BuildPlan:
    """Everything one build needs, decided before taking the lock."""

    build_dir: Path
    output: Path
    key: str
    generated: dict[str, str]
    tools: dict[str, list[str]]
    steps: list[CompileStep]
    prebuilt: list[str]
    cubins: dict[str, bytes]


def _make_plan(
    name: str,
    options: BuildOptions,
    source_files: Sequence[str],
    generated: dict[str, str],
    cubins: dict[str, bytes],
) -> _BuildPlan:
    for path in source_files:
        ninja_build.check_build_path(path, "sources")
    all_sources = [str(Path(path).resolve()) for path in source_files] + sorted(generated)
    steps, prebuilt = _compile_steps(all_sources)
    if not steps and not prebuilt:
        raise ValueError("build(): nothing to build; give at least one source")
    tools = _tools(steps, options)
    inputs = {
        "name": name,
        "files": {path: _file_digest(path) for path in all_sources if path not in generated},
        "generated": generated,
        "tools": tools,
        "output": options.output,
        "version": __version__,
    }
    if cubins:  # only then, so that the keys of other builds stay as they were
        tools["embed"] = _embed_command()
        inputs["cubins"] = {n: hashlib.sha256(image).hexdigest() for n, image in cubins.items()}
    key = cache.content_hash(inputs)
    if options.build_directory is not None:
        build_dir = Path(options.build_directory)
    else:
        build_dir = cache.cached_build_dir(name, key)
    output = _output_path(name, build_dir, options.output)
    return _BuildPlan(build_dir, output, key, generated, tools, steps, prebuilt, cubins)


def _render(
    tools: dict[str, list[str]],
    steps: Sequence[CompileStep],
    prebuilt: Sequence[str],
    output: Path,
    cubin_names: Sequence[str],
) -> str:
    link_rule = "link_object" if output.suffix in _OBJECT_SUFFIXES else "link_shared"
    return ninja_build.render_build_file(
        tools, steps, prebuilt, str(output), link_rule, cubin_names=cubin_names
    )


def build_file_text(
    name: str, options: BuildOptions, sources: Sequence[str], cubin_names: Sequence[str] = ()
) -> str:
    """Return the ``build.ninja`` text that builds ``sources`` into ``name``'s library.

    The output is ``options.output`` when set; paths are relative to the build directory.
    Nothing is written or run.

    ``cubin_names`` are images ``<name>.cubin`` of the build directory to embed.
    """
    steps, prebuilt = _compile_steps(list(sources))
    tools = _tools(steps, options)
    if cubin_names:
        tools["embed"] = _embed_command()
    output = _output_path(name, Path(), options.output)
    return _render(tools, steps, prebuilt, output, sorted(cubin_names))


def _run_plan(plan: _BuildPlan) -> None:
    """Write the generated sources and build.ninja, run ninja, then stamp the output."""
    for file_name, text in plan.generated.items():
        ninja_build.write_if_changed(plan.build_dir / file_name, text)
    for cubin_name, image in plan.cubins.items():
        image_path = plan.build_dir / f"{cubin_name}.cubin"
        if not image_path.exists() or image_path.read_bytes() != image:
            image_path.write_bytes(image)
    # Generated sources compile by their full path, which the debug info then records: a
    # traceback through their code names that file, so the source line prints.
    build_dir = plan.build_dir.resolve()
    steps = [
        replace(step, source=str(build_dir / step.source))
        if step.source in plan.generated
        else step
        for step in plan.steps
    ]
    build_file = _render(plan.tools, steps, plan.prebuilt, plan.output, sorted(plan.cubins))
    ninja_build.write_if_changed(plan.build_dir / ninja_build.BUILD_FILE_NAME, build_file)
    ninja_build.run_ninja(toolchain.find_ninja(), plan.build_dir)
    ninja_build.write_if_changed(_stamp_path(plan.output), plan.key)


def build_library(
    name: str,
    options: BuildOptions,
    source_files: Sequence[str] = (),
    generated_sources: dict[str, str] | None = None,
    embedded_cubins: dict[str, bytes] | None = None,
    *,
    lock: bool = True,
) -> str:
    """Compile and link ``source_files`` plus ``generated_sources`` (file name -> text).

    ``embedded_cubins`` (name -> image bytes) are embedded into the compiled objects under the
    symbols ``TVM_FFI_EMBED_CUBIN(name)`` refers to, before the link (Linux, GNU binutils).

    Without ``options.build_directory`` the build lives in the cache directory named after the
    hash of every input. Generated sources are written into the build directory. A build whose
    inputs are all generated is skipped when its stamp matches; otherwise ninja decides what to
    rebuild (source files may include headers the hash does not see). A file lock serialises
    concurrent builds of one directory; ``lock=False`` leaves it to a caller that holds it.

    Returns
    -------
    str
        The path of the shared library (or object file).
    """
    check_identifier(name, "name")
    cubins = dict(embedded_cubins or {})
    _check_cubins(cubins)
    plan = _make_plan(name, options, source_files, dict(generated_sources or {}), cubins)
    if not source_files and _is_current(plan.output, plan.key):
        return str(plan.output)
    plan.build_dir.mkdir(parents=True, exist_ok=True)
    with ninja_build.build_lock(plan.build_dir) if lock else contextlib.nullcontext():
        _run_plan(plan)
    return str(plan.output)
