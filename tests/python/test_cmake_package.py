# SPDX-License-Identifier: Apache-2.0
"""The CMake package (``find_package(tvm_ffi)``): the commands Apache TVM FFI's package provides.

The project in ``cmake_package/wheel`` uses ``tvm_ffi_configure_target`` and ``tvm_ffi_install``
the way Apache's packaging guide does. It is built once into a wheel by scikit-build-core from a
virtual environment that sees ``tvm_ffi`` only through a ``.pth`` file (so only the package's
``cmake.root`` entry point can lead CMake to it), installed with ``pip install --target`` and run
in a fresh interpreter. Smaller CMake projects written here check each keyword's effect on the
generated build, the errors and ``tvm_ffi_embed_bin_into``; ``cmake_package/cuda`` compiles a
kernel with ``add_tvm_ffi_fatbin``/``add_tvm_ffi_cubin`` and embeds it (run where a GPU is).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import site
import subprocess
import sys
import textwrap
import venv
import zipfile
from pathlib import Path
from typing import Any

import pytest
from conftest import environment_with_path_first
from pinned_versions import MATCHED_VERSION
from reference_wheels import require_reference_wheel
from test_example_packaging import _skip_without_build_tools

import tvm_ffi

pytestmark = [pytest.mark.compiles, pytest.mark.xdist_group("cmake_package")]

PROJECTS = Path(__file__).resolve().parent / "cmake_package"
PACKAGE = "cmake_pkg_demo"
LIBRARY = f"lib{PACKAGE}.so"
CMAKE_DIR = Path(tvm_ffi.libinfo.find_cmake_path())
IS_LINUX = sys.platform.startswith("linux")


def _run(cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=300, **kwargs)
    assert proc.returncode == 0, f"{' '.join(map(str, cmd))}\n{proc.stdout}\n{proc.stderr}"
    return proc


def _configure(source: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Configure ``source`` into ``source/build`` (Ninja unless ``args`` say otherwise)."""
    generator = [] if any(a.startswith("-G") for a in args) else ["-G", "Ninja"]
    cmd = ["cmake", "-S", str(source), "-B", str(source / "build"), *generator]
    cmd += [f"-Dtvm_ffi_DIR={CMAKE_DIR}", f"-DPython_EXECUTABLE={sys.executable}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=300)


def _write_project(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text).lstrip())
    return folder


def _one_line(text: str) -> str:
    """CMake wraps its messages; compare them with all whitespace runs made single spaces."""
    return " ".join(text.split())


# ---------------------------------------------------------------------------------------------
# The wheel, built from a venv whose site-packages reach tvm_ffi through a .pth file

# Run in the venv: where the packages come from.
WHERE = """
import json, sysconfig, scikit_build_core, tvm_ffi
print(json.dumps({"purelib": sysconfig.get_path("purelib"),
                  "tvm_ffi": tvm_ffi.__file__, "skbuild": scikit_build_core.__file__}))
"""


@pytest.fixture(scope="module")
def pth_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The python of a venv that gets tvm_ffi, pip and the rest through a ``.pth`` file.

    scikit-build-core is copied into the venv itself: CMake's default search path then holds
    only the venv's site-packages (scikit-build-core's own folder is the same), without tvm_ffi.
    """
    _skip_without_build_tools()
    import scikit_build_core

    root = tmp_path_factory.mktemp("pth_venv")
    venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt").create(root)
    python = root / ("Scripts" if os.name == "nt" else "bin") / "python"
    query = "import sysconfig; print(sysconfig.get_path('purelib'))"
    purelib = Path(_run([str(python), "-c", query]).stdout.strip())
    shutil.copytree(
        Path(scikit_build_core.__file__).parent,
        purelib / "scikit_build_core",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    outside = [str(Path(tvm_ffi.__file__).parent.parent), *site.getsitepackages()]
    (purelib / "outside.pth").write_text("\n".join(dict.fromkeys(outside)) + "\n")

    where = json.loads(_run([str(python), "-c", WHERE]).stdout)
    assert Path(where["skbuild"]).parent.parent == Path(where["purelib"]) == purelib
    assert Path(where["tvm_ffi"]).parent.parent != purelib, "tvm_ffi must come through .pth"
    return python


@pytest.fixture(scope="module")
def project(pth_venv: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project after ``pip wheel`` built it (the wheel is in ``dist/``)."""
    source = tmp_path_factory.mktemp("cmake_package") / "project"
    ignored = shutil.ignore_patterns("build-wheel", "dist", "python")
    shutil.copytree(PROJECTS / "wheel", source, ignore=ignored)
    pip = [str(pth_venv), "-m", "pip", "wheel", str(source), "--wheel-dir", str(source / "dist")]
    _run([*pip, "--no-build-isolation", "--no-deps", "--no-index"])
    return source


@pytest.fixture(scope="module")
def wheel(project: Path) -> Path:
    (built,) = (project / "dist").glob(f"{PACKAGE}-*.whl")
    return built


@pytest.fixture(scope="module")
def wheel_names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


@pytest.fixture(scope="module")
def site_dir(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("cmake_package_site")
    pip = [sys.executable, "-m", "pip", "install", str(wheel), "--target", str(target)]
    _run([*pip, "--no-deps", "--no-index"])
    return target


# Run against the installed wheel: what the package does, as JSON.
USE_PACKAGE = """
import json, traceback
import tvm_ffi
import cmake_pkg_demo as demo
import cmake_pkg_demo.text

tally = demo.Tally(5, 2)
ticks = [tally.tick(), tally.tick()]
tally.count = 100
result = {
    "ticks": ticks, "after_write": tally.tick(), "step": tally.step,
    "is_object": isinstance(tally, tvm_ffi.Object), "class": type(tally).__qualname__,
    "sum": demo.add_checked(2, 3), "repeat": cmake_pkg_demo.text.repeat("ab", 3),
    "all": sorted(demo.__all__), "lib": type(demo.LIB).__name__,
}
try:
    demo.add_checked(-5, 1)
except ValueError as err:
    result["error"] = str(err)
    result["traceback"] = traceback.format_exc()
print(json.dumps(result))
"""


@pytest.fixture(scope="module")
def used(site_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    cwd = tmp_path_factory.mktemp("cmake_package_run")
    env = environment_with_path_first(site_dir)
    return json.loads(_run([sys.executable, "-c", USE_PACKAGE], cwd=cwd, env=env).stdout)


def test_find_package_went_through_the_entry_point(project: Path) -> None:
    cache = (project / "build-wheel" / "CMakeCache.txt").read_text()
    found = re.search(r"^tvm_ffi_DIR:PATH=(.*)$", cache, re.MULTILINE)
    assert found is not None
    assert Path(found.group(1)).resolve() == CMAKE_DIR.resolve()
    root = re.search(r"^tvm_ffi_ROOT:PATH=(.*)$", cache, re.MULTILINE)
    assert root is not None
    assert Path(root.group(1)).resolve() == CMAKE_DIR.parents[2].resolve()


def test_stubs_were_generated_into_the_source_tree(project: Path) -> None:
    package = project / "python" / PACKAGE
    api = (package / "_ffi_api.py").read_text()
    # STUB_PKG defaults to the project name with "-" made "_", --init-lib to the target.
    assert f'LIB = _FFI_LOAD_LIB("{PACKAGE}", "{PACKAGE}")' in api
    assert "def add_checked(_0: int, _1: int, /) -> int: ..." in api
    assert f'@_FFI_REG_OBJ("{PACKAGE}.Tally")' in api
    assert "def tick(self, /) -> int: ..." in api
    assert "from ._ffi_api import *" in (package / "__init__.py").read_text()
    # STUB_PREFIX defaults to "<STUB_PKG>.": the nested namespace gets its own module.
    nested = (package / "text" / "_ffi_api.py").read_text()
    assert "def repeat(_0: str, _1: int, /) -> str: ..." in nested


def test_wheel_holds_the_generated_package_and_the_library(
    project: Path, wheel: Path, wheel_names: set[str]
) -> None:
    python_files = sorted(
        p.relative_to(project / "python").as_posix() for p in (project / "python").rglob("*.py")
    )
    assert python_files == [
        f"{PACKAGE}/__init__.py",
        f"{PACKAGE}/_ffi_api.py",
        f"{PACKAGE}/text/__init__.py",
        f"{PACKAGE}/text/_ffi_api.py",
    ]
    package_files = {n for n in wheel_names if not n.startswith(f"{PACKAGE}-0.1.0.dist-info/")}
    # install(TARGETS ... DESTINATION .) under wheel.install-dir; tvm_ffi_install adds nothing
    # on Linux (a .dSYM bundle on Apple platforms).
    assert package_files == {*python_files, f"{PACKAGE}/{LIBRARY}"}
    with zipfile.ZipFile(wheel) as archive:
        for name in python_files:
            assert archive.read(name).decode() == (project / "python" / name).read_text()


@pytest.mark.skipif(not IS_LINUX, reason="reads an ELF library")
def test_library_links_libtvm_ffi_and_names_sources_relatively(
    site_dir: Path, project: Path
) -> None:
    data = (site_dir / PACKAGE / LIBRARY).read_bytes()
    assert b"libtvm_ffi.so" in data  # LINK_SHARED
    # The prefix map: __FILE__ of the throw site is relative to the project.
    assert b"src/cmake_pkg_demo.cc" in data
    assert str(project).encode() not in data


def test_installed_package_works(used: dict[str, Any]) -> None:
    assert used["ticks"] == [7, 9]
    assert (used["after_write"], used["step"]) == (102, 2)
    assert used["is_object"] and used["class"] == "Tally"
    assert used["sum"] == 5
    assert used["repeat"] == "ababab"
    assert used["all"] == ["LIB", "Tally", "add_checked"]
    assert used["lib"] == "Module"


def test_installed_package_reports_native_errors(used: dict[str, Any]) -> None:
    assert used["error"] == "add_checked: -5 + 1 is negative"
    assert 'File "src/cmake_pkg_demo.cc", line' in used["traceback"]


# ---------------------------------------------------------------------------------------------
# Each keyword's effect, read from a configured (not built) project

OPTIONS_PROJECT = {
    "CMakeLists.txt": """
        cmake_minimum_required(VERSION 3.18)
        project(options LANGUAGES CXX)
        set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
        find_package(tvm_ffi CONFIG REQUIRED)
        foreach(name defaults no_shared plain rust_stubs init_stubs)
          add_library(${name} SHARED ${name}.cc)
        endforeach()
        tvm_ffi_configure_target(defaults)
        tvm_ffi_configure_target(no_shared LINK_SHARED OFF)
        tvm_ffi_configure_target(plain LINK_SHARED OFF LINK_HEADER OFF DEBUG_SYMBOL OFF)
        tvm_ffi_configure_target(rust_stubs STUB_DIR rust STUB_TARGET rust)
        tvm_ffi_configure_target(init_stubs STUB_DIR py STUB_INIT ON STUB_PKG my-pkg
                                 STUB_PREFIX my.prefix.)
        # What a project written for Apache TVM FFI may use after find_package(tvm_ffi).
        set(found "{}")
        foreach(command IN LISTS EXPECTED_COMMANDS)
          if(COMMAND ${command})
            string(JSON found SET "${found}" "${command}" true)
          endif()
        endforeach()
        foreach(var tvm_ffi_INCLUDE_DIR tvm_ffi_DLPACK_INCLUDE_DIR tvm_ffi_LIB_FILES
                    Python_EXECUTABLE CMAKE_CUDA_RUNTIME_LIBRARY)
          string(JSON found SET "${found}" "${var}" "\\"${${var}}\\"")
        endforeach()
        file(WRITE "${CMAKE_BINARY_DIR}/probe.json" "${found}")
    """,
    **{f"{name}.cc": "int f() { return 1; }\n" for name in ("defaults", "no_shared", "plain")},
    "rust_stubs.cc": "int g() { return 2; }\n",
    "init_stubs.cc": "int h() { return 3; }\n",
}


def _apache_commands() -> list[str]:
    """The functions and macros the reference's tvm_ffi-config.cmake defines (what it includes)."""
    with zipfile.ZipFile(require_reference_wheel(MATCHED_VERSION)) as archive:
        root = "tvm_ffi/share/cmake/tvm_ffi/"
        config = archive.read(root + "tvm_ffi-config.cmake").decode()
        included = re.findall(r"include\(\$\{CMAKE_CURRENT_LIST_DIR\}/([\w/]+\.cmake)\)", config)
        text = "".join(archive.read(root + name).decode() for name in included)
    return sorted(set(re.findall(r"^\s*(?:function|macro)\s*\(\s*(\w+)", text, re.MULTILINE)))


@pytest.fixture(scope="module")
def options_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The configured options project's build folder."""
    _skip_without_build_tools()
    if shutil.which("ninja") is None:
        pytest.skip("ninja is not installed (the tests read build.ninja)")
    source = _write_project(tmp_path_factory.mktemp("cmake_options"), OPTIONS_PROJECT)
    try:
        commands = _apache_commands()
    except pytest.skip.Exception:
        commands = []  # test_every_apache_command_is_defined skips or fails on its own
    proc = _configure(source, f"-DEXPECTED_COMMANDS={';'.join(commands)}")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return source / "build"


def _compile_command(build: Path, source_name: str) -> str:
    entries = json.loads((build / "compile_commands.json").read_text())
    (entry,) = [e for e in entries if Path(e["file"]).name == source_name]
    return entry["command"]


def _link_rule(build: Path, library: str) -> dict[str, str]:
    """The variables of the Ninja rule that links ``lib<library>.so`` (LINK_LIBRARIES, ...)."""
    text = (build / "build.ninja").read_text()
    found = re.search(rf"^build lib{library}\.so\b.*\n((?:  \S.*\n)+)", text, re.MULTILINE)
    assert found is not None, f"no link rule of lib{library}.so"
    pairs = (line.strip().split(" = ", 1) for line in found.group(1).splitlines())
    return {key: value for key, value in pairs}


def test_every_apache_command_is_defined(options_build: Path) -> None:
    expected = _apache_commands()
    assert "tvm_ffi_configure_target" in expected and "tvm_ffi_install" in expected
    probe = json.loads((options_build / "probe.json").read_text())
    assert [c for c in expected if not probe.get(c)] == []


def test_apache_config_variables_are_set(options_build: Path) -> None:
    probe = json.loads((options_build / "probe.json").read_text())
    include = Path(tvm_ffi.libinfo.find_include_path()).resolve()
    assert Path(probe["tvm_ffi_INCLUDE_DIR"]).resolve() == include
    assert (Path(probe["tvm_ffi_DLPACK_INCLUDE_DIR"]) / "dlpack" / "dlpack.h").exists()
    assert (
        Path(probe["tvm_ffi_LIB_FILES"]).resolve()
        == Path(tvm_ffi.libinfo.find_libtvm_ffi()).resolve()
    )
    assert Path(probe["Python_EXECUTABLE"]).exists()
    assert probe["CMAKE_CUDA_RUNTIME_LIBRARY"] == "Shared"


def test_links_follow_link_shared(options_build: Path) -> None:
    library = Path(tvm_ffi.libinfo.find_libtvm_ffi()).name
    assert library in _link_rule(options_build, "defaults")["LINK_LIBRARIES"]
    assert library in _link_rule(options_build, "rust_stubs")["LINK_LIBRARIES"]
    for target in ("no_shared", "plain"):
        assert library not in _link_rule(options_build, target).get("LINK_LIBRARIES", "")


def test_includes_follow_link_header_and_every_target_gets_the_prefix_map(
    options_build: Path,
) -> None:
    include = f"{tvm_ffi.libinfo.find_include_path()} "
    source_dir = options_build.parent
    for target in ("defaults", "no_shared", "plain"):
        command = _compile_command(options_build, f"{target}.cc")
        assert f"-ffile-prefix-map={source_dir}/=" in command
        assert (include in command) == (target != "plain")
        assert "/bigobj" not in command  # MSVC_FLAGS: MSVC only


def test_stub_generation_runs_after_the_build(options_build: Path) -> None:
    source_dir = options_build.parent
    stubgen = f"{sys.executable} -m tvm_ffi.stub.cli"
    assert _link_rule(options_build, "defaults")["POST_BUILD"] == ":"
    assert _link_rule(options_build, "rust_stubs")["POST_BUILD"].endswith(
        f"{stubgen} {source_dir}/rust --dlls {options_build}/librust_stubs.so --target rust"
    )
    assert _link_rule(options_build, "init_stubs")["POST_BUILD"].endswith(
        f"{stubgen} {source_dir}/py --dlls {options_build}/libinit_stubs.so"
        " --init-lib init_stubs --init-pypkg my-pkg --init-prefix my.prefix."
    )


# ---------------------------------------------------------------------------------------------
# Errors: each call below stops the configuration with the message shown

BAD_CALLS = [
    ("tvm_ffi_configure_target(nosuch)", "'nosuch' is not an existing CMake target"),
    ("tvm_ffi_configure_target(t STUB_PKG p)", "STUB_PKG/STUB_PREFIX require STUB_DIR"),
    (
        "tvm_ffi_configure_target(t STUB_DIR py STUB_PREFIX p.)",
        "STUB_PKG/STUB_PREFIX cannot be set when STUB_INIT is OFF",
    ),
    ("tvm_ffi_configure_target(t STUB_INIT ON)", "STUB_INIT=ON requires STUB_DIR"),
    ("tvm_ffi_configure_target(t STUB_DIR py STUB_TARGET go)", "it must be python or rust"),
    ("tvm_ffi_install(nosuch)", "tvm_ffi_install: 'nosuch' is not an existing CMake target"),
    ("tvm_ffi_embed_bin_into(t SYMBOL k)", "tvm_ffi_embed_bin_into: BIN is required"),
    ("tvm_ffi_embed_bin_into(t SYMBOL 1k BIN x)", "SYMBOL '1k' is not a C identifier"),
    ("add_tvm_ffi_cubin(k)", "add_tvm_ffi_cubin: one CUDA source is required"),
]


# Arguments Apache's commands ignore silently: ours ignore them too, with a warning.
IGNORED_ARGUMENT_CALLS = [
    ("tvm_ffi_configure_target(t LINK_SHARED)", "ignoring 'LINK_SHARED', which has no value"),
    (
        "tvm_ffi_configure_target(t STUB_DIR py LINKSHARED OFF)",
        "ignoring unknown arguments 'LINKSHARED;OFF'",
    ),
    ("tvm_ffi_install(t DESTINATION)", "tvm_ffi_install: ignoring 'DESTINATION', which has no"),
]


@pytest.mark.parametrize(("call", "message"), BAD_CALLS)
def test_bad_calls_stop_the_configuration(tmp_path: Path, call: str, message: str) -> None:
    proc = _configure_with(tmp_path, call)
    assert proc.returncode != 0
    assert message in _one_line(proc.stderr)


@pytest.mark.parametrize(("call", "message"), IGNORED_ARGUMENT_CALLS)
def test_ignored_arguments_are_warned_about(tmp_path: Path, call: str, message: str) -> None:
    proc = _configure_with(tmp_path, call)
    assert "CMake Warning" in proc.stderr
    assert message in _one_line(proc.stderr)


def _configure_with(tmp_path: Path, call: str) -> subprocess.CompletedProcess[str]:
    """Configures a project without languages that includes the commands and runs call."""
    _skip_without_build_tools()
    # Included by the paths Apache TVM FFI keeps them under; no compiler is needed to fail.
    _write_project(
        tmp_path,
        {
            "CMakeLists.txt": f"""
                cmake_minimum_required(VERSION 3.18)
                project(bad LANGUAGES NONE)
                include("{CMAKE_DIR.as_posix()}/Utils/Library.cmake")
                include("{CMAKE_DIR.as_posix()}/Utils/EmbedCubin.cmake")
                add_custom_target(t)
                {call}
            """
        },
    )
    return _configure(tmp_path)


# ---------------------------------------------------------------------------------------------
# tvm_ffi_embed_bin_into, with a plain file for the image (no CUDA needed)

EMBED_PROJECT = {
    "CMakeLists.txt": """
        cmake_minimum_required(VERSION 3.18)
        project(embed LANGUAGES CXX)
        find_package(Python COMPONENTS Interpreter REQUIRED)
        find_package(tvm_ffi CONFIG REQUIRED)
        add_library(embed SHARED embed.cc)
        tvm_ffi_configure_target(embed)
        tvm_ffi_embed_bin_into(embed SYMBOL image BIN "${CMAKE_CURRENT_SOURCE_DIR}/image.bin")
    """,
    "embed.cc": """
        #include <tvm/ffi/function.h>
        #include <tvm/ffi/reflection/registry.h>
        #include <tvm/ffi/string.h>

        #include <string>

        // The symbols TVM_FFI_EMBED_CUBIN(image) declares, read directly.
        extern "C" const char __tvm_ffi__cubin_image[];
        extern "C" const char __tvm_ffi__cubin_image_end[];

        TVM_FFI_STATIC_INIT_BLOCK() {
          tvm::ffi::reflection::GlobalDef().def("cmake_embed_demo.image", []() {
            std::string image(__tvm_ffi__cubin_image, __tvm_ffi__cubin_image_end);
            return tvm::ffi::String(image);
          });
        }
    """,
}

READ_IMAGE = """
import sys, tvm_ffi
tvm_ffi.load_module(sys.argv[1])
print(tvm_ffi.get_global_func("cmake_embed_demo.image")(), end="")
"""


def _embedded_image(build: Path) -> str:
    return _run([sys.executable, "-c", READ_IMAGE, str(build / "libembed.so")]).stdout


@pytest.mark.skipif(not IS_LINUX, reason="embedding needs GNU ld and objcopy")
def test_embedded_image_follows_its_file(tmp_path: Path) -> None:
    _skip_without_build_tools()
    if shutil.which("objcopy") is None:
        pytest.skip("objcopy is not installed")
    # Make relinks without recompiling when only the image changed, the case to check (Ninja
    # recompiles the object, which the embedding rewrote).
    generator = "Unix Makefiles" if shutil.which("make") else "Ninja"
    source = _write_project(tmp_path, EMBED_PROJECT)
    (source / "image.bin").write_bytes(b"first image")
    proc = _configure(source, f"-G{generator}")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    build = source / "build"
    _run(["cmake", "--build", str(build)])
    assert _embedded_image(build) == "first image"
    # A new image relinks the library; its object holds the first image already unless it was
    # recompiled, and the library must hold the new image only.
    (source / "image.bin").write_bytes(b"second, longer image")
    _run(["cmake", "--build", str(build)])
    assert _embedded_image(build) == "second, longer image"


# ---------------------------------------------------------------------------------------------
# add_tvm_ffi_fatbin / add_tvm_ffi_cubin and an embedded fatbin launched with CubinKernel

RUN_KERNEL = """
import json, sys, tvm_ffi
tvm_ffi.load_module(sys.argv[1])
count = tvm_ffi.get_global_func("cmake_cuda_demo.device_count")()
affine = tvm_ffi.get_global_func("cmake_cuda_demo.affine")
print(json.dumps({"devices": count, "values": list(affine(1000, 2.0, 1.0)) if count else None}))
"""


@pytest.fixture(scope="module")
def cuda_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The CUDA project, built; skips without nvcc or a CUDA toolkit CMake can use."""
    _skip_without_build_tools()
    if not IS_LINUX or shutil.which("nvcc") is None or shutil.which("ninja") is None:
        pytest.skip("needs Linux, nvcc and ninja")
    source = tmp_path_factory.mktemp("cmake_cuda") / "project"
    shutil.copytree(PROJECTS / "cuda", source)
    proc = _configure(source)
    if proc.returncode != 0:
        pytest.skip(f"CMake cannot use this CUDA toolkit:\n{proc.stderr[-2000:]}")
    _run(["cmake", "--build", str(source / "build")])
    return source / "build"


def test_cuda_images_are_copied_next_to_their_objects(cuda_build: Path) -> None:
    for kind in ("fatbin", "cubin"):
        objects = cuda_build / "CMakeFiles" / f"kernels_{kind}.dir"
        image = (objects / f"kernels.{kind}").read_bytes()
        assert image == (objects / "kernels.cu.o").read_bytes()
    # --cubin makes an ELF image for one architecture, --fatbin a fat binary.
    assert (cuda_build / "CMakeFiles/kernels_cubin.dir/kernels.cubin").read_bytes()[
        :4
    ] == b"\x7fELF"
    assert (cuda_build / "CMakeFiles/kernels_fatbin.dir/kernels.fatbin").read_bytes()[
        :4
    ] != b"\x7fELF"


def test_embedded_fatbin_runs_on_the_gpu(cuda_build: Path) -> None:
    proc = _run([sys.executable, "-c", RUN_KERNEL, str(cuda_build / "libcuda_embed.so")])
    result = json.loads(proc.stdout)
    if result["devices"] == 0:
        pytest.skip("needs a CUDA device (the library was built and loaded)")
    assert result["values"] == [2.0 * i + 1.0 for i in range(1000)]
