# SPDX-License-Identifier: Apache-2.0
"""Embed a CUBIN (or fatbin) image into an object file that uses ``TVM_FFI_EMBED_CUBIN``.

The image becomes read-only data between the symbols ``__tvm_ffi__cubin_<name>`` and
``__tvm_ffi__cubin_<name>_end``, local to the output object, which is what
``TVM_FFI_EMBED_CUBIN(<name>)`` refers to. Needs GNU ``ld`` and ``objcopy`` (Linux).

Command line::

    python -m tvm_ffi.utils.embed_cubin --output-obj out.o --input-obj in.o --cubin k.cubin --name k

This file uses the standard library only, so it also runs as a plain script.
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

_SYMBOL_PREFIX = "__tvm_ffi__cubin_"
# The CUDA driver reads the image in place; keep it aligned like nvcc's own fatbin sections.
_IMAGE_ALIGNMENT = 64


def _check_name(name: str) -> None:
    if not isinstance(name, str) or not name.isidentifier() or not name.isascii():
        raise ValueError(f"embed_cubin(): name must be a C identifier, got {name!r}")


def _run(step: str, command: list[str], cwd: Path | None, verbose: bool) -> None:
    if verbose:
        print(f"[{step}] {shlex.join(command)}")
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if verbose and (done.stdout or done.stderr):
        print(done.stdout + done.stderr, end="")
    if done.returncode != 0:
        raise RuntimeError(
            f"{command[0]} ({step}) failed with status {done.returncode}\n"
            f"Command: {shlex.join(command)}\nstdout: {done.stdout}\nstderr: {done.stderr}"
        )


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise RuntimeError(f"embed_cubin(): '{name}' (GNU binutils) is not on PATH")
    return path


def _image_object(image: bytes, name: str, work: Path, verbose: bool) -> Path:
    """Write ``image`` as an object whose .rodata lies between the two cubin symbols."""
    blob = f"embedded_{name}.cubin"  # ld derives _binary_embedded_<name>_cubin_* from it
    (work / blob).write_bytes(image)
    raw, renamed = work / f"cubin_{name}.o", work / f"cubin_{name}_renamed.o"
    _run("image", [_tool("ld"), "-r", "-b", "binary", "-o", str(raw), blob], work, verbose)
    stem = f"_binary_embedded_{name}_cubin"
    symbol = _SYMBOL_PREFIX + name
    rename = [
        _tool("objcopy"),
        "--rename-section", ".data=.rodata,alloc,load,readonly,data,contents",
        "--set-section-alignment", f".data={_IMAGE_ALIGNMENT}",
        "--redefine-sym", f"{stem}_start={symbol}",
        "--redefine-sym", f"{stem}_end={symbol}_end",
        "--strip-symbol", f"{stem}_size",
        "--add-section", ".note.GNU-stack=/dev/null",
        "--set-section-flags", ".note.GNU-stack=noload,readonly",
        str(raw), str(renamed),
    ]  # fmt: skip
    _run("rename", rename, None, verbose)
    return renamed


def embed_cubin(
    cubin_path: Path,
    input_obj_path: Path,
    output_obj_path: Path,
    name: str,
    verbose: bool = False,
) -> None:
    """Write ``output_obj_path``: ``input_obj_path`` with the CUBIN image merged in.

    Steps: ``ld -r -b binary`` turns the image into an object; ``objcopy`` moves it to
    ``.rodata``, names its bounds ``__tvm_ffi__cubin_<name>`` and ``..._end`` and marks the
    stack non-executable; ``ld -r`` merges it with the input object; ``objcopy`` makes the
    two symbols local, so objects embedding images under the same name link together.

    Parameters
    ----------
    cubin_path
        The image file (CUBIN, fatbin or PTX bytes).
    input_obj_path
        An object compiled from code that uses ``TVM_FFI_EMBED_CUBIN(<name>)``.
    output_obj_path
        Where to write the merged object (may equal ``input_obj_path``).
    name
        The name given to ``TVM_FFI_EMBED_CUBIN``; a C identifier.
    verbose
        Print each command and its output.

    Raises
    ------
    FileNotFoundError
        If the image or the input object does not exist.
    ValueError
        If ``name`` is not a C identifier.
    RuntimeError
        If ``ld`` or ``objcopy`` is missing or fails (the message has the tool's output).
    """
    cubin_path, input_obj_path = Path(cubin_path), Path(input_obj_path)
    output_obj_path = Path(output_obj_path)
    if not cubin_path.exists():
        raise FileNotFoundError(f"CUBIN file not found: {cubin_path}")
    if not input_obj_path.exists():
        raise FileNotFoundError(f"Input object file not found: {input_obj_path}")
    _check_name(name)
    with tempfile.TemporaryDirectory(prefix="tvm_ffi_embed_") as tmp:
        work = Path(tmp)
        image = _image_object(cubin_path.read_bytes(), name, work, verbose)
        merged = work / "merged.o"
        merge = [_tool("ld"), "-r", "-o", str(merged), str(input_obj_path), str(image)]
        _run("merge", merge, None, verbose)
        symbol = _SYMBOL_PREFIX + name
        localize = [f"--localize-symbol={symbol}", f"--localize-symbol={symbol}_end"]
        _run("localize", [_tool("objcopy"), *localize, str(merged)], None, verbose)
        shutil.copyfile(merged, output_obj_path)
    if verbose:
        print(f"Wrote {output_obj_path} with {symbol} and {symbol}_end (local)")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tvm_ffi.utils.embed_cubin",
        description="Embed CUBIN data into an object file that uses TVM_FFI_EMBED_CUBIN.",
    )
    parser.add_argument("--output-obj", required=True, metavar="PATH", help="object to write")
    parser.add_argument(
        "--input-obj", required=True, metavar="PATH", help="object using TVM_FFI_EMBED_CUBIN"
    )
    parser.add_argument("--cubin", required=True, metavar="PATH", help="the CUBIN image")
    parser.add_argument(
        "--name", required=True, metavar="NAME", help="the name given to TVM_FFI_EMBED_CUBIN"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="print each command")
    return parser


def main() -> int:
    """Run the command line tool; return the exit status (1 with a message on failure)."""
    args = _parser().parse_args()
    try:
        embed_cubin(
            Path(args.cubin).resolve(),
            Path(args.input_obj).resolve(),
            Path(args.output_obj).resolve(),
            args.name,
            verbose=args.verbose,
        )
    except (OSError, ValueError, RuntimeError) as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
