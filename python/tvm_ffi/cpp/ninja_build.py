# SPDX-License-Identifier: Apache-2.0
"""Write ``build.ninja``, run ninja, and guard a build directory with a file lock."""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import re
import shlex
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

BUILD_FILE_NAME = "build.ninja"
_LOCK_FILE_NAME = ".tvm_ffi_build.lock"

# Builds log under the name Apache's package uses, so logging configuration carries over.
logger = logging.getLogger("tvm_ffi.cpp.extension")

# Every rule writes `$out.tmp` and renames it over `$out`, so an interrupted or concurrent
# build never leaves a half-written object or library under its final name.
_RULES = """\
rule compile_cxx
  command = $cxx -MMD -MT $out -MF $out.d $cxxflags -c $in -o $out.tmp && mv -f $out.tmp $out
  depfile = $out.d
  deps = gcc
  description = CXX $in

rule compile_c
  command = $cc -MMD -MT $out -MF $out.d $cflags -c $in -o $out.tmp && mv -f $out.tmp $out
  depfile = $out.d
  deps = gcc
  description = CC $in

rule compile_gpu
  command = $gpucc $gpuflags -c $in -o $out.tmp && mv -f $out.tmp $out
  description = GPUCC $in

rule link_shared
  command = $cxx $in -o $out.tmp $ldflags && mv -f $out.tmp $out
  description = LINK $out

rule link_object
  command = $cxx -r -nostdlib $in -o $out.tmp && mv -f $out.tmp $out
  description = LINK $out
"""

_EMBED_RULE = """
rule embed_cubin
  command = $embed --output-obj $out.tmp --input-obj $in --cubin $cubin --name $name $
      && mv -f $out.tmp $out
  description = EMBED $name
"""


@dataclass(frozen=True)
class CompileStep:
    """One source compiled by ``rule`` (``compile_cxx``, ``compile_c`` or ``compile_gpu``)."""

    rule: str
    source: str
    obj: str


# A line break ends a ninja statement, so one in a value would start a statement of its own;
# no C0 control character (nor DEL) belongs in a path or a compiler flag.
_CONTROL_CHARACTER = re.compile(r"[\x00-\x1f\x7f]")


def check_build_value(value: str, argument: str) -> None:
    """Raise ``ValueError`` naming ``argument`` if ``value`` holds a control character."""
    found = _CONTROL_CHARACTER.search(value)
    if found is not None:
        raise ValueError(
            f"build(): {argument} holds the control character {found.group()!r} at index "
            f"{found.start()}, which build.ninja cannot hold; got {value!r}"
        )


def check_build_path(path: str, argument: str) -> None:
    """Like :func:`check_build_value`, and reject ``|``: a ninja path cannot escape it."""
    check_build_value(path, argument)
    if "|" in path:
        raise ValueError(
            f"build(): {argument} holds '|', which a path in build.ninja cannot hold; got {path!r}"
        )


def _escape_path(path: str) -> str:
    check_build_path(path, "a path of the build")
    return path.replace("$", "$$").replace(" ", "$ ").replace(":", "$:")


def _variable(name: str, command: Sequence[str]) -> str:
    for word in command:
        check_build_value(word, f"the build.ninja variable '{name}'")
    joined = " ".join(shlex.quote(word) for word in command)
    return f"{name} = {joined.replace('$', '$$')}\n"


def render_build_file(
    tools: Mapping[str, Sequence[str]],
    steps: Sequence[CompileStep],
    prebuilt_objects: Sequence[str],
    output: str,
    link_rule: str,
    *,
    cubin_names: Sequence[str] = (),
) -> str:
    """Render ``build.ninja``: tool and flag variables, the rules, one edge per step, the link.

    ``tools`` maps the variables the rules use (``cxx``, ``cxxflags``, ``cc``, ``cflags``,
    ``gpucc``, ``gpuflags``, ``ldflags``, ``embed``) to command words. With ``cubin_names``,
    the objects are first merged into one, into which each ``<name>.cubin`` of the build
    directory is embedded in turn (see :mod:`tvm_ffi.utils.embed_cubin`) before the link.
    """
    lines = ["ninja_required_version = 1.3\n"]
    lines += [_variable(name, words) for name, words in sorted(tools.items())]
    lines += ["\n", _RULES, _EMBED_RULE if cubin_names else "", "\n"]
    for step in steps:
        obj, source = _escape_path(step.obj), _escape_path(step.source)
        lines.append(f"build {obj}: {step.rule} {source}\n")
    inputs = [_escape_path(step.obj) for step in steps]
    inputs += [_escape_path(obj) for obj in prebuilt_objects]
    if cubin_names:
        lines += _embed_edges(inputs, cubin_names)
        inputs = [_embedded_object_name(cubin_names)]
    lines.append(f"\nbuild {_escape_path(output)}: {link_rule} {' '.join(inputs)}\n")
    lines.append(f"default {_escape_path(output)}\n")
    return "".join(lines)


def _embedded_object_name(cubin_names: Sequence[str]) -> str:
    return "unified_with_" + "_".join(cubin_names) + ".o"


def _embed_edges(objects: Sequence[str], cubin_names: Sequence[str]) -> list[str]:
    """Merge ``objects`` into ``unified.o``, then embed one image after the other into it."""
    edges = [f"build unified.o: link_object {' '.join(objects)}\n"]
    current = "unified.o"
    for count, name in enumerate(cubin_names, start=1):
        embedded = _embedded_object_name(cubin_names[:count])
        edges.append(f"build {embedded}: embed_cubin {current} | {name}.cubin\n")
        edges.append(f"  cubin = {name}.cubin\n  name = {name}\n")
        current = embedded
    return edges


def write_if_changed(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, leaving an identical file untouched.

    Keeping the modification time of unchanged files lets ninja see that nothing is to do.
    """
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return
    temporary = path.with_name(f"{path.name}.tmp{os.getpid()}")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def _job_count_args() -> list[str]:
    jobs = os.environ.get("MAX_JOBS", "").strip()
    return ["-j", jobs] if jobs.isdigit() and int(jobs) > 0 else []


def _failure_message(done: subprocess.CompletedProcess[str]) -> str:
    parts = [f"ninja exited with status {done.returncode}"]
    parts += [
        f"{name}:\n{text}"
        for name, text in (("stdout", done.stdout), ("stderr", done.stderr))
        if text
    ]
    return "\n".join(parts)


def _log_output(done: subprocess.CompletedProcess[str]) -> None:
    """Log ninja's output if ``$TVM_FFI_CPP_EXTENSION_LOG_BUILD`` is ``1``/``stdout``/``stderr``."""
    wanted = os.environ.get("TVM_FFI_CPP_EXTENSION_LOG_BUILD", "0")
    if wanted in ("1", "stdout"):
        logger.info("ninja build stdout:\n%s", done.stdout)
    if wanted in ("1", "stderr"):
        logger.info("ninja build stderr:\n%s", done.stderr)


def run_ninja(ninja: str, build_dir: Path) -> None:
    """Run ninja verbosely in ``build_dir`` (``$MAX_JOBS`` parallel jobs when set).

    Raises
    ------
    RuntimeError
        If ninja fails: ``"ninja exited with status N"``, then ninja's non-empty
        ``stdout:``/``stderr:`` (the compile commands and the compiler's errors).
    """
    command = [ninja, "-v", "-C", str(build_dir), "-f", BUILD_FILE_NAME, *_job_count_args()]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(_failure_message(done))
    _log_output(done)


@contextlib.contextmanager
def build_lock(build_dir: Path) -> Iterator[None]:
    """Hold an exclusive ``flock`` on the build directory's lock file (blocks until free)."""
    with open(build_dir / _LOCK_FILE_NAME, "a") as lock_file:
        fcntl.flock(lock_file.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock_file.fileno(), fcntl.LOCK_UN)
