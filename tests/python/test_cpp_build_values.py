# SPDX-License-Identifier: Apache-2.0
"""tvm_ffi.cpp: what the build functions write into build.ninja, and loading a rebuilt library.

A control character in any value would end a ninja statement and let the rest of the value
add rules of its own; such values are refused, before anything is built. Values ninja can
hold once escaped (``$``, spaces, ``:``) still build.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import tvm_ffi.cpp
from tvm_ffi.cpp import ninja_build

SOURCE = "int answer() { return 42; }\n"
FILE_ARGUMENTS = ("sources", "cpp_files", "cuda_files")
INLINE_ARGUMENTS = (
    "extra_cflags",
    "extra_cuda_cflags",
    "extra_ldflags",
    "extra_include_paths",
    "build_directory",
)


def _injection(marker: Path) -> str:
    """A value that, written raw into build.ninja, adds a default edge creating ``marker``."""
    return f"x\nrule pwn\n  command = touch {marker}\nbuild {marker}: pwn\ndefault {marker}\n#"


def _inline_arguments(argument: str, value: str, build_dir: Path) -> dict:
    arguments: dict = {"build_directory": str(build_dir)}
    if argument == "build_directory":
        arguments["build_directory"] = str(build_dir / value)
    elif argument == "extra_include_paths":
        arguments[argument] = [str(build_dir / value)]
    else:
        arguments[argument] = ["-O2", value]
    return arguments


@pytest.mark.parametrize("argument", INLINE_ARGUMENTS)
@pytest.mark.parametrize("function", ["build_inline", "load_inline"])
def test_inline_value_with_a_line_break_is_refused(tmp_path, argument, function):
    marker = tmp_path / "MARKER"
    build_dir = tmp_path / "build"
    arguments = _inline_arguments(argument, _injection(marker), build_dir)
    with pytest.raises(ValueError, match=rf"^build\(\): {argument} holds the control character"):
        getattr(tvm_ffi.cpp, function)(
            "injected", cpp_sources=SOURCE, functions="answer", **arguments
        )
    assert not marker.exists()
    assert not (build_dir / "build.ninja").exists()


@pytest.mark.parametrize(
    ("function", "argument"),
    [
        *((function, argument) for function in ("build", "load") for argument in FILE_ARGUMENTS),
        ("build", "output"),  # load() takes no output
    ],
)
def test_file_build_value_with_a_line_break_is_refused(tmp_path, function, argument):
    marker = tmp_path / "MARKER"
    good = tmp_path / "ok.cc"
    good.write_text(SOURCE)
    arguments: dict = {"sources": [str(good)], "build_directory": str(tmp_path / "build")}
    value = str(tmp_path / _injection(marker)) + ".cc"
    if argument == "output":
        arguments["output"] = _injection(marker) + ".so"
    else:
        arguments[argument] = [*arguments.get(argument, []), value]
    with pytest.raises(ValueError, match=rf"^build\(\): {argument} holds the control character"):
        getattr(tvm_ffi.cpp, function)("injected", **arguments)
    assert not marker.exists()
    assert not (tmp_path / "build" / "build.ninja").exists()


@pytest.mark.parametrize("character", ["\n", "\r", "\x00", "\t", "\x1b", "\x7f"])
def test_every_control_character_is_refused(tmp_path, character):
    with pytest.raises(ValueError, match=r"extra_cflags holds the control character") as caught:
        tvm_ffi.cpp.build_inline("ctl", cpp_sources=SOURCE, extra_cflags=[f"-DX{character}"])
    assert repr(character) in str(caught.value)


def test_path_with_a_pipe_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"^build\(\): sources holds '\|'"):
        tvm_ffi.cpp.build("piped", sources=[str(tmp_path / "a|b.cc")])


def test_flag_that_is_not_a_str_is_refused(tmp_path):
    with pytest.raises(TypeError, match=r"extra_ldflags must hold str values, got int"):
        tvm_ffi.cpp.build_inline("typed", cpp_sources=SOURCE, extra_ldflags=[3])


def test_build_file_refuses_a_control_character_from_elsewhere():
    """A value that reaches the file by another way than an argument (say the environment)."""
    with pytest.raises(ValueError, match=r"the build.ninja variable 'cxx' holds"):
        ninja_build.render_build_file(
            {"cxx": ["c++\nrule x"]}, [], ["a.o"], "out.so", "link_shared"
        )
    with pytest.raises(ValueError, match=r"a path of the build holds"):
        ninja_build.render_build_file({"cxx": ["c++"]}, [], ["a\n.o"], "out.so", "link_shared")


def test_special_characters_are_escaped_in_the_build_file():
    text = ninja_build.render_build_file(
        {"cxx": ["c++"], "cxxflags": ["-DMSG=a b$c:d"]},
        [ninja_build.CompileStep("compile_cxx", "/s p:a$ce/x.cc", "x_cc.o")],
        [],
        "/o u:t$/lib.so",
        "link_shared",
    )
    assert "cxxflags = '-DMSG=a b$$c:d'\n" in text
    assert "build x_cc.o: compile_cxx /s$ p$:a$$ce/x.cc\n" in text
    assert "build /o$ u$:t$$/lib.so: link_shared x_cc.o\n" in text


@pytest.mark.compiles
def test_escaped_values_still_build(tmp_path):
    folder = tmp_path / "we ird:dir$x"
    folder.mkdir()
    (folder / "msg.h").write_text('#define PREFIX "p"\n')
    source = folder / "a b:$c.cc"
    source.write_text(
        "#include <tvm/ffi/function.h>\n"
        '#include "msg.h"\n'
        "int length() { return sizeof(PREFIX MSG) - 1; }\n"
        "TVM_FFI_DLL_EXPORT_TYPED_FUNC(length, length);\n"
    )
    mod = tvm_ffi.cpp.load(
        "escaped",
        sources=[str(source)],
        extra_cflags=['-DMSG="a b$c:d"'],
        extra_include_paths=[str(folder)],
        build_directory=str(folder / "out $1:2"),
    )
    assert mod.length() == len("pa b$c:d")


@pytest.mark.compiles
def test_load_inline_into_one_directory_loads_the_new_code(tmp_path):
    build_dir = str(tmp_path / "build")
    results = []
    for value in (1, 2, 1, 3):
        mod = tvm_ffi.cpp.load_inline(
            "reloaded",
            cpp_sources=f"int value() {{ return {value}; }}",
            functions="value",
            build_directory=build_dir,
        )
        results.append(mod.value())
    assert results == [1, 2, 1, 3]
    # build_inline's library keeps its name; rebuilt ones are loaded from copies beside it
    assert os.path.exists(os.path.join(build_dir, "reloaded.so"))


@pytest.mark.compiles
def test_load_of_a_changed_file_loads_the_new_code(tmp_path):
    source = tmp_path / "v.cc"
    build_dir = str(tmp_path / "build")
    results = []
    for value in (5, 6):
        source.write_text(
            "#include <tvm/ffi/function.h>\n"
            f"int value() {{ return {value}; }}\n"
            "TVM_FFI_DLL_EXPORT_TYPED_FUNC(value, value);\n"
        )
        mod = tvm_ffi.cpp.load("reloaded_file", sources=[str(source)], build_directory=build_dir)
        results.append(mod.value())
    assert results == [5, 6]
